/**
 * The sandbox's tables, as the query layer sees them (Kysely's row types). Every table that holds
 * a company's data has `company_id` leading its primary key, its indexes and its foreign keys: every
 * query is scoped by the caller's company, and the data can be distributed by it (a distributed
 * PostgreSQL such as Citus routes a query that names the company to one node).
 *
 * Dates and times are stored as the text the answers give (`2024-04-20`, `2024-04-20 09:14:00` in
 * UTC): the contract's `date` format takes years PostgreSQL's calendar types refuse (year 0000), and
 * text is compared in the same order. `bigint` ids are read as numbers (they stay far below 2^53).
 */
import type { ColumnType, Generated, Kysely, Transaction } from "kysely";
import type { UploadedFile } from "workforce-scheduling-api/handlers";

/** A JSON value stored in a `jsonb` column: written as JSON text, read back parsed. */
export type Json = ColumnType<unknown, string, string>;

/** A `text[]` column: written and read as an array of strings. */
export type TextArray = ColumnType<string[], string[], string[]>;

/** What a statement runs on: the query layer, or one of its transactions. */
export type Db = Kysely<Database> | Transaction<Database>;

export interface Database {
  /** The sandbox's own settings: the secret its key digests are made with. */
  sandbox_settings: { name: string; value: string };
  /**
   * A company, and the revision of its events: taken from the schema's `events_revisions`
   * sequence when the row is made (each value the start of a range of 2^32), and advanced by one
   * by every write of one of its events (in the write's own statement or transaction), so a list
   * read with its revision can be kept until the revision changes. A company's values never
   * repeat, a reset included.
   */
  companies: {
    company_id: number;
    name: string;
    events_revision: Generated<number>;
    /**
     * The last id the company gave of each kind of record (0 before its first): its next record
     * takes the counter's next value, in the insert's own statement, which locks the row until
     * the insert's transaction ends, so concurrent inserts of a company take one id each, in turn.
     * A company's ids count from 1, and show nothing of another company's records.
     */
    last_venue_id: Generated<number>;
    last_event_id: Generated<number>;
    last_payroll_group_id: Generated<number>;
    last_file_id: Generated<number>;
    last_worker_document_id: Generated<number>;
    last_worker_credential_id: Generated<number>;
  };
  personnel: { company_id: number; personnel_id: number; name: string };
  /** An API key, as the HMAC-SHA-256 digest of the key (the key itself is never stored), and its holder. */
  api_keys: { company_id: number; key_digest: string; personnel_id: number };
  clients: {
    company_id: number;
    client_id: string;
    client_name: string;
    client_contact_name: string | null;
    client_contact_email: string | null;
    client_invoice_customer_id: string | null;
    client_address: string | null;
    client_city: string | null;
    client_state: string | null;
    client_postal_code: string | null;
  };
  credential_types: {
    company_id: number;
    credentials_id: string;
    name: string;
    description: string;
    type: string;
    expiration_months: number;
    expiring_inform: number;
    expiring_inform_period: number;
    expiring_inform_hr: number;
    expiring_inform_hr_period: number;
    expired_inform: number;
    expired_inform_hr: number;
    rule_usable: number;
    worker_viewable: number;
    worker_editable: number;
    protected: number;
    course_id: number;
  };
  /** Wage rules as given: any JSON objects, in the seed's order, each named by its `id`. */
  wage_rules: { company_id: number; position: number; rule_id: string; body: Json };
  venues: {
    company_id: number;
    venue_id: number;
    name: string;
    address: string;
    city: string;
    zip: string;
    saved: number;
  };
  events: {
    company_id: number;
    id: number;
    name: string;
    date: string;
    event_id: string | null;
    client_id: string | null;
    job_id: string | null;
    admin_comments: string | null;
    comments: string | null;
    created: string;
    /** the venue the event is held at, or null for a location made of the fields sent */
    venue_id: number | null;
    location_name: string | null;
    location_address: string | null;
    location_city: string | null;
    location_zip: string | null;
    location_saved: boolean | null;
    admin_origin: number;
    custom_fields: Json;
  };
  payroll_groups: {
    company_id: number;
    id: number;
    name: string | null;
    payroll_item_id: string | null;
    invoice_cost: number | null;
    default_wage: number | null;
    insert_date: string;
    deleted: Generated<number>;
    wage_rules_id: string | null;
    group_rows: TextArray;
    locations: TextArray;
    location_all: boolean | null;
    pending: Generated<boolean>;
    update_error: Generated<boolean>;
    delete_error: Generated<boolean>;
  };
  /** Uploaded bytes: a worker document's file or a credential's (a `Buffer` in Node, as an upload's). */
  stored_files: {
    company_id: number;
    file_id: number;
    file_name: string;
    media_type: string;
    bytes: UploadedFile["data"];
  };
  worker_documents: {
    company_id: number;
    id: number;
    personnel_id: number;
    name: string | null;
    file_name: string;
    type: string;
    file_id: number;
    date_added: string;
    deleted: Generated<number>;
    date_deleted: string | null;
    worker_viewable: Generated<number>;
  };
  worker_credentials: {
    company_id: number;
    id: number;
    personnel_id: number;
    credentials_id: string;
    submitter_id: number;
    name: string | null;
    date_completed: string | null;
    date_expired: string | null;
    date_submitted: string;
    clients_id: string | null;
    locations_id: number | null;
    file_id: number | null;
    file_name: string;
    file_type: string;
    deleted: Generated<number>;
  };
}

/** The tables holding a company's data (and its keys), in an order that respects their references. */
export const COMPANY_TABLES = [
  "companies",
  "personnel",
  "api_keys",
  "clients",
  "credential_types",
  "wage_rules",
  "venues",
  "events",
  "payroll_groups",
  "stored_files",
  "worker_documents",
  "worker_credentials",
] as const satisfies readonly (keyof Database)[];
