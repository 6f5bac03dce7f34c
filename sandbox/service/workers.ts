/**
 * A worker's credentials and documents. The worker is a person of the caller's company (404
 * otherwise). Uploaded bytes are stored once (`stored_files`) and served at the URL the answer
 * gives; see ./files.ts.
 */
import type {
  WorkerCredential,
  WorkerCredentialCreate,
  WorkerDocument,
  WorkerDocumentUpload,
} from "workforce-scheduling-api";
import type { UploadedFile } from "workforce-scheduling-api/handlers";
import { clientNamed } from "../store/records/clients.js";
import { insertStoredFile } from "../store/records/files.js";
import { recordExists } from "../store/records/records.js";
import { venueNamed } from "../store/records/venues.js";
import {
  type CredentialTypeRow,
  credentialType,
  insertWorkerCredential,
  insertWorkerDocument,
  type NewWorkerCredential,
  type WorkerCredentialRow,
  type WorkerDocumentRow,
} from "../store/records/workers.js";
import type { Db } from "../store/schema/database.js";
import { type ServiceContext, storedFileUrl } from "./context.js";
import { niceDate, storedTimestamp, timestampText } from "./dates.js";
import type { Caller } from "./keys.js";
import { asSent, checkReferences, oneByOne, referenceOf } from "./references.js";
import { notFound, type Refusal, recordNumber, unprocessable } from "./refusals.js";

const SCHEMA = "#/components/schemas/WorkerCredentialCreate/properties";

/** The body of a document upload, its file as uploaded. */
export type DocumentUpload = Omit<WorkerDocumentUpload, "file"> & { readonly file?: UploadedFile };

/**
 * Stores a document of the worker and answers it: `location` is the URL the bytes are served at,
 * `type` the media type sent (else the part's), `file_name` the name sent (else the part's).
 */
export async function addWorkerDocument(
  context: ServiceContext,
  caller: Caller,
  workerId: number,
  body: DocumentUpload,
): Promise<{ status: 200; body: WorkerDocument } | ReturnType<typeof notFound>> {
  const companyId = caller.companyId;
  return context.db.transaction().execute(async (tx) => {
    if (!(await recordExists(tx, "personnel", companyId, workerId))) return notFound();
    const fileName = nonEmpty(body.file_name) ?? nonEmpty(body.file?.filename) ?? "file";
    const mediaType = nonEmpty(body.type) ?? nonEmpty(body.file?.mimetype) ?? "application/octet-stream";
    const fileId = await insertStoredFile(tx, companyId, fileName, mediaType, body.file?.data ?? Buffer.alloc(0));
    const row = await insertWorkerDocument(tx, companyId, {
      personnel_id: workerId,
      name: body.name ?? null,
      file_name: fileName,
      type: mediaType,
      file_id: fileId,
      date_added: timestampText(context.now()),
    });
    return { status: 200 as const, body: documentRecord(context, row) };
  });
}

/** The document record of a stored row, its `location` the URL its file is served at. */
function documentRecord(context: ServiceContext, row: WorkerDocumentRow): WorkerDocument {
  return {
    id: String(row.id),
    name: row.name ?? row.file_name,
    file_name: row.file_name,
    location: storedFileUrl(context, row.file_id, row.file_name),
    date_added: niceDate(row.date_added),
    type: row.type,
    deleted: row.deleted,
    date_deleted: row.date_deleted,
    worker_viewable: row.worker_viewable,
  };
}

/**
 * Stores a credential of the worker and answers it, filled from the stored records: the credential
 * type's fields, the submitter (the caller), the client's and the venue's names, the company.
 */
export async function addWorkerCredential(
  context: ServiceContext,
  caller: Caller,
  workerId: number,
  body: WorkerCredentialCreate,
): Promise<{ status: 200; body: WorkerCredential } | ReturnType<typeof notFound> | ReturnType<typeof unprocessable>> {
  const companyId = caller.companyId;
  return context.db.transaction().execute(async (tx) => {
    if (!(await recordExists(tx, "personnel", companyId, workerId))) return notFound();
    const { type, client, venue, refusals } = await credentialReferences(tx, companyId, body);
    if (type === undefined || refusals.length > 0) return unprocessable(refusals);
    const named = { type, client, venue };
    const fileId = await credentialFile(tx, companyId, body);
    const row = await insertWorkerCredential(
      tx,
      companyId,
      credentialColumns(context, caller, workerId, body, named, fileId),
    );
    return { status: 200 as const, body: credentialRecord(context, caller, row, named) };
  });
}

/** The records a credential names: its type (which it must name), and the client and venue it may name. */
interface CredentialNames {
  readonly type: CredentialTypeRow;
  readonly client: { readonly client_id: string; readonly client_name: string } | undefined;
  readonly venue: { readonly venue_id: number; readonly name: string } | undefined;
}

