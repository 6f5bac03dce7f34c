/**
 * `createSandbox`: a stateful implementation of the API on a real database, served over HTTP in
 * this process, for integration tests and local development. Each sandbox is isolated: in memory
 * (the default) and on a PostgreSQL server it works in a schema of its own, dropped when it
 * closes; in a data directory it keeps its data for the next start, and `resetSandbox` run by
 * another process on that directory asks it to reset itself, through the directory's lock.
 */
import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import { basePath } from "workforce-scheduling-api";
import type { Authenticate, Handlers } from "workforce-scheduling-api/server";
import type { SandboxLogger } from "./logging.js";
import { checkSeed, readSeedFile } from "./seed/load-seed.js";
import { DEMO_SEED, type Seed, seedKeys } from "./seed/seed.js";
import { budgetFor, CompanyBudgets, shareByCompany } from "./service/budget.js";
import type { ServiceContext } from "./service/context.js";
import { createSandboxHandlers } from "./service/handlers.js";
import { type Caller, createKeyBook } from "./service/keys.js";
import { DirectoryInUseError } from "./store/engine/directory-lock.js";
import {
  type DatabaseLocation,
  DEFAULT_TIMEOUT_MS,
  loadDriver,
  parseLocation,
  peerError,
  requirePeer,
} from "./store/engine/engine.js";
import { acquireEngine } from "./store/engine/engines.js";
import { requestReset, serveResets } from "./store/engine/lock-channel.js";
import { answerOutages } from "./store/outage.js";
import type { Database } from "./store/schema/database.js";
import { dropSchema, isCurrent, migrate, SCHEMA_NAME } from "./store/schema/migrate.js";
import { loadedFrom, resetTo, seedIfEmpty } from "./store/schema/seeding.js";

/** Options of `createSandbox`. */
export interface SandboxOptions {
  /**
   * Where the data lives: "memory" (the default: PGlite in this process, nothing written to disk),
   * a PGlite data directory (kept between starts; one process at a time), or a `postgres://` URL.
   */
  readonly database?: string;
  /** The records to start from: a seed object, or the path of a YAML or JSON seed file (default: the demo seed). */
  readonly seed?: Seed | string;
  /**
   * The schema the data lives in. By default each sandbox in memory or on PostgreSQL gets a new
   * one, dropped when it closes; in a data directory it is "sandbox". A schema given is kept.
   */
  readonly schema?: string;
  /** Where the server listens (default 127.0.0.1, a free port). */
  readonly host?: string;
  readonly port?: number;
  /** The URL prefix of stored files in answers (`location`); by default this server's own `/files`. */
  readonly fileUrl?: string;
  /**
   * Keys accepted besides the seed's, never stored: each calls as the holder of the seed's first
   * key, in its company (`API_KEYS` of `npm start`).
   */
  readonly apiKeys?: readonly string[];
  /** Log every request (default false): true for JSON lines, or Fastify's logger options. */
  readonly logger?: SandboxLogger;
  /** Check every answer against the contract (default: when NODE_ENV is not "production"). */
  readonly validateResponses?: boolean;
  /** The clock (default: the system's); tests fix it to get the same dates every run. */
  readonly now?: () => Date;
  /**
   * Told of each step of the start that can take seconds, as it begins, in a line ("making a new
   * database with initdb, ...", "migrating the schema sandbox", "loading the demo seed ..."): for a
   * terminal, which would otherwise see nothing until the server listens. By default, nothing.
   */
  readonly onProgress?: (step: string) => void;
  /**
   * On a PostgreSQL server, the most a request may wait for the database, in milliseconds (default
   * 3000): each statement, and each wait for a lock, a node or a connection, is cancelled past it,
   * and the request answered 503 with `Retry-After`, nothing of it kept (`SANDBOX_TIMEOUT` of
   * `npm start`, in seconds).
   */
  readonly timeout?: number;
}

