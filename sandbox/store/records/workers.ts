/**
 * The statements of workers (the company's personnel) and what is stored of them: their documents
 * and credentials, each numbered on a counter of the company, and the credential types a
 * credential names.
 */
import type { Selectable } from "kysely";
import type { Database, Db } from "../schema/database.js";
import { insertWithNextId } from "./ids.js";

/** A credential type as stored. */
export type CredentialTypeRow = Selectable<Database["credential_types"]>;

/** The credential type `credentialsId` of the company, or undefined. */
export function credentialType(
  db: Db,
  companyId: number,
  credentialsId: string,
): Promise<CredentialTypeRow | undefined> {
  return db
    .selectFrom("credential_types")
    .selectAll()
    .where("company_id", "=", companyId)
    .where("credentials_id", "=", credentialsId)
    .executeTakeFirst();
}

/** A worker's document as stored. */
export type WorkerDocumentRow = Selectable<Database["worker_documents"]>;

/** The columns a new document is given (the others take their defaults). */
export interface NewWorkerDocument {
  readonly personnel_id: number;
  readonly name: string | null;
  readonly file_name: string;
  readonly type: string;
  readonly file_id: number;
  readonly date_added: string;
}

/** Inserts a document of a worker of the company, its id the company's next: the row as stored. */
export function insertWorkerDocument(
  db: Db,
  companyId: number,
  document: NewWorkerDocument,
): Promise<WorkerDocumentRow> {
  return insertWithNextId(
    db,
    companyId,
    "last_worker_document_id",
    { table: "worker_documents", idColumn: "id" },
    {
      company_id: companyId,
      personnel_id: document.personnel_id,
      name: document.name,
      file_name: document.file_name,
      type: document.type,
      file_id: document.file_id,
      date_added: document.date_added,
    },
  );
}

/** A worker's credential as stored. */
export type WorkerCredentialRow = Selectable<Database["worker_credentials"]>;

/** The columns a new credential is given (the others take their defaults). */
export type NewWorkerCredential = Omit<WorkerCredentialRow, "company_id" | "id" | "deleted">;

/** Inserts a credential of a worker of the company, its id the company's next: the row as stored. */
export function insertWorkerCredential(
  db: Db,
  companyId: number,
  credential: NewWorkerCredential,
): Promise<WorkerCredentialRow> {
  return insertWithNextId(
    db,
    companyId,
    "last_worker_credential_id",
    { table: "worker_credentials", idColumn: "id" },
    {
      company_id: companyId,
      personnel_id: credential.personnel_id,
      credentials_id: credential.credentials_id,
      submitter_id: credential.submitter_id,
      name: credential.name,
      date_completed: credential.date_completed,
      date_expired: credential.date_expired,
      date_submitted: credential.date_submitted,
      clients_id: credential.clients_id,
      locations_id: credential.locations_id,
      file_id: credential.file_id,
      file_name: credential.file_name,
      file_type: credential.file_type,
    },
  );
}

/** The name of the company's person `personnelId` (a key's holder, who is always there). */
export async function personName(db: Db, companyId: number, personnelId: number): Promise<string> {
  const row = await db
    .selectFrom("personnel")
    .select("name")
    .where("company_id", "=", companyId)
    .where("personnel_id", "=", personnelId)
    .executeTakeFirstOrThrow();
  return row.name;
}
