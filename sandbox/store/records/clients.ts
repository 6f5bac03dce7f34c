/** The statements of clients: the edit, and the reads that find a client a reference names. */
import { type RawBuilder, sql } from "kysely";
import type { ClientUpdate } from "workforce-scheduling-api";
import type { Db } from "../schema/database.js";

/** The fields of the client object (any other property of a body is not stored). */
const CLIENT_FIELDS = [
  "client_name",
  "client_contact_name",
  "client_contact_email",
  "client_invoice_customer_id",
  "client_address",
  "client_city",
  "client_state",
  "client_postal_code",
] as const satisfies readonly (keyof ClientUpdate)[];

/** Sets the client's fields sent, keeping the others; whether the client is the company's. */
export async function updateClientRow(
  db: Db,
  companyId: number,
  clientId: string,
  body: ClientUpdate,
): Promise<boolean> {
  // one text whatever the body sends: a field not sent is a null parameter, and keeps its value
  // (no field of the body is null)
  const fields: Partial<Record<(typeof CLIENT_FIELDS)[number], RawBuilder<string>>> = {};
  for (const field of CLIENT_FIELDS)
    fields[field] = sql<string>`coalesce(${body[field] ?? null}::text, ${sql.ref(field)})`;
  const result = await db
    .updateTable("clients")
    .set(fields)
    .where("company_id", "=", companyId)
    .where("client_id", "=", clientId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The client `clientId` of the company, with its name, or undefined. */
export function clientNamed(
  db: Db,
  companyId: number,
  clientId: string,
): Promise<{ client_id: string; client_name: string } | undefined> {
  return db
    .selectFrom("clients")
    .select(["client_id", "client_name"])
    .where("company_id", "=", companyId)
    .where("client_id", "=", clientId)
    .executeTakeFirst();
}