/** A running sandbox. */
export interface Sandbox {
  /** the API's base URL: `http://127.0.0.1:<port>/api/1_12`, for `createClient({ baseUrl })` */
  readonly url: string;
  /** the server's origin (`http://127.0.0.1:<port>`): the reference is at `/docs` */
  readonly origin: string;
  /** the sandbox's implementation of the API, for other transports */
  readonly handlers: Handlers<Caller>;
  /** its `authenticate` hook: the caller of a key, or false */
  readonly authenticate: Authenticate<Caller>;
  /** the Fastify server, listening */
  readonly server: FastifyInstance;
  /** the seed the sandbox started from, and goes back to on `reset` */
  readonly seed: Seed;
  /**
   * whether the data came from this seed: loaded by this start, or by an earlier one or a reset
   * (the database keeps the digest of the seed it was last loaded from). False when the database
   * held other data, which is kept.
   */
  readonly seeded: boolean;
  /** where the data lives, as the `database` option gives it ("memory", a directory, a postgres:// URL) */
  readonly database: string;
  /** the schema the sandbox's tables are in */
  readonly schema: string;
  /** for messages: "PGlite in memory, schema sandbox_3" */
  readonly description: string;
  /** empties the data and loads the seed again, in one transaction */
  reset(): Promise<void>;
  /** stops the server and lets the database go (dropping the sandbox's schema unless it is kept) */
  close(): Promise<void>;
}

/**
 * Starts a sandbox: checks that it can listen where asked (before any database work), opens (or
 * shares) the database, migrates its schema, seeds an empty one, and listens.
 */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const location = parseLocation(options.database ?? "memory");
  const timeout = timeoutOf(options);
  const seed = await resolveSeed(options.seed);
  const { schema, kept } = schemaFor(location, options.schema);
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? 0;
  // the server's modules (Fastify and its plugins: optional peers) load while the driver does; the
  // port is checked with them before the database opens; `openSandbox`, which serves no HTTP,
  // never loads them
  const serverModule = requirePeer("fastify", () => import("./server.js"));
  serverModule.catch(() => undefined);
  // a missing driver is named first, then a missing Fastify
  await loadDriver(location);
  await (await serverModule).checkListen(host, port);
  // a new data directory is made whole, migrated and seeded, before it takes its place
  let seededNew = false;
  const progress = options.onProgress;
  const prepare = async (db: Kysely<Database>): Promise<void> => {
    seededNew = await prepareSchema(db, schema, seed, progress);
  };
  const { engine, release } = await acquireEngine(location, { prepare, ...timeout, ...(progress ? { progress } : {}) });
  let served: Served | undefined;
  try {
    const parts = await serverModule;
    const loaded = (await prepareSchema(engine.upkeep, schema, seed, progress)) || seededNew;
    const db = engine.db.withSchema(schema);
    const upkeep = engine.upkeep.withSchema(schema);
    const seeded = loaded || (await loadedFrom(db, seed));
    const budgets = new CompanyBudgets(budgetFor(timeout.timeout ?? DEFAULT_TIMEOUT_MS));
    const live = await serve(parts, { db, upkeep, budgets, seed, seeded, host, port, options });
    served = live;
    const stopServingResets = serveResetsOf(location, schema, live);
    return sandboxOf(live, { seed, seeded, schema, kept, engine, release, stopServingResets }, options);
  } catch (error) {
    await served?.server.close();
    if (!kept) await dropSchema(engine.upkeep, schema).catch(() => undefined);
    await release();
    throw peerError(error);
  }
}

/** What a sandbox holds beside its server, and how it lets go of it. */
interface Held {
  readonly seed: Seed;
  readonly seeded: boolean;
  readonly schema: string;
  /** the schema outlives the sandbox (a data directory's, or one named in the options) */
  readonly kept: boolean;
  readonly engine: { readonly upkeep: Kysely<Database>; readonly description: string };
  readonly release: () => Promise<void>;
  readonly stopServingResets: () => void;
}

/** The sandbox its caller gets: where it listens, what it serves, and how to reset and close it. */
function sandboxOf(live: Served, held: Held, options: SandboxOptions): Sandbox {
  const { seed, schema, engine } = held;
  return {
    url: `${live.origin}${basePath}`,
    origin: live.origin,
    handlers: live.handlers,
    authenticate: live.keys.authenticate,
    server: live.server,
    seed,
    seeded: held.seeded,
    database: options.database ?? "memory",
    schema,
    description: `${engine.description}, schema ${schema}`,
    reset: async () => {
      await resetTo(live.upkeep, schema, seed);
      live.keys.forget();
    },
    close: once(async () => {
      held.stopServingResets();
      await closeServer(live.server);
      if (!held.kept) await dropSchema(engine.upkeep, schema);
      await held.release();
    }),
  };
}