/** The records the credential's body names, and a refusal for each reference that names none, in the body's order. */
async function credentialReferences(
  db: Db,
  companyId: number,
  body: WorkerCredentialCreate,
): Promise<Partial<CredentialNames> & { readonly refusals: Refusal[] }> {
  const types = await checkReferences(
    referenceOf(TYPE_REFERENCE, body.credentials_id, asSent),
    oneByOne((id: string) => credentialType(db, companyId, id)),
  );
  const clients = await checkReferences(
    referenceOf(CLIENT_REFERENCE, nonEmpty(body.clients_id), asSent),
    oneByOne((id: string) => clientNamed(db, companyId, id)),
  );
  const venues = await checkReferences(
    referenceOf(VENUE_REFERENCE, nonEmpty(body.locations_id), recordNumber),
    oneByOne((id: number) => venueNamed(db, companyId, id)),
  );
  const typeRefusals = body.credentials_id === undefined ? [TYPE_REQUIRED] : types.refusals;
  return {
    type: theOne(types.found),
    client: theOne(clients.found),
    venue: theOne(venues.found),
    refusals: [...typeRefusals, ...clients.refusals, ...venues.refusals],
  };
}

const TYPE_REFERENCE = {
  instancePath: "/credentials_id",
  schemaPath: `${SCHEMA}/credentials_id`,
  resource: "credential type",
};
const CLIENT_REFERENCE = { instancePath: "/clients_id", schemaPath: `${SCHEMA}/clients_id`, resource: "client" };
const VENUE_REFERENCE = { instancePath: "/locations_id", schemaPath: `${SCHEMA}/locations_id`, resource: "venue" };
const TYPE_REQUIRED: Refusal = {
  ...TYPE_REFERENCE,
  keyword: "required",
  says: "is required: it names the credential type",
};

/** The one record a single reference found, or undefined. */
function theOne<R>(found: ReadonlyMap<unknown, R> | undefined): R | undefined {
  return found === undefined ? undefined : [...found.values()][0];
}

/** Stores the credential's file, sent as text, as its UTF-8 bytes: its number, or undefined when none is sent. */
async function credentialFile(db: Db, companyId: number, body: WorkerCredentialCreate): Promise<number | undefined> {
  if (typeof body.file !== "string") return undefined;
  const fileName = body.file_name || "credential";
  const mediaType = body.file_type || "application/octet-stream";
  return insertStoredFile(db, companyId, fileName, mediaType, Buffer.from(body.file, "utf8"));
}

/** The columns of the new credential. */
function credentialColumns(
  context: ServiceContext,
  caller: Caller,
  workerId: number,
  body: WorkerCredentialCreate,
  named: CredentialNames,
  fileId: number | undefined,
): NewWorkerCredential {
  return {
    personnel_id: workerId,
    credentials_id: named.type.credentials_id,
    submitter_id: caller.personnelId,
    name: nonEmpty(body.name) ?? null,
    date_completed: body.date_completed === undefined ? null : storedTimestamp(body.date_completed),
    date_expired: body.date_expired === undefined ? null : storedTimestamp(body.date_expired),
    date_submitted: timestampText(context.now()),
    clients_id: named.client?.client_id ?? null,
    locations_id: named.venue?.venue_id ?? null,
    file_id: fileId ?? null,
    file_name: body.file_name ?? "",
    file_type: body.file_type ?? "",
  };
}

/** The credential record of a stored row, with the type's fields and the names of what it names. */
function credentialRecord(
  context: ServiceContext,
  caller: Caller,
  row: WorkerCredentialRow,
  named: CredentialNames,
): WorkerCredential {
  const { company_id: _company, credentials_id: _type, name: typeName, ...typeFields } = named.type;
  const { client, venue } = named;
  return {
    id: String(row.id),
    personnel_id: row.personnel_id,
    credentials_id: row.credentials_id,
    submitter_id: caller.personnelId,
    submitter_name: caller.name,
    ...dated("date_completed", row.date_completed),
    ...dated("date_expired", row.date_expired),
    ...dated("date_submitted", row.date_submitted),
    file_location_value: row.file_id === null ? "" : storedFileUrl(context, row.file_id, row.file_name || "credential"),
    file_name: row.file_name,
    file_display_name: row.file_name,
    clients_id: client?.client_id ?? "",
    client_name: client?.client_name ?? "",
    ...(venue === undefined ? {} : { locations_id: venue.venue_id }),
    location_name: venue?.name ?? "",
    deleted: row.deleted,
    personnel_credentials_id: String(row.id),
    company_id: caller.companyId,
    name: row.name ?? typeName,
    ...typeFields,
  };
}

/** A stored time and its readable date, under the field's name and its `_nice` twin; nothing when unset. */
function dated<K extends string>(
  field: K,
  stored: string | null,
): Record<K | `${K}_nice`, string> | Record<string, never> {
  if (stored === null) return {};
  return { [field]: stored, [`${field}_nice`]: niceDate(stored) } as Record<K | `${K}_nice`, string>;
}

function nonEmpty(text: string | null | undefined): string | undefined {
  return text === null || text === undefined || text === "" ? undefined : text;
}
