/** The statements of stored files: the bytes of uploads, stored once, read back by the file's company only. */
import type { Db } from "../schema/database.js";
import { insertWithNextId } from "./ids.js";

/** Stores bytes for the company; answers their number, the company's next. */
export async function insertStoredFile(
  db: Db,
  companyId: number,
  fileName: string,
  mediaType: string,
  bytes: Buffer,
): Promise<number> {
  const row = await insertWithNextId(
    db,
    companyId,
    "last_file_id",
    { table: "stored_files", idColumn: "file_id", returned: ["file_id"] },
    { company_id: companyId, file_name: fileName, media_type: mediaType, bytes },
  );
  return row.file_id;
}

/** The media type and bytes of the company's file `fileId` named `fileName`, or undefined. */
export function storedFileRow(
  db: Db,
  companyId: number,
  fileId: number,
  fileName: string,
): Promise<{ media_type: string; bytes: Buffer } | undefined> {
  return db
    .selectFrom("stored_files")
    .select(["media_type", "bytes"])
    .where("company_id", "=", companyId)
    .where("file_id", "=", fileId)
    .where("file_name", "=", fileName)
    .executeTakeFirst();
}