/** A sandbox's server, listening, with what answers through it. */
interface Served {
  readonly server: FastifyInstance;
  readonly origin: string;
  /** the schema's query layer of the sandbox's upkeep (resets) */
  readonly upkeep: Kysely<Database>;
  readonly handlers: Handlers<Caller>;
  readonly keys: ReturnType<typeof createKeyBook>;
}

/** What the server of a sandbox is built from. */
interface ServeInput {
  readonly db: Kysely<Database>;
  readonly upkeep: Kysely<Database>;
  /** each company's share of the sandbox */
  readonly budgets: CompanyBudgets;
  readonly seed: Seed;
  readonly seeded: boolean;
  readonly host: string;
  readonly port: number;
  readonly options: SandboxOptions;
}

/** Builds the sandbox's server over its schema and listens; one that cannot listen is closed. */
async function serve(
  { buildSandboxServer, listenError, reachableOrigin }: typeof import("./server.js"),
  { db, upkeep, budgets, seed, seeded, host, port, options }: ServeInput,
): Promise<Served> {
  let fileUrl = options.fileUrl ?? "";
  const context: ServiceContext = { db, fileUrl: () => fileUrl, now: options.now ?? (() => new Date()) };
  const keys = createKeyBook(db, { keys: options.apiKeys ?? [], as: seed.companies[0]?.api_keys[0]?.key ?? "" });
  const shared = shareByCompany(createSandboxHandlers(context), keys.authenticate, budgets);
  const handlers = answerOutages(shared.handlers);
  const filePath = options.fileUrl === undefined ? "/files" : new URL(options.fileUrl).pathname;
  const server = await buildSandboxServer({
    handlers,
    keys,
    shares: shared,
    context,
    filePath,
    logger: options.logger ?? false,
    ...(seed === DEMO_SEED && seeded ? { demoKeys: seedKeys(seed) } : {}),
    ...(options.validateResponses === undefined ? {} : { validateResponses: options.validateResponses }),
  });
  try {
    const address = await server.listen({ host, port }).catch((error: unknown) => {
      throw listenError(error, host, port);
    });
    const origin = reachableOrigin(address);
    if (options.fileUrl === undefined) fileUrl = `${origin}/files`;
    return { server, origin, upkeep, handlers, keys };
  } catch (error) {
    await server.close();
    throw error;
  }
}

/**
 * For a data directory, answers `npm run sandbox:reset` run from another process: this sandbox
 * resets itself to the seed sent, so it goes on serving the new data. Returns how to stop.
 */
function serveResetsOf(location: DatabaseLocation, schema: string, served: Served): () => void {
  if (location.kind !== "directory") return () => undefined;
  return serveResets(location.path, schema, async (sent) => {
    await resetTo(served.upkeep, schema, checkSeed(sent, "the seed sent by sandbox:reset"));
    served.keys.forget();
    served.server.log.info("reset to the seed sent by sandbox:reset");
  });
}

/**
 * Empties a sandbox's database and loads the seed again (`npm run sandbox:reset`), without
 * serving it; a data directory a sandbox runs on in another process is reset by that sandbox,
 * asked through the directory's lock, so that it goes on serving the new data. Answers what it
 * did, for the command to print.
 */
