/**
 * What the sandbox's handlers work with: the data of one sandbox (its schema), where stored files
 * are served, and the clock. The handlers hold the service's rules (tenancy, references between
 * records, derived fields) and no transport code: the same handlers serve the Fastify server and
 * any other transport of the generated `Handlers` interface.
 */
import type { Kysely } from "kysely";
import type { Database } from "../store/schema/database.js";

export interface ServiceContext {
  /** the sandbox's tables (the query layer, scoped to its schema) */
  readonly db: Kysely<Database>;
  /** the URL prefix of stored files ("http://127.0.0.1:3000/files"), read when a file is stored */
  readonly fileUrl: () => string;
  /** now */
  readonly now: () => Date;
}

/** The URL a stored file is served at: `<prefix>/<file number>/<file name>`. */
export function storedFileUrl(context: ServiceContext, fileId: number, fileName: string): string {
  return `${context.fileUrl().replace(/\/+$/, "")}/${fileId}/${encodeURIComponent(fileName)}`;
}
