/**
 * Every statement of every operation is single-shard on Citus. A sandbox server is built over the
 * cluster's coordinator with a query layer whose Kysely log hook captures each statement it sends
 * (text and values); every operation then runs through it over loopback HTTP (each write, the
 * lists, a file's download, a refused reference, an unknown id, a key read afresh), and each
 * captured statement is EXPLAINed on the coordinator with its values: a statement over the
 * sandbox's tables must plan as one Citus task (a router query: one shard of one company, or a
 * reference table), never a fan-out to every shard. Statements that name no table of the sandbox
 * (the seeding lock) run on the coordinator alone.
 */
import { type CompiledQuery, Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { expect } from "vitest";
import { createSandboxHandlers } from "../../sandbox/service/handlers.js";
import { createKeyBook } from "../../sandbox/service/keys.js";
import type { Database } from "../../sandbox/store/database.js";
import { queryOn } from "../support/citus.js";
import { call, download, HARBOR, NOW, SUMMIT } from "./support.js";

/** What one captured statement planned as. */
export interface RoutedStatement {
  readonly sql: string;
  /** the largest "Task Count: n" of its Citus plan, or undefined for a statement Citus does not distribute */
  readonly tasks: number | undefined;
  readonly plan: string;
}

/** Statements that begin and end a transaction (logged too), which name no table. */
const TRANSACTION_CONTROL = /^(begin|commit|rollback|savepoint|release)\b/i;

/**
 * The statement with its values written in as literals (of no type, as its parameters were sent):
 * Citus cannot EXPLAIN an `insert ... select` that takes parameters, and plans a statement for
 * the values it is given, so this is the plan it runs.
 */
function withValues(query: CompiledQuery): string {
  return query.sql.replace(/\$(\d+)/g, (_match, index: string) => literal(query.parameters[Number(index) - 1]));
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Buffer.isBuffer(value)) return `'\\x${value.toString("hex")}'`;
  const text = Array.isArray(value)
    ? `{${value.map((item) => JSON.stringify(String(item))).join(",")}}`
    : String(value);
  return `'${text.replaceAll("'", "''")}'`;
}

/** PostgreSQL's bigint, read as a number as the sandbox reads it. */
const INT8 = 20;

/**
 * Runs every operation against the (migrated, seeded) `schema` on the coordinator at `url`, through a
 * server whose statements are captured, and answers each distinct statement's plan.
 */
export async function planEveryOperation(url: string, schema: string): Promise<RoutedStatement[]> {
  const captured: CompiledQuery[] = [];
  const pool = new pg.Pool({
    connectionString: url,
    max: 4,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8 && format !== "binary"
          ? Number
          : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
    },
  });
  const root = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      captured.push(event.query);
    },
  });
  const db = root.withSchema(schema);
  const { buildSandboxServer } = await import("../../sandbox/server.js");
  let fileUrl = "";
  const context = { db, fileUrl: () => fileUrl, now: () => NOW };
  const server = await buildSandboxServer({
    handlers: createSandboxHandlers(context),
    keys: createKeyBook(db),
    context,
    filePath: "/files",
    logger: false,
  });
  try {
    const origin = await server.listen({ host: "127.0.0.1", port: 0 });
    fileUrl = `${origin}/files`;
    await everyOperation(`${origin}/api/1_12`);
  } finally {
    await server.close();
    await root.destroy();
  }
  const distinct = new Map<string, CompiledQuery>();
  for (const query of captured)
    if (!TRANSACTION_CONTROL.test(query.sql) && !distinct.has(query.sql)) distinct.set(query.sql, query);
  const plans: RoutedStatement[] = [];
  for (const query of distinct.values()) {
    const rows = await queryOn<{ "QUERY PLAN": string }>(url, `explain ${withValues(query)}`);
    const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
    const counts = [...plan.matchAll(/Task Count: (\d+)/g)].map((match) => Number(match[1]));
    plans.push({ sql: query.sql, tasks: counts.length === 0 ? undefined : Math.max(...counts), plan });
  }
  return plans;
}

/** Each operation of the API, with the answers it must give (so each really ran). */
async function everyOperation(api: string): Promise<void> {
  const venue = { name: "Hall", address: "1 Road", city: "Town", zip: "AB1 2CD" };
  const event = { name: "Spring gala", date: "2024-04-20", venue: { venue_id: "318" } };
  // a key nobody holds: the key book reads the keys afresh, then refuses it
  expect((await fetch(`${api}/events`, { headers: { "x-api-key": "no-such-key" } })).status).toBe(401);
  expect((await call(api, "createVenue", { json: venue })).status).toBe(200);
  const created = await call(api, "createEvent", {
    json: { ...event, client_id: "HARBOR42", custom_fields_text: [{ key: "Round", value: "1" }] },
  });
  expect(created.status).toBe(201);
  expect((await call(api, "createEvent", { json: { ...event, venue: { name: "Tent", city: "Leeds" } } })).status).toBe(
    201,
  );
  expect((await call(api, "createEvent", { json: { ...event, client_id: "SUMMIT1" } })).status).toBe(422);
  const id = created.body as number;
  expect((await call(api, "updateEvent", { path: { id }, json: { ...event, name: "Edited" } })).status).toBe(200);
  expect((await call(api, "updateEvent", { path: { id: 999_999 }, json: event })).status).toBe(404);
  expect((await call(api, "listEvents")).status).toBe(200);
  expect((await call(api, "listEvents", { key: SUMMIT })).status).toBe(200);
  expect((await call(api, "listWageRules")).status).toBe(200);
  expect(
    (await call(api, "updateClient", { path: { id: "HARBOR42" }, json: { client_name: "Harbor plc" } })).status,
  ).toBe(200);
  expect(
    (await call(api, "createPayrollGroup", { json: { name: "Crew", wage_rules_id: "7", locations: ["318"] } })).status,
  ).toBe(200);
  const credential = await call(api, "addWorkerCredential", {
    path: { id: 1042 },
    json: { credentials_id: "3", clients_id: "HARBOR42", locations_id: "318", file: "scan", file_name: "a.txt" },
  });
  expect(credential.status).toBe(200);
  const form = new FormData();
  form.set("name", "Contract");
  form.set("type", "application/pdf");
  form.set("file", new Blob([new Uint8Array([1, 2, 3])]), "c.pdf");
  const document = await call(api, "addWorkerDocument", { path: { id: 1042 }, form });
  expect(document.status).toBe(200);
  const location = String((document.body as { location: string }).location);
  expect((await download(location, HARBOR)).status).toBe(200);
  expect((await download(location, SUMMIT)).status).toBe(404);
}
