/**
 * The sandbox's implementation of the generated `Handlers`: each operation's rules over the
 * database, for the company of the caller's key. Every handler answers one of its operation's
 * declared responses (the compiler holds it to that); the generated server has already checked
 * the key, the media type and the input against the contract, and checks the answer too.
 */
import type { Handlers } from "workforce-scheduling-api/handlers";
import { updateClient } from "./clients.js";
import type { ServiceContext } from "./context.js";
import { createEvent, listEvents, updateEvent } from "./events.js";
import type { Caller } from "./keys.js";
import { createPayrollGroup } from "./payroll-groups.js";
import { notFound, unprocessable } from "./refusals.js";
import { type StoredFields, storable, unstorableStrings } from "./storable.js";
import { createVenue } from "./venues.js";
import { listWageRules } from "./wage-rules.js";
import { addWorkerCredential, addWorkerDocument } from "./workers.js";

/** The handlers of one sandbox. */
export function createSandboxHandlers(context: ServiceContext): Handlers<Caller> {
  return {
    addWorkerCredential: ({ principal, params, body }) =>
      storing(body, CREDENTIAL, () => addWorkerCredential(context, principal, params.id, body)),
    addWorkerDocument: ({ principal, params, body }) =>
      storing(body, DOCUMENT, () => addWorkerDocument(context, principal, params.id, body)),
    createEvent: ({ principal, body }) => storing(body, EVENT, () => createEvent(context, principal, body)),
    createPayrollGroup: ({ principal, body }) =>
      storing(body, PAYROLL_GROUP, () => createPayrollGroup(context, principal, body)),
    createVenue: ({ principal, body }) => storing(body, VENUE, () => createVenue(context, principal, body)),
    listEvents: ({ principal }) => listEvents(context, principal),
    listWageRules: ({ principal }) => listWageRules(context, principal),
    updateClient: ({ principal, params, body }) =>
      storable(params.id) ? storing(body, CLIENT, () => updateClient(context, principal, params.id, body)) : notFound(),
    updateEvent: ({ principal, params, body }) =>
      storing(body, EVENT_EDIT, () => updateEvent(context, principal, params.id, body)),
  };
}

/**
 * The strings each write sends to the database, as text (stored, or compared with stored text).
 * Others are read as numbers (a venue ID: one that is no number names no venue) or not at all
 * (`p_id`, and properties the contract leaves open).
 */
const EVENT: StoredFields = {
  text: [
    "/name",
    "/date",
    "/client_id",
    "/job_id",
    "/admin_comments",
    "/comments",
    "/custom_fields_text/*/key",
    "/custom_fields_text/*/value",
    "/custom_fields_id/*/key",
    "/custom_fields_id/*/value",
    "/venue/name",
    "/venue/address",
    "/venue/city",
    "/venue/zip",
  ],
};
const EVENT_EDIT: StoredFields = { text: [...EVENT.text, "/event_id"] };
const VENUE: StoredFields = { text: ["/name", "/address", "/city", "/zip"] };
const CLIENT: StoredFields = {
  text: [
    "/client_name",
    "/client_contact_name",
    "/client_contact_email",
    "/client_invoice_customer_id",
    "/client_address",
    "/client_city",
    "/client_state",
    "/client_postal_code",
  ],
};
const PAYROLL_GROUP: StoredFields = {
  text: ["/name", "/payroll_item_id", "/wage_rules_id", "/locations/*", "/group_rows/*"],
};
const CREDENTIAL: StoredFields = {
  text: ["/credentials_id", "/clients_id", "/name", "/date_completed", "/date_expired", "/file_name", "/file_type"],
  bytes: ["/file"],
};
const DOCUMENT: StoredFields = { text: ["/name", "/type", "/file_name", "/file/filename", "/file/mimetype"] };

/** Runs a write whose stored fields the database can hold as sent; answers 422 for one it cannot. */
async function storing<T>(
  body: unknown,
  stored: StoredFields,
  write: () => Promise<T>,
): Promise<T | ReturnType<typeof unprocessable>> {
  const refusals = unstorableStrings(body, stored);
  return refusals.length > 0 ? unprocessable(refusals) : write();
}
