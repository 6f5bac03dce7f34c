/**
 * What Citus sends to the workers for each request. A sandbox server is built over the node at
 * `url` (the coordinator, or a worker: Citus takes queries on any node) with a pool whose
 * connections ask Citus to report every command it sends to another node
 * (`citus.log_remote_commands`, a notice per command naming the command and the node), and every
 * operation runs through it over loopback HTTP, one request at a time (each write, the lists, a
 * file's download, a refused reference, an unknown id, a key read afresh). The notices a request's
 * connection received while it ran are that request's remote commands: what Citus ran on the
 * workers for it, and on which. Commands Citus runs on the node itself (a reference table's local
 * copy, a shard the node holds) are reported as such and sent nowhere.
 */
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { expect } from "vitest";
import { createSandboxHandlers } from "../../../sandbox/service/handlers.js";
import { createKeyBook } from "../../../sandbox/service/keys.js";
import { markDistributed } from "../../../sandbox/store/engine/citus.js";
import type { Database } from "../../../sandbox/store/schema/database.js";
import { call, download, HARBOR, NOW, SUMMIT } from "../../support/sandbox-calls.js";

/** A command Citus sent to another node, and the node (`host:port`). */
export interface RemoteCommand {
  readonly command: string;
  readonly node: string;
}

/** One request and the commands Citus sent to other nodes while it ran. */
export interface RoutedRequest {
  readonly request: string;
  /** the company whose key made the request */
  readonly company: number;
  readonly commands: readonly RemoteCommand[];
}

/** The commands of a two-phase commit. */
export const TWO_PHASE = /^(PREPARE TRANSACTION|COMMIT PREPARED|ROLLBACK PREPARED)\b/i;

/** PostgreSQL's bigint, read as a number as the sandbox reads it. */
const INT8 = 20;

/** The companies of the demo seed's keys. */
const COMPANY_OF: Readonly<Record<string, number>> = { [HARBOR]: 5, [SUMMIT]: 6 };

/**
 * Runs every operation against the (migrated, seeded) `schema` through the node at `url`, and
 * answers each request with the remote commands Citus issued for it.
 */
export async function remoteCommandsOfEveryOperation(url: string, schema: string): Promise<RoutedRequest[]> {
  let heard: RemoteCommand[] = [];
  const pool = new pg.Pool({
    connectionString: url,
    max: 4,
    options: "-c citus.log_remote_commands=on",
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8 && format !== "binary"
          ? Number
          : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
    },
  });
  pool.on("connect", (client) =>
    client.on("notice", (notice) => {
      const node = /on server \S*?@(\S+:\d+)/.exec(notice.detail ?? "")?.[1];
      if (node !== undefined && notice.message?.startsWith("issuing ") === true)
        heard.push({ command: notice.message.slice("issuing ".length), node });
    }),
  );
  // marked as the sandbox's engine marks a Citus cluster's query layer
  const db = (await markDistributed(new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }))).withSchema(
    schema,
  );
  const { buildSandboxServer } = await import("../../../sandbox/server.js");
  let fileUrl = "";
  const context = { db, fileUrl: () => fileUrl, now: () => NOW };
  const server = await buildSandboxServer({
    handlers: createSandboxHandlers(context),
    keys: createKeyBook(db),
    context,
    filePath: "/files",
    logger: false,
  });
  const requests: RoutedRequest[] = [];
  try {
    const origin = await server.listen({ host: "127.0.0.1", port: 0 });
    fileUrl = `${origin}/files`;
    await everyOperation(`${origin}/api/1_12`, async (request, key, send) => {
      heard = [];
      await send();
      requests.push({ request, company: COMPANY_OF[key] ?? 0, commands: heard });
    });
  } finally {
    await server.close();
    await db.destroy();
  }
  return requests;
}

/** Runs one request (`send`), named `request` and made with `key`. */
export type Step = (request: string, key: string, send: () => Promise<void>) => Promise<void>;

const runStep: Step = (_request, _key, send) => send();

/**
 * Each operation of the API through the sandbox at `api`, with the answers it must give (so each
 * really ran), one request at a time, each through `step`.
 */
export async function everyOperation(api: string, step: Step = runStep): Promise<void> {
  const venue = { name: "Hall", address: "1 Road", city: "Town", zip: "AB1 2CD" };
  const event = { name: "Spring gala", date: "2024-04-20", venue: { venue_id: "318" } };
  const expectStatus = (status: number, request: string, options: Parameters<typeof call>[2] = {}) => {
    const [operation] = request.split(" ") as [Parameters<typeof call>[1]];
    return step(request, options.key ?? HARBOR, async () => {
      expect((await call(api, operation, options)).status, request).toBe(status);
    });
  };
  // a key nobody holds: the key book reads the keys afresh, then refuses it
  await step("an unknown key", HARBOR, async () => {
    expect((await fetch(`${api}/events`, { headers: { "x-api-key": "no-such-key" } })).status).toBe(401);
  });
  await expectStatus(200, "createVenue", { json: venue });
  let id = 0;
  await step("createEvent at a venue, with a client", HARBOR, async () => {
    const created = await call(api, "createEvent", {
      json: { ...event, client_id: "HARBOR42", custom_fields_text: [{ key: "Round", value: "1" }] },
    });
    expect(created.status).toBe(201);
    id = created.body as number;
  });
  await expectStatus(201, "createEvent at a location of its own", {
    json: { ...event, venue: { name: "Tent", city: "Leeds" } },
  });
  await expectStatus(422, "createEvent naming another company's client", { json: { ...event, client_id: "SUMMIT1" } });
  await step("updateEvent", HARBOR, async () => {
    expect((await call(api, "updateEvent", { path: { id }, json: { ...event, name: "Edited" } })).status).toBe(200);
  });
  await expectStatus(404, "updateEvent of an unknown id", { path: { id: 999_999 }, json: event });
  await expectStatus(200, "listEvents");
  await expectStatus(200, "listEvents of the other company", { key: SUMMIT });
  await expectStatus(200, "listWageRules");
  await expectStatus(200, "updateClient", { path: { id: "HARBOR42" }, json: { client_name: "Harbor plc" } });
  await expectStatus(200, "createPayrollGroup", { json: { name: "Crew", wage_rules_id: "7", locations: ["318"] } });
  await expectStatus(200, "addWorkerCredential", {
    path: { id: 1042 },
    json: { credentials_id: "3", clients_id: "HARBOR42", locations_id: "318", file: "scan", file_name: "a.txt" },
  });
  let location = "";
  await step("addWorkerDocument", HARBOR, async () => {
    const form = new FormData();
    form.set("name", "Contract");
    form.set("type", "application/pdf");
    form.set("file", new Blob([new Uint8Array([1, 2, 3])]), "c.pdf");
    const document = await call(api, "addWorkerDocument", { path: { id: 1042 }, form });
    expect(document.status).toBe(200);
    location = String((document.body as { location: string }).location);
  });
  await step("a stored file's download", HARBOR, async () => {
    expect((await download(location, HARBOR)).status).toBe(200);
  });
  await step("a stored file's download with another company's key", SUMMIT, async () => {
    expect((await download(location, SUMMIT)).status).toBe(404);
  });
}
