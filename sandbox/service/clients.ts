/** Clients: seeded, and edited through the API. */
import type { ClientUpdate } from "workforce-scheduling-api";
import { updateClientRow } from "../store/records/clients.js";
import type { ServiceContext } from "./context.js";
import type { Caller } from "./keys.js";
import { notFound } from "./refusals.js";

/** Edits a client of the caller's company: the fields sent replace the stored ones. Answers `true`, or 404. */
export async function updateClient(
  context: ServiceContext,
  caller: Caller,
  id: string,
  body: ClientUpdate,
): Promise<{ status: 200; body: boolean } | ReturnType<typeof notFound>> {
  const updated = await updateClientRow(context.db, caller.companyId, id, body);
  return updated ? { status: 200, body: true } : notFound();
}
