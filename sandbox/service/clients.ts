/** Clients: seeded, and edited through the API. */
import { type RawBuilder, sql } from "kysely";
import type { ClientUpdate } from "workforce-scheduling-api";
import type { ServiceContext } from "./context.js";
import type { Caller } from "./keys.js";
import { notFound } from "./refusals.js";

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

/** Edits a client of the caller's company: the fields sent replace the stored ones. Answers `true`, or 404. */
export async function updateClient(
  context: ServiceContext,
  caller: Caller,
  id: string,
  body: ClientUpdate,
): Promise<{ status: 200; body: boolean } | ReturnType<typeof notFound>> {
  // one text whatever the body sends: a field not sent is a null parameter, and keeps its value
  // (no field of the body is null)
  const fields: Partial<Record<(typeof CLIENT_FIELDS)[number], RawBuilder<string>>> = {};
  for (const field of CLIENT_FIELDS)
    fields[field] = sql<string>`coalesce(${body[field] ?? null}::text, ${sql.ref(field)})`;
  const result = await context.db
    .updateTable("clients")
    .set(fields)
    .where("company_id", "=", caller.companyId)
    .where("client_id", "=", id)
    .executeTakeFirst();
  return result.numUpdatedRows === 0n ? notFound() : { status: 200, body: true };
}
