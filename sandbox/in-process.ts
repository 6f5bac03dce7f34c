/**
 * `openSandbox`: the sandbox in this process without a server: its handlers and `authenticate`
 * hook over its database, for MSW (`createMswHandlers(sandbox)`) or for calling the handlers
 * directly. It opens the database as `createSandbox` does (PGlite in memory by default, a data
 * directory, or PostgreSQL) and serves nothing, so it needs neither Fastify nor its plugins; on
 * PGlite it needs only `@electric-sql/pglite` and `kysely` (`pg` is used when installed).
 */
import { once, prepareSchema, resolveSeed, type Sandbox, type SandboxOptions, schemaFor } from "./sandbox.js";
import type { ServiceContext } from "./service/context.js";
import { createSandboxHandlers } from "./service/handlers.js";
import { createKeyBook } from "./service/keys.js";
import { parseLocation } from "./store/engine/engine.js";
import { acquireEngine } from "./store/engine/engines.js";
import { answerOutages } from "./store/outage.js";
import { dropSchema } from "./store/schema/migrate.js";
import { loadedFrom, resetTo } from "./store/schema/seeding.js";

/** Options of `openSandbox`: those of `createSandbox` that do not concern a server. */
export type InProcessSandboxOptions = Pick<SandboxOptions, "database" | "seed" | "schema" | "apiKeys" | "now"> & {
  /** The URL prefix of stored files in answers (default "/files": no server serves them here). */
  readonly fileUrl?: string;
};

/** A sandbox in this process, without a server: a `Sandbox` but for its server, its origin and its URL. */
export type InProcessSandbox = Omit<Sandbox, "url" | "origin" | "server">;

/** Opens (or shares) the database, migrates the sandbox's schema and seeds an empty one; serves nothing. */
export async function openSandbox(options: InProcessSandboxOptions = {}): Promise<InProcessSandbox> {
  const location = parseLocation(options.database ?? "memory");
  const seed = await resolveSeed(options.seed);
  const { schema, kept } = schemaFor(location, options.schema);
  let seededNew = false;
  const { engine, release } = await acquireEngine(location, {
    prepare: async (db) => {
      seededNew = await prepareSchema(db, schema, seed);
    },
  });
  try {
    const loaded = (await prepareSchema(engine.db, schema, seed)) || seededNew;
    const db = engine.db.withSchema(schema);
    const seeded = loaded || (await loadedFrom(db, seed));
    const fileUrl = options.fileUrl ?? "/files";
    const context: ServiceContext = { db, fileUrl: () => fileUrl, now: options.now ?? (() => new Date()) };
    const keys = createKeyBook(db, { keys: options.apiKeys ?? [], as: seed.companies[0]?.api_keys[0]?.key ?? "" });
    return {
      handlers: answerOutages(createSandboxHandlers(context)),
      authenticate: keys.authenticate,
      seed,
      seeded,
      database: options.database ?? "memory",
      schema,
      description: `${engine.description}, schema ${schema}`,
      reset: async () => {
        await resetTo(db, schema, seed);
        keys.forget();
      },
      close: once(async () => {
        if (!kept) await dropSchema(engine.db, schema);
        await release();
      }),
    };
  } catch (error) {
    if (!kept) await dropSchema(engine.db, schema).catch(() => undefined);
    await release();
    throw error;
  }
}