export async function resetSandbox(
  options: Pick<SandboxOptions, "database" | "seed" | "schema" | "timeout">,
): Promise<string> {
  const location = parseLocation(options.database ?? "memory");
  const seed = await resolveSeed(options.seed);
  const { schema } = schemaFor(location, options.schema);
  // a data directory that cannot be opened is moved aside and made again
  const prepare = (db: Kysely<Database>) => prepareSchema(db, schema, seed);
  let acquired: Awaited<ReturnType<typeof acquireEngine>>;
  try {
    acquired = await acquireEngine(location, { prepare, replaceBroken: true, ...timeoutOf(options) });
  } catch (error) {
    if (location.kind !== "directory" || !(error instanceof DirectoryInUseError)) throw error;
    const holder = await requestReset(location.path, schema, seed);
    return `reset PGlite in ${location.path}, schema ${schema}, in the sandbox running as process ${holder.pid}: ${loaded(seed)}`;
  }
  const { engine, release } = acquired;
  try {
    await migrate(engine.upkeep, schema);
    await resetTo(engine.upkeep.withSchema(schema), schema, seed);
    return `${engine.notice === undefined ? "" : `${engine.notice}\n`}reset ${engine.description}, schema ${schema}: ${loaded(seed)}`;
  } finally {
    await release();
  }
}

/**
 * Migrates the schema and seeds it when it holds no company yet, telling `progress` of each as it
 * begins; answers whether it seeded.
 */
export async function prepareSchema(
  db: Kysely<Database>,
  schema: string,
  seed: Seed,
  progress?: (step: string) => void,
): Promise<boolean> {
  if (progress !== undefined && !(await isCurrent(db, schema))) progress(`migrating the schema ${schema}`);
  await migrate(db, schema);
  return seedIfEmpty(db.withSchema(schema), schema, seed, () => progress?.(`loading ${seedName(seed)}`));
}

/** The longest bound a sandbox takes: 10 minutes. */
const MOST_TIMEOUT_MS = 600_000;

/** The engine's `timeout` option of the sandbox's, checked: a number of milliseconds above 0. */
function timeoutOf(options: Pick<SandboxOptions, "timeout">): { timeout?: number } {
  const timeout = options.timeout;
  if (timeout === undefined) return {};
  if (!Number.isFinite(timeout) || timeout <= 0 || timeout > MOST_TIMEOUT_MS)
    throw new Error(
      `the timeout ${JSON.stringify(timeout)} is not one the sandbox takes: give milliseconds above 0 and at most ${MOST_TIMEOUT_MS} (10 minutes)`,
    );
  return { timeout: Math.max(1, Math.round(timeout)) };
}

/** What a reset loaded, for its message. */
function loaded(seed: Seed): string {
  return `loaded ${seedName(seed)}`;
}

/** A seed, for messages: "the demo seed (2 companies)". */
function seedName(seed: Seed): string {
  const companies = seed.companies.length;
  return `${seed === DEMO_SEED ? "the demo seed" : "the seed"} (${companies} ${companies === 1 ? "company" : "companies"})`;
}

/** The seed of the options: checked, read from its file, or the demo seed. */
export async function resolveSeed(seed: Seed | string | undefined): Promise<Seed> {
  if (seed === undefined) return DEMO_SEED;
  return typeof seed === "string" ? readSeedFile(seed) : checkSeed(seed);
}

/** The schema a sandbox works in, and whether it is kept when the sandbox closes. */
export function schemaFor(location: DatabaseLocation, named: string | undefined): { schema: string; kept: boolean } {
  if (named !== undefined) {
    if (!SCHEMA_NAME.test(named))
      throw new Error(
        `the schema name ${JSON.stringify(named)} is not one the sandbox uses: lower-case letters, digits and _, not starting with a digit`,
      );
    return { schema: named, kept: true };
  }
  if (location.kind === "directory") return { schema: "sandbox", kept: true };
  return { schema: `sandbox_${randomBytes(6).toString("hex")}`, kept: false };
}

/** How long the requests in flight have to finish when the sandbox closes. */
const CLOSE_GRACE_MS = 3000;

/**
 * Stops the server: no new request is taken, those in flight are answered, idle connections are
 * closed. A connection still open after the grace (a client that connected and never sent its
 * request, which Node would otherwise wait on for its headers timeout) is closed then.
 */
async function closeServer(server: FastifyInstance): Promise<void> {
  const timer = setTimeout(() => server.server.closeAllConnections(), CLOSE_GRACE_MS);
  try {
    await server.close();
  } finally {
    clearTimeout(timer);
  }
}

export function once(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => {
    running ??= run();
    return running;
  };
}
