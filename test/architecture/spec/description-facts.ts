/**
 * The facts of the service description (the source of spec/openapi.yaml), written down once as
 * data so that a later edit of the spec cannot silently drop one. Each row cites the section of
 * the description it comes from.
 */

export type JsonType = "string" | "integer" | "number" | "boolean" | "object" | "array" | "null";

/** What the description says of one field. */
export interface FieldFact {
  type: JsonType | JsonType[];
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  /** for arrays: the item type, or the name of the item schema */
  items?: JsonType | { schema: string };
  /** for nested objects: the component schema it is */
  schema?: string;
  /** the field must be rejected when present */
  notAccepted?: true;
}

/** One endpoint row of section 4. */
export interface EndpointFact {
  method: "get" | "post" | "patch";
  path: string;
  pathId?: FieldFact;
  request?: { mediaType: string; schema: string };
  status: "200" | "201";
  response: { schema: string } | { type: JsonType };
}

export const endpoints: readonly EndpointFact[] = [
  {
    method: "post",
    path: "/payroll-groups",
    request: { mediaType: "application/json", schema: "PayrollGroupCreate" },
    status: "200",
    response: { schema: "PayrollGroup" },
  },
  {
    method: "post",
    path: "/workers/{id}/credentials",
    pathId: { type: "integer", minimum: 0 },
    request: { mediaType: "application/json", schema: "WorkerCredentialCreate" },
    status: "200",
    response: { schema: "WorkerCredential" },
  },
  {
    method: "patch",
    path: "/clients/{id}",
    pathId: { type: "string" },
    request: { mediaType: "application/json", schema: "ClientUpdate" },
    status: "200",
    response: { type: "boolean" },
  },
  {
    method: "post",
    path: "/venues",
    request: { mediaType: "application/json", schema: "VenueCreate" },
    status: "200",
    response: { schema: "Venue" },
  },
  {
    method: "post",
    path: "/workers/{id}/documents",
    pathId: { type: "integer", minimum: 0 },
    request: { mediaType: "multipart/form-data", schema: "WorkerDocumentUpload" },
    status: "200",
    response: { schema: "WorkerDocument" },
  },
  { method: "get", path: "/wage-rules", status: "200", response: { schema: "WageRules" } },
  { method: "get", path: "/events", status: "200", response: { schema: "EventList" } },
  {
    method: "patch",
    path: "/events/{id}",
    pathId: { type: "string" },
    request: { mediaType: "application/json", schema: "EventUpdate" },
    status: "200",
    response: { schema: "Event" },
  },
  {
    method: "post",
    path: "/events",
    request: { mediaType: "application/json", schema: "EventCreate" },
    status: "201",
    response: { type: "integer" },
  },
];

const str: FieldFact = { type: "string" };
const int: FieldFact = { type: "integer" };
const bool: FieldFact = { type: "boolean" };
const strArray: FieldFact = { type: "array", items: "string" };
const flag: FieldFact = { type: "integer", minimum: 0, maximum: 1 };

