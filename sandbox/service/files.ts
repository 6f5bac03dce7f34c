/** The stored files, as the URL a document's `location` gives serves them: to the file's company only. */
import { storedFileRow } from "../store/records/files.js";
import type { ServiceContext } from "./context.js";
import type { Caller } from "./keys.js";

/** A stored file: its bytes and media type. */
export interface StoredFile {
  readonly mediaType: string;
  readonly bytes: Buffer;
}

/** The file `fileId` named `fileName` of the caller's company, or undefined (unknown, or another company's). */
export async function readStoredFile(
  context: ServiceContext,
  caller: Caller,
  fileId: string,
  fileName: string,
): Promise<StoredFile | undefined> {
  if (!/^[1-9]\d{0,15}$/.test(fileId)) return undefined;
  const row = await storedFileRow(context.db, caller.companyId, Number(fileId), fileName);
  return row === undefined ? undefined : { mediaType: row.media_type, bytes: row.bytes };
}
