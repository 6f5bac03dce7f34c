/**
 * The hand-written baseline of `npm run bench:sandbox:load`: what the sandbox's event operations
 * could cost at least. Plain Fastify, the bodies checked by Fastify's own validation (Ajv) against
 * the contract's schemas, and the sandbox's own statements (their texts taken from the sandbox,
 * ./sandbox-statements.ts) with parameters written by hand: one per request, or on Citus two in
 * one transaction for a create (the company's next id, then the insert). No key, no answer
 * check, no log: the same database and answers, and nothing else. On a PostgreSQL server it runs
 * through a `pg` pool of the sandbox's size; embedded, on the same PGlite engine (with the
 * sandbox's settings), through its own `pg` adapter; on both, each statement named (prepared once
 * per connection, as the sandbox's are).
 *
 * Run by the benchmark as a process of its own: `BASELINE_DATABASE` (a data directory or a
 * postgres:// URL), `BASELINE_SCHEMA`; it prints `Baseline listening at <url>`.
 */
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import { jsonSchemas } from "../../generated/json-schemas.js";
import { eventRecord } from "../../sandbox/service/events.js";
import { compileWasmUnoptimised, EMBEDDED_START_PARAMS } from "../../sandbox/store/engine/engine.js";
import {
  type BodySent,
  createIdParameters,
  createInsertParameters,
  createParameters,
  EVENT_BATCH,
  type StatementTexts,
  sandboxStatementTexts,
  updateParameters,
} from "./sandbox-statements.js";

/** Runs one statement: its rows. */
type Run = (
  name: keyof StatementTexts | "citus",
  text: string,
  values: unknown[],
) => Promise<Record<string, unknown>[]>;

/** Runs statements (`work`, given how to run each) in one transaction, on one connection. */
type InTransaction = <T>(work: (run: Run) => Promise<T>) => Promise<T>;

const location = process.env.BASELINE_DATABASE ?? "";
const schema = process.env.BASELINE_SCHEMA ?? "sandbox";
const { run, inTransaction } = /^postgres(ql)?:\/\//.test(location)
  ? await postgresRunner(location)
  : await pgliteRunner(location);
const [citus] = await run("citus", "select exists (select from pg_extension where extname = 'citus') as citus", []);
const texts = await sandboxStatementTexts(schema, citus?.citus === true);

/** The contract's schema `name`, as Fastify's Ajv takes it (draft 7 with `$defs`). */
function bodySchema(name: "EventCreate" | "EventUpdate"): Record<string, unknown> {
  const { $schema: _, ...rest } = jsonSchemas[name];
  return rest;
}

const app = Fastify({ logger: false, ajv: { customOptions: { strict: false } } });
const HARBOR = { companyId: 5, personnelId: 7 };
/** The demo seed's other company, whose events the benchmark's warm-up creates (its key, not checked, says which). */
const SUMMIT = { companyId: 6, personnelId: 3 };
const actingFor = (request: FastifyRequest): typeof HARBOR =>
  request.headers["x-api-key"] === "demo-key-summit" ? SUMMIT : HARBOR;
const created = (): string => new Date().toISOString().slice(0, 10);

app.post("/events", { schema: { body: bodySchema("EventCreate") } }, async (request, reply) => {
  const body = request.body as BodySent;
  const acting = actingFor(request);
  const id = await (texts.create === undefined
    ? inTransaction(async (run) => {
        const [row] = await run("createId", texts.createId ?? "", createIdParameters(acting, body));
        if (row === undefined) return undefined;
        const insert = createInsertParameters(acting, Number(row.last_event_id), body, created());
        await run("createInsert", texts.createInsert ?? "", insert);
        return row.last_event_id;
      })
    : run("create", texts.create, createParameters(acting, body, created())).then(([row]) => row?.id));
  if (id === undefined) return unprocessable(reply);
  return reply.code(201).send(id);
});

app.patch<{ Params: { id: string } }>(
  "/events/:id",
  { schema: { body: bodySchema("EventUpdate") } },
  async (request, reply) => {
    const id = Number(request.params.id);
    const rows = await run("update", texts.update, updateParameters(HARBOR, id, request.body as BodySent));
    const row = rows[0];
    if (row === undefined) return reply.code(404).send({ status: 404 });
    return reply.send(eventRecord(row as Parameters<typeof eventRecord>[0]));
  },
);

app.get("/events", async () => {
  const rows = await run("list", texts.list, [HARBOR.companyId, 0, EVENT_BATCH]);
  const data = rows.map((row) => eventRecord(row as Parameters<typeof eventRecord>[0]));
  return { data, total_count: data.length };
});

function unprocessable(reply: FastifyReply): FastifyReply {
  return reply.code(422).send({ status: 422 });
}

async function postgresRunner(url: string): Promise<{ run: Run; inTransaction: InTransaction }> {
  return namedQueries({ connectionString: url, max: 10 });
}

async function pgliteRunner(dataDir: string): Promise<{ run: Run; inTransaction: InTransaction }> {
  compileWasmUnoptimised(); // as the sandbox's engine does
  const { PGlite } = await import("@electric-sql/pglite");
  const { createPgConfig } = await import("@electric-sql/pglite/node-postgres");
  const pglite = new PGlite(dataDir, { startParams: [...PGlite.defaultStartParams, ...EMBEDDED_START_PARAMS] });
  await pglite.waitReady;
  return namedQueries({ ...createPgConfig(pglite) });
}

/** Each statement run through a `pg` pool under a name: parsed once per connection. */
async function namedQueries(config: import("pg").PoolConfig): Promise<{ run: Run; inTransaction: InTransaction }> {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({
    ...config,
    types: { getTypeParser: (oid, format) => (oid === 20 ? Number : pg.types.getTypeParser(oid, format)) },
  });
  // an idle connection the server ends (PostgreSQL stopping) is not a request's failure: the pool
  // drops it, and the next query connects again
  pool.on("error", () => undefined);
  const on =
    (client: import("pg").Pool | import("pg").PoolClient): Run =>
    async (name, text, values) =>
      (await client.query({ name: `baseline_${name}`, text, values })).rows;
  return {
    run: on(pool),
    inTransaction: async (work) => {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const result = await work(on(client));
        await client.query("commit");
        return result;
      } catch (error) {
        await client.query("rollback");
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

const address = await app.listen({ host: "127.0.0.1", port: 0 });
process.stdout.write(`Baseline listening at ${address}\n`);
// a profile taken with --cpu-prof is written when the process exits, not when a signal ends it
process.once("SIGTERM", () => process.exit(0));
