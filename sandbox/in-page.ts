/**
 * The sandbox where there is no Node: its handlers and authenticate hook over a PGlite instance
 * the caller opened (in a browser page, PGlite in memory, its files served by the page's own
 * origin), with the schema migrated and the seed loaded. Nothing here listens: serve the handlers
 * with `createMswHandlers` (the msw entry), for example in a page with `setupWorker`. The data is
 * the instance's: a new instance starts from the seed again.
 */
import type { PGlite } from "@electric-sql/pglite";
import { Kysely } from "kysely";
import type { Authenticate, Handlers } from "workforce-scheduling-api/handlers";
import { DEMO_SEED, type Seed } from "./seed/seed.js";
import type { ServiceContext } from "./service/context.js";
import { createSandboxHandlers } from "./service/handlers.js";
import { type Caller, createKeyBook } from "./service/keys.js";
import { PGliteDialect } from "./store/engine/pglite-dialect.js";
import type { Database } from "./store/schema/database.js";
import { migrate } from "./store/schema/migrate.js";
import { resetTo, seedIfEmpty } from "./store/schema/seeding.js";

/** Options of `openInPageSandbox`. */
export interface InPageSandboxOptions {
  /** the records to start from (default: the demo seed); checked as `createSandbox` checks them is up to the caller */
  readonly seed?: Seed;
  /** the URL prefix of stored files in answers (default "/files") */
  readonly fileUrl?: string;
  /** the clock (default: the system's) */
  readonly now?: () => Date;
}

/** A sandbox's implementation of the API over one PGlite instance. */
export interface InPageSandbox {
  readonly handlers: Handlers<Caller>;
  readonly authenticate: Authenticate<Caller>;
  /** empties the data and loads the seed again, in one transaction */
  reset(): Promise<void>;
}

const SCHEMA = "sandbox";

/** Migrates and seeds the sandbox's schema in `pglite`, and answers its handlers and hook. */
export async function openInPageSandbox(pglite: PGlite, options: InPageSandboxOptions = {}): Promise<InPageSandbox> {
  const seed = options.seed ?? DEMO_SEED;
  const root = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  await migrate(root, SCHEMA);
  const db = root.withSchema(SCHEMA);
  await seedIfEmpty(db, SCHEMA, seed);
  const fileUrl = options.fileUrl ?? "/files";
  const context: ServiceContext = { db, fileUrl: () => fileUrl, now: options.now ?? (() => new Date()) };
  const keys = createKeyBook(db);
  return {
    handlers: createSandboxHandlers(context),
    authenticate: keys.authenticate,
    reset: async () => {
      await resetTo(db, SCHEMA, seed);
      keys.forget();
    },
  };
}
