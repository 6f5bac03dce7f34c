/**
 * A worker's credentials and documents. The worker is a person of the caller's company (404
 * otherwise). Uploaded bytes are stored once (`stored_files`) and served at the URL the answer
 * gives; see ./files.ts.
 */
import type { Transaction } from "kysely";
import type {
  WorkerCredential,
  WorkerCredentialCreate,
  WorkerDocument,
  WorkerDocumentUpload,
} from "workforce-scheduling-api";
import type { UploadedFile } from "workforce-scheduling-api/handlers";
import type { Database } from "../store/database.js";
import { type ServiceContext, storedFileUrl } from "./context.js";
import { niceDate, storedTimestamp, timestampText } from "./dates.js";
import { insertWithNextId } from "./ids.js";
import type { Caller } from "./keys.js";
import { notFound, type Refusal, recordNumber, unprocessable } from "./refusals.js";

const SCHEMA = "#/components/schemas/WorkerCredentialCreate/properties";

/** The body of a document upload, its file as uploaded. */
export type DocumentUpload = Omit<WorkerDocumentUpload, "file"> & { readonly file?: UploadedFile };

/** Whether the worker is a person of the company. */
async function workerExists(tx: Transaction<Database>, companyId: number, workerId: number): Promise<boolean> {
  return (
    (await tx
      .selectFrom("personnel")
      .select("personnel_id")
      .where("company_id", "=", companyId)
      .where("personnel_id", "=", workerId)
      .executeTakeFirst()) !== undefined
  );
}

/** Stores bytes for the company; answers their number, the company's next. */
async function storeFile(
  tx: Transaction<Database>,
  companyId: number,
  fileName: string,
  mediaType: string,
  bytes: Buffer,
): Promise<number> {
  const row = await insertWithNextId(tx, companyId, "last_file_id", "stored_files", "file_id", {
    company_id: companyId,
    file_name: fileName,
    media_type: mediaType,
    bytes,
  })
    .returning("file_id")
    .executeTakeFirstOrThrow();
  return row.file_id;
}

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
    if (!(await workerExists(tx, companyId, workerId))) return notFound();
    const fileName = nonEmpty(body.file_name) ?? nonEmpty(body.file?.filename) ?? "file";
    const mediaType = nonEmpty(body.type) ?? nonEmpty(body.file?.mimetype) ?? "application/octet-stream";
    const fileId = await storeFile(tx, companyId, fileName, mediaType, body.file?.data ?? Buffer.alloc(0));
    const row = await insertWithNextId(tx, companyId, "last_worker_document_id", "worker_documents", "id", {
      company_id: companyId,
      personnel_id: workerId,
      name: body.name ?? null,
      file_name: fileName,
      type: mediaType,
      file_id: fileId,
      date_added: timestampText(context.now()),
    })
      .returningAll()
      .executeTakeFirstOrThrow();
    const document: WorkerDocument = {
      id: String(row.id),
      name: row.name ?? row.file_name,
      file_name: row.file_name,
      location: storedFileUrl(context, fileId, fileName),
      date_added: niceDate(row.date_added),
      type: row.type,
      deleted: row.deleted,
      date_deleted: row.date_deleted,
      worker_viewable: row.worker_viewable,
    };
    return { status: 200 as const, body: document };
  });
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
    if (!(await workerExists(tx, companyId, workerId))) return notFound();
    const refusals: Refusal[] = [];
    const type =
      body.credentials_id === undefined
        ? undefined
        : await tx
            .selectFrom("credential_types")
            .selectAll()
            .where("company_id", "=", companyId)
            .where("credentials_id", "=", body.credentials_id)
            .executeTakeFirst();
    if (type === undefined) {
      refusals.push({
        instancePath: "/credentials_id",
        schemaPath: `${SCHEMA}/credentials_id`,
        keyword: body.credentials_id === undefined ? "required" : "reference",
        resource: "credential type",
        ...(body.credentials_id === undefined
          ? { says: "is required: it names the credential type" }
          : { value: body.credentials_id, says: "names no credential type of this company" }),
      });
    }
    const clientId = nonEmpty(body.clients_id);
    const client =
      clientId === undefined
        ? undefined
        : await tx
            .selectFrom("clients")
            .select(["client_id", "client_name"])
            .where("company_id", "=", companyId)
            .where("client_id", "=", clientId)
            .executeTakeFirst();
    if (clientId !== undefined && client === undefined) {
      refusals.push({
        instancePath: "/clients_id",
        schemaPath: `${SCHEMA}/clients_id`,
        keyword: "reference",
        resource: "client",
        value: clientId,
        says: "names no client of this company",
      });
    }
    const locationText = nonEmpty(body.locations_id);
    const venueId = recordNumber(locationText);
    const venue =
      venueId === undefined
        ? undefined
        : await tx
            .selectFrom("venues")
            .select(["venue_id", "name"])
            .where("company_id", "=", companyId)
            .where("venue_id", "=", venueId)
            .executeTakeFirst();
    if (locationText !== undefined && venue === undefined) {
      refusals.push({
        instancePath: "/locations_id",
        schemaPath: `${SCHEMA}/locations_id`,
        keyword: "reference",
        resource: "venue",
        value: locationText,
        says: "names no venue of this company",
      });
    }
    if (type === undefined || refusals.length > 0) return unprocessable(refusals);
    const fileName = body.file_name ?? "";
    const fileType = body.file_type ?? "";
    const fileId =
      typeof body.file === "string"
        ? await storeFile(
            tx,
            companyId,
            fileName || "credential",
            fileType || "application/octet-stream",
            Buffer.from(body.file, "utf8"),
          )
        : undefined;
    const row = await insertWithNextId(tx, companyId, "last_worker_credential_id", "worker_credentials", "id", {
      company_id: companyId,
      personnel_id: workerId,
      credentials_id: type.credentials_id,
      submitter_id: caller.personnelId,
      name: nonEmpty(body.name) ?? null,
      date_completed: body.date_completed === undefined ? null : storedTimestamp(body.date_completed),
      date_expired: body.date_expired === undefined ? null : storedTimestamp(body.date_expired),
      date_submitted: timestampText(context.now()),
      clients_id: client?.client_id ?? null,
      locations_id: venue?.venue_id ?? null,
      file_id: fileId ?? null,
      file_name: fileName,
      file_type: fileType,
    })
      .returningAll()
      .executeTakeFirstOrThrow();
    const { company_id: _company, credentials_id: _type, name: typeName, ...typeFields } = type;
    const credential: WorkerCredential = {
      id: String(row.id),
      personnel_id: row.personnel_id,
      credentials_id: row.credentials_id,
      submitter_id: caller.personnelId,
      submitter_name: caller.name,
      ...dated("date_completed", row.date_completed),
      ...dated("date_expired", row.date_expired),
      ...dated("date_submitted", row.date_submitted),
      file_location_value: fileId === undefined ? "" : storedFileUrl(context, fileId, fileName || "credential"),
      file_name: row.file_name,
      file_display_name: row.file_name,
      clients_id: client?.client_id ?? "",
      client_name: client?.client_name ?? "",
      ...(venue === undefined ? {} : { locations_id: venue.venue_id }),
      location_name: venue?.name ?? "",
      deleted: row.deleted,
      personnel_credentials_id: String(row.id),
      company_id: companyId,
      name: row.name ?? typeName,
      ...typeFields,
    };
    return { status: 200 as const, body: credential };
  });
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