/** Fields of every schema, by component name: section 2. */
export const schemas: Readonly<Record<string, Readonly<Record<string, FieldFact>>>> = {
  // 2.1: required fields not shown
  PayrollGroupCreate: {
    name: str,
    payroll_item_id: str,
    invoice_cost: str,
    locationAll: bool,
    locations: strArray,
    group_rows: strArray,
    wage_rules_id: str,
  },
  PayrollGroup: {
    id: str,
    name: str,
    payroll_item_id: str,
    default_wage: { type: ["number", "null"] },
    insert_date: str,
    invoice_cost: { type: ["number", "null"] },
    deleted: flag,
    wage_rules_id: str,
    group_rows: strArray,
    locations: strArray,
    pending: bool,
    updateError: bool,
    deleteError: bool,
  },
  // 2.2: required fields not shown
  WorkerCredentialCreate: {
    credentials_id: str,
    p_id: str,
    date_completed: { type: "string", format: "date-time" },
    date_expired: { type: "string", format: "date-time" },
    clients_id: { type: ["string", "null"] },
    locations_id: { type: ["string", "null"] },
    file_name: str,
    file_type: str,
    file: { type: ["string", "null"] },
    name: str,
  },
  WorkerCredential: {
    id: str,
    personnel_id: int,
    credentials_id: str,
    submitter_id: int,
    submitter_name: str,
    date_completed: str,
    date_completed_nice: str,
    date_expired: str,
    date_expired_nice: str,
    date_submitted: str,
    date_submitted_nice: str,
    file_location_value: str,
    file_name: str,
    file_display_name: str,
    clients_id: str,
    client_name: str,
    locations_id: int,
    location_name: str,
    deleted: int,
    personnel_credentials_id: str,
    company_id: int,
    name: str,
    description: str,
    expiring_inform: int,
    expiring_inform_period: int,
    expiring_inform_hr: int,
    expiring_inform_hr_period: int,
    expired_inform: int,
    expired_inform_hr: int,
    rule_usable: int,
    worker_viewable: int,
    worker_editable: int,
    type: str,
    protected: int,
    course_id: int,
    expiration_months: int,
  },
  // 2.3: the bounds 1-100 and 1-20 are assigned to name and type (reasoning in the spec)
  WorkerDocumentUpload: {
    p_id: int,
    name: { type: "string", minLength: 1, maxLength: 100 },
    file: { type: "string", format: "binary" },
    type: { type: "string", minLength: 1, maxLength: 20 },
    file_name: str,
  },
  WorkerDocument: {
    id: str,
    name: str,
    file_name: str,
    location: str,
    date_added: str,
    type: str,
    deleted: flag,
    date_deleted: { type: ["string", "null"] },
    worker_viewable: int,
  },
  // 2.4
  ClientUpdate: {
    client_name: { type: "string", required: true, minLength: 1, maxLength: 255 },
    client_contact_name: { type: "string", required: false, maxLength: 255 },
    client_contact_email: { type: "string", required: false, maxLength: 255 },
    client_invoice_customer_id: { type: "string", required: false, maxLength: 255 },
    client_address: { type: "string", required: false, maxLength: 65535 },
    client_city: { type: "string", required: false, maxLength: 255 },
    client_state: { type: "string", required: false, maxLength: 255 },
    client_postal_code: { type: "string", required: false, maxLength: 255 },
  },
  // 2.5
  VenueCreate: {
    name: { type: "string", required: true, maxLength: 150 },
    address: { type: "string", required: true, maxLength: 150 },
    city: { type: "string", required: true, maxLength: 75 },
    zip: { type: "string", required: true, maxLength: 10 },
    saved: { type: "integer", required: false, minimum: 0, maximum: 1 },
  },
  Venue: {
    venue_id: int,
    name: { type: "string", maxLength: 150 },
    address: { type: "string", maxLength: 150 },
    city: { type: "string", maxLength: 75 },
    zip: { type: "string", maxLength: 10 },
    saved: flag,
  },
  // 2.7
  Event: {
    id: { type: "number" },
    name: str,
    date: { type: "string", format: "date" },
    event_id: str,
    client_id: str,
    created: { type: "string", format: "date" },
    location: { type: "object", schema: "Location" },
    admin_origin: { type: "object", schema: "EventPersonnel" },
    reviewer: { type: "object", schema: "EventPersonnel" },
    time_tracking_manager: { type: "object", schema: "EventPersonnel" },
    custom_fields: { type: "array", items: { schema: "CustomField" } },
  },
  EventListItem: { id: int },
  Location: { id: int, name: str, address: str, city: str, zip: str, saved: bool },
  EventPersonnel: { personnel_id: int, name: str },
  CustomField: { id: str, name: str, value: str },
  EventList: { data: { type: "array", items: { schema: "EventListItem" } }, total_count: int },
  EventVenueInput: { venue_id: str, name: str, address: str, city: str, zip: str, saved: str },
  CustomFieldInput: { key: { type: "string", required: true }, value: { type: "string", required: true } },
  EventCreate: {
    name: { type: "string", required: true },
    date: { type: "string", format: "date", required: true },
    venue: { type: "object", required: true, schema: "EventVenueInput" },
    event_id: { type: "string", notAccepted: true },
    job_id: { type: "string", required: false, maxLength: 150 },
    client_id: { type: "string", required: false, pattern: "^[A-Za-z0-9]+" },
    admin_comments: { type: "string", required: false, maxLength: 65535 },
    comments: { type: "string", required: false, maxLength: 65535 },
    custom_fields_text: { type: "array", required: false, items: { schema: "CustomFieldInput" } },
    custom_fields_id: { type: "array", required: false, items: { schema: "CustomFieldInput" } },
  },
  EventUpdate: {
    name: { type: "string", required: true },
    date: { type: "string", format: "date", required: true },
    venue: { type: "object", required: true, schema: "EventVenueInput" },
    event_id: { type: "string", required: false, pattern: "^[A-Za-z0-9]+" },
    job_id: { type: "string", required: false, maxLength: 150 },
    client_id: { type: "string", required: false, pattern: "^[A-Za-z0-9]+" },
    admin_comments: { type: "string", required: false, maxLength: 65535 },
    comments: { type: "string", required: false, maxLength: 65535 },
    custom_fields_text: { type: "array", required: false, items: { schema: "CustomFieldInput" } },
    custom_fields_id: { type: "array", required: false, items: { schema: "CustomFieldInput" } },
  },
};

/**
 * Things the description says are "not shown": the spec must leave them open and say so in a
 * description. Each row: where in the spec, and a phrase the description there must contain.
 */
export const notShown: readonly { what: string; pointer: string; says: RegExp }[] = [
  {
    what: "required payroll-group fields",
    pointer: "/components/schemas/PayrollGroupCreate",
    says: /required is not specified/,
  },
  {
    what: "required credential fields",
    pointer: "/components/schemas/WorkerCredentialCreate",
    says: /required is not specified/,
  },
  {
    what: "the wage rule shape",
    pointer: "/components/schemas/WageRules",
    says: /specifies neither its shape nor the fields/,
  },
  {
    what: "GET /events query parameters",
    pointer: "/paths/~1events/get",
    says: /does not show any query\s+parameters/,
  },
  { what: "rate limits", pointer: "/info", says: /rate limits and request size limits/ },
  { what: "error format", pointer: "/info", says: /error status codes, error body format and error codes/ },
  {
    what: "key issuance",
    pointer: "/components/securitySchemes/ApiKeyAuth",
    says: /issued, scoped or revoked is not specified/,
  },
  {
    what: "document upload encoding",
    pointer: "/paths/~1workers~1{id}~1documents/post",
    says: /does not show the upload encoding/,
  },
  {
    what: "document length bound assignment",
    pointer: "/components/schemas/WorkerDocumentUpload",
    says: /without saying which field each belongs to/,
  },
];
