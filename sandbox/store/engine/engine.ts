/**
 * Where the sandbox's data lives, behind one SQL code path: Kysely's PostgreSQL dialect over a
 * `pg` pool. On a PostgreSQL server the pool connects to it; embedded, PGlite (PostgreSQL compiled
 * to WebAssembly, in this process) serves the same pool through its `node-postgres` adapter, as one
 * connection. So every query, migration and transaction is the same on both. Where `pg` is not
 * installed, the embedded engine runs Kysely's PostgreSQL SQL on PGlite itself, as a page does
 * (./pglite-dialect.ts): the same SQL, without the statements `pg` prepares once per connection.
 *
 * Embedded engines open fast from a prepared image (./image.ts) instead of running `initdb`; a
 * data directory is held by one process at a time (./directory-lock.ts), and a new one is made
 * whole beside its place before it is moved there (./data-directory.ts).
 */
import { setFlagsFromString } from "node:v8";
import { Kysely, PostgresDialect } from "kysely";
import type { Database } from "../schema/database.js";
import { markDistributed, markedLike } from "./citus.js";
import {
  buildDirectory,
  cannotOpen,
  inspectDirectory,
  makeParent,
  moveAside,
  notADatabase,
  realDirectory,
  removePartials,
  removeServerLockFile,
  tighten,
} from "./data-directory.js";
import { queryDirectly } from "./direct-queries.js";
import { lockDirectory } from "./directory-lock.js";
import { loadImage } from "./image.js";
import { PGliteDialect } from "./pglite-dialect.js";
import { preparingPool } from "./prepared-statements.js";
import { recoverAfterTimeouts } from "./recovery.js";

/** Where the data lives: in memory, in a PGlite data directory, or on a PostgreSQL server. */
export type DatabaseLocation =
  | { readonly kind: "memory" }
  | { readonly kind: "directory"; readonly path: string }
  | { readonly kind: "postgres"; readonly url: string };

/** An open database: the query layer over it, and how to close it. */
export interface Engine {
  readonly location: DatabaseLocation;
  /**
   * the query layer of requests; each sandbox works in a schema of its own (`db.withSchema`). On a
   * PostgreSQL server each of its statements, and its wait for a connection, is bounded (`timeout`);
   * on a Citus cluster it is marked so (./citus.ts), for the statements whose form Citus decides
   */
  readonly db: Kysely<Database>;
  /**
   * the query layer of the sandbox's own upkeep, with no bound on a statement: migrations, seeding,
   * resets, a schema dropped (the same as `db` on the embedded engine)
   */
  readonly upkeep: Kysely<Database>;
  /** for messages: "PGlite in memory", "PGlite in .data/sandbox", "PostgreSQL at 127.0.0.1:5432/app" */
  readonly description: string;
  /** what opening it did that its user should hear of (a broken data directory moved aside) */
  readonly notice?: string;
  close(): Promise<void>;
}

/**
 * Reads the `database` option: "memory" (or "memory://"), a postgres:// or postgresql:// URL, or
 * otherwise a data directory. A setting that starts with a URL scheme (`mysql://`, `sqlite:x`, a
 * typo such as `postgress://`) is none of these and is refused, rather than taken as a directory
 * named after the scheme: a directory whose name holds a colon is written `./name:x`.
 */
export function parseLocation(setting: string): DatabaseLocation {
  const value = setting.trim();
  if (value === "memory" || value === "memory://") return { kind: "memory" };
  if (/^postgres(ql)?:\/\//i.test(value)) return { kind: "postgres", url: value };
  if (value === "")
    throw new Error("the database setting is empty: give memory, a postgres:// URL or a data directory");
  const scheme = urlScheme(value);
  if (scheme !== undefined)
    throw new Error(
      `the database "${scheme}..." is not one the sandbox opens: give memory, a postgres:// or postgresql:// URL, or a data directory (one whose name starts with "${scheme}" is written "./${scheme}...")`,
    );
  return { kind: "directory", path: value };
}

/**
 * The scheme a setting starts with ("mysql:"), or undefined. One letter is a Windows drive
 * ("C:\\data"), not a scheme.
 */
export function urlScheme(value: string): string | undefined {
  return /^[a-z][a-z0-9+.-]+:/i.exec(value)?.[0];
}

/** The type of `bigint`, read as a number: the sandbox's ids stay far below 2^53. */
const INT8 = 20;

/** The pool's type parser: pg's own, but numbers for int8 (this pool's only, not the process's). */
function numbersForInt8(pg: typeof import("pg").default): (oid: number, format?: string) => unknown {
  return (oid: number, format?: string) => {
    if (format !== "binary" && oid === INT8) return (text: string) => Number(text);
    return pg.types.getTypeParser(oid, format as "text");
  };
}

/** How a database is opened. */
export interface OpenOptions {
  /**
   * Makes a new embedded database whole before it is used (the sandbox's migrations and seed): a new
   * data directory is moved into place only once this has run in it.
   */
  readonly prepare?: (db: Kysely<Database>) => Promise<unknown>;
  /**
   * A data directory that cannot be opened is moved aside and a new one made (`npm run
   * sandbox:reset`), instead of refused.
   */
  readonly replaceBroken?: boolean;
  /** Told, in a line, of each step that can take seconds (making a database or a directory) as it begins. */
  readonly progress?: (step: string) => void;
  /**
   * On a PostgreSQL server, the most a request's statement may wait, in milliseconds, for a lock, a
   * node or a connection (default DEFAULT_TIMEOUT_MS): past it the statement is cancelled, its
   * transaction rolled back, and the request answered 503.
   */
  readonly timeout?: number;
}

/** The bound of a request's statements on a PostgreSQL server, by default: 3 s. */
export const DEFAULT_TIMEOUT_MS = 3000;

/** Opens the database at `location`. */
export async function openEngine(location: DatabaseLocation, options: OpenOptions = {}): Promise<Engine> {
  if (location.kind === "postgres") return openPostgres(location, options.timeout ?? DEFAULT_TIMEOUT_MS);
  return openEmbedded(location, options);
}

/** How long the first connection to PostgreSQL, and one of the upkeep's, may take. */
const CONNECT_TIMEOUT_MS = 5000;

/** The connections of a PostgreSQL server's pool of requests. */
const POOL_SIZE = 10;

/**
 * Two pools on a PostgreSQL server: the requests', whose statements (`statement_timeout`) and
 * lock waits (`lock_timeout`) are bounded by `timeout`, as is a request's wait for one of its
 * connections, so that a held lock, a node that does not answer or a pool in use all end in a 503
 * within the bound, never a hang; and the upkeep's, unbounded, for the migrations, the seed and
 * resets, which may wait for one another and take longer on a large database.
 */
async function openPostgres(location: DatabaseLocation & { kind: "postgres" }, timeout: number): Promise<Engine> {
  const { default: pg } = await requirePeer("pg", () => import("pg"));
  const common = {
    connectionString: location.url,
    types: { getTypeParser: numbersForInt8(pg) },
    allowExitOnIdle: true,
    keepAlive: true,
  };
  // the upkeep's connection is kept open, not closed 10 s after its last use (pg-pool's default):
  // closed while requests are served, its socket's end deoptimised V8's compiled code of the
  // streams all sockets share, recompiled on the requests' time
  const upkeepPool = new pg.Pool({
    ...common,
    max: 2,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 0,
  });
  hearConnectionErrors(upkeepPool);
  const url = new URL(location.url);
  try {
    (await upkeepPool.connect()).release();
  } catch (error) {
    await upkeepPool.end();
    throw new Error(connectFailure(url, error), { cause: error });
  }
  const pool = new pg.Pool({
    ...common,
    max: POOL_SIZE,
    connectionTimeoutMillis: timeout,
    statement_timeout: timeout,
    lock_timeout: timeout,
  });
  hearConnectionErrors(pool);
  const upkeep = await markDistributed(new Kysely<Database>({ dialect: new PostgresDialect({ pool: upkeepPool }) }));
  const preparing = preparingPool(pool, undefined, recoverAfterTimeouts(upkeepPool));
  const db = markedLike(new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparing }) }), upkeep);
  queryDirectly(db, preparing.run);
  return {
    location,
    db,
    upkeep,
    description: `PostgreSQL at ${url.host}${url.pathname}`,
    close: async () => {
      await db.destroy();
      await upkeep.destroy();
    },
  };
}

/**
 * Why the first connection to PostgreSQL failed, in one line naming the server, for a start that
 * cannot go on (a request later is answered 503 instead, ../outage.ts). The password is never shown.
 */
export function connectFailure(url: URL, error: unknown): string {
  const host = url.hostname === "" ? "localhost" : url.hostname;
  const port = url.port === "" ? "5432" : url.port;
  const server = `PostgreSQL at ${host} port ${port}`;
  const user = decodeURIComponent(url.username) || "(the default user)";
  const database = decodeURIComponent(url.pathname.slice(1)) || user;
  const { code, message } = errorParts(error);
  if (code === "ECONNREFUSED")
    return `${server} refused the connection (ECONNREFUSED): is it running, and listening on that port? Check DATABASE_URL`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return `${server}: the host name ${JSON.stringify(host)} is not known (${code}); check DATABASE_URL`;
  if (code === "ETIMEDOUT" || code === "EHOSTUNREACH" || code === "ENETUNREACH" || /timeout/i.test(message))
    return `${server} did not answer (${code ?? "no answer"} within ${CONNECT_TIMEOUT_MS / 1000} s): is it running, and reachable from here?`;
  if (code === "28P01")
    return `${server} refused the password of user ${JSON.stringify(user)} (28P01): check the user and password in DATABASE_URL`;
  if (code === "3D000")
    return `${server} has no database ${JSON.stringify(database)} (3D000): create it (createdb ${database}) or name another in DATABASE_URL`;
  if (code === "28000")
    return `${server} refused user ${JSON.stringify(user)} (28000: ${message}): check the user in DATABASE_URL`;
  return `${server} could not be connected to (${code === undefined ? "" : `${code}: `}${message})`;
}

/** The code and message of a connection error; of its first error when it is one per address (an AggregateError). */
function errorParts(error: unknown): { code: string | undefined; message: string } {
  const first = error instanceof AggregateError && error.errors.length > 0 ? error.errors[0] : error;
  const code = (error as { code?: unknown }).code ?? (first as { code?: unknown }).code;
  const message = first instanceof Error ? first.message : String(first);
  return { code: typeof code === "string" ? code : undefined, message };
}

type PGliteInstance = InstanceType<typeof import("@electric-sql/pglite").PGlite>;

/** The embedded engine's packages, loaded when first needed (they are optional peers). */
interface Embedded {
  readonly PGlite: typeof import("@electric-sql/pglite").PGlite;
  /** `pg` and PGlite's adapter for it, when `pg` is installed */
  readonly pool?: {
    readonly createPgConfig: typeof import("@electric-sql/pglite/node-postgres").createPgConfig;
    readonly pg: typeof import("pg").default;
  };
}

/**
 * Has V8 compile PGlite's WebAssembly (9 MB of PostgreSQL) with its baseline compiler only, never
 * the optimising one; called before the engine compiles its module. V8 otherwise optimises a
 * function after some use, and the compiler's memory stays with the process: a first
 * createSandbox() peaked at 460 to 870 MB on Node 20, 22 and 24 without this, under 300 MB with
 * it, for a few percent of the engine's throughput. Node refuses `--liftoff-only` in
 * NODE_OPTIONS, so a test runner's processes could not be given it; set here, no flag is needed.
 * A flag set at run time does not bring those it implies, so the two tier-up settings are set
 * with it. They hold for the whole process: WebAssembly compiled after this is not optimised
 * either.
 */
export function compileWasmUnoptimised(): void {
  setFlagsFromString("--liftoff-only --no-wasm-tier-up --no-wasm-dynamic-tiering");
}

async function loadEmbedded(): Promise<Embedded> {
  compileWasmUnoptimised();
  const { PGlite } = await requirePeer("@electric-sql/pglite", () => import("@electric-sql/pglite"));
  const pg = await optionalPeer("pg", () => import("pg"));
  if (pg === undefined) return { PGlite };
  const { createPgConfig } = await requirePeer(
    "@electric-sql/pglite",
    () => import("@electric-sql/pglite/node-postgres"),
  );
  return { PGlite, pool: { createPgConfig, pg: pg.default } };
}

/**
 * Makes the image a new embedded database starts from, when this machine has none yet (it runs
 * `initdb`, some seconds), so that the first `npm start` does not: npm's `prepare` runs it after
 * `npm ci`. Answers whether it made one; with an image there already, it only loads it.
 */
export async function prepareImage(): Promise<boolean> {
  const embedded = await loadEmbedded();
  let made = false;
  const pglite = await startPGlite(embedded, "memory://", {
    new: true,
    progress: () => {
      made = true;
    },
  });
  await pglite.close();
  return made;
}

async function openEmbedded(
  location: DatabaseLocation & { kind: "memory" | "directory" },
  options: OpenOptions,
): Promise<Engine> {
  const embedded = await loadEmbedded();
  if (location.kind === "memory") {
    const pglite = await startPGlite(embedded, "memory://", { new: true, ...options });
    return engineOver(embedded, pglite, location, "PGlite in memory", () => pglite.close());
  }
  const path = await realDirectory(location.path);
  await makeParent(path);
  const lock = await lockDirectory(location.path);
  try {
    const { pglite, notice } = await openDirectory(embedded, { path, shown: location.path }, options);
    return engineOver(
      embedded,
      pglite,
      location,
      `PGlite in ${location.path}`,
      async () => {
        await pglite.close();
        await tighten(path);
        await lock.release();
      },
      notice,
    );
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/**
 * Opens the data directory at `path` (its lock held): a whole one as it is; a new one made beside it
 * and moved into place (./data-directory.ts); one that cannot be opened refused, or moved aside and
 * made again when `options.replaceBroken`.
 */
async function openDirectory(
  embedded: Embedded,
  { path, shown }: { readonly path: string; readonly shown: string },
  options: OpenOptions,
): Promise<{ pglite: PGliteInstance; notice?: string }> {
  await removePartials(path);
  let state = await inspectDirectory(path);
  if (state.kind === "foreign") throw notADatabase(path, state.reason);
  if (state.kind === "database") {
    await removeServerLockFile(path);
    try {
      const pglite = await startPGlite(embedded, path);
      await tighten(path);
      return { pglite };
    } catch (error) {
      state = { kind: "broken", reason: `PGlite could not start on it (${describe(error)})` };
    }
  }
  let notice: string | undefined;
  if (state.kind === "broken") {
    if (options.replaceBroken !== true) throw cannotOpen(path, state.reason);
    notice = `the data directory ${path} could not be opened (${state.reason}): it was moved to ${await moveAside(path)}, and a new one made`;
  }
  options.progress?.(`making the data directory ${shown}: a new database, its schema and the seed`);
  await buildDirectory(path, async (partial) => {
    const made = await startPGlite(embedded, partial, { new: true, ...options });
    const db = queryLayer(embedded, made);
    try {
      await options.prepare?.(db);
    } finally {
      await db.destroy();
      await made.close();
    }
  });
  const pglite = await startPGlite(embedded, path);
  return notice === undefined ? { pglite } : { pglite, notice };
}

/**
 * The embedded engine's memory, sized for a development service. PostgreSQL's default 128 MB of
 * shared buffers is most of PGlite's resident memory once the pages it reads have filled it (its
 * WebAssembly heap only grows, and PostgreSQL's shared memory is all written as it starts); 8 MB
 * holds a development database's working set (10,000 events and their indexes are about 5 MB),
 * and a page not in them is read from the operating system's cache, which PGlite reaches without
 * a process switch. (16 MB held 10 MB more of every process at rest, which on Node 24 was the
 * difference between 158 and 147 MiB.) One backend serves every query, so the shared memory sized
 * by `max_connections` (100 by default) is cut to a few.
 */
export const EMBEDDED_START_PARAMS = ["-c", "shared_buffers=8MB", "-c", "max_connections=4"];

/**
 * How a new embedded database is made (`initdb`, when there is no image yet). Its write-ahead log
 * goes in segments of 1 MB rather than 16 (initdb writes about 7 MB of it), and a segment no
 * longer needed is removed rather than kept for reuse, past the first two: the image, a new data
 * directory and a database in memory hold 2 MB of log, where they held 16 (40 MB in all, now 25).
 * The two settings stay in the database's postgresql.conf.
 */
export const EMBEDDED_INITDB_PARAMS = ["--wal-segsize=1", "-c", "wal_recycle=off", "-c", "min_wal_size=2MB"];

/**
 * Starts PGlite on `dataDir`. A new database (`made.new`) starts from the prepared image, or runs
 * initdb and makes the image, which `made.progress` is told of; an existing one is opened as it is.
 */
async function startPGlite(
  embedded: Embedded,
  dataDir: string,
  made: { readonly new?: boolean; readonly progress?: (step: string) => void } = {},
): Promise<PGliteInstance> {
  const image = made.new === true ? await loadImage() : undefined;
  const claim = image instanceof Blob ? undefined : image;
  if (claim !== undefined)
    made.progress?.("making a new database with initdb, once on this machine: the next ones start from its image");
  try {
    const pglite = new embedded.PGlite(dataDir, {
      ...(image instanceof Blob ? { loadDataDir: image } : {}),
      startParams: [...embedded.PGlite.defaultStartParams, ...EMBEDDED_START_PARAMS],
      initDbStartParams: EMBEDDED_INITDB_PARAMS,
    });
    await pglite.waitReady;
    await claim?.save(pglite);
    return pglite;
  } finally {
    await claim?.release();
  }
}

/** Kysely over a PGlite instance, through its node-postgres adapter (one connection), or on PGlite itself without `pg`. */
function queryLayer(embedded: Embedded, pglite: PGliteInstance): Kysely<Database> {
  if (embedded.pool === undefined) return new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  const { pg, createPgConfig } = embedded.pool;
  const pool = new pg.Pool({
    ...createPgConfig(pglite),
    types: { getTypeParser: numbersForInt8(pg) },
    allowExitOnIdle: true,
  });
  hearConnectionErrors(pool);
  const preparing = preparingPool(pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparing }) });
  queryDirectly(db, preparing.run);
  return db;
}

function engineOver(
  embedded: Embedded,
  pglite: PGliteInstance,
  location: DatabaseLocation,
  description: string,
  closeEngine: () => Promise<void>,
  notice?: string,
): Engine {
  const db = queryLayer(embedded, pglite);
  return {
    location,
    db,
    upkeep: db,
    description,
    ...(notice === undefined ? {} : { notice }),
    close: async () => {
      await db.destroy();
      await closeEngine();
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A connection the server drops (a restart, an administrator, a network) is an error of the
 * connection, not of the process: the query it was running fails (and its request is answered
 * 503, ../outage.ts), and the pool opens a new connection when one is next needed. `pg` also emits
 * the error on the connection, idle in the pool or lent to a query; unheard, that would end the
 * process, so both are heard here.
 */
function hearConnectionErrors(pool: import("pg").Pool): void {
  pool.on("error", () => undefined);
  pool.on("connect", (client) => client.on("error", () => undefined));
}

/**
 * Loads the driver `location` needs (`pg` for a PostgreSQL server, PGlite otherwise), so that a
 * missing one is named before anything else is loaded or opened.
 */
export async function loadDriver(location: DatabaseLocation): Promise<void> {
  if (location.kind === "postgres") await requirePeer("pg", () => import("pg"));
  else await requirePeer("@electric-sql/pglite", () => import("@electric-sql/pglite"));
}

/**
 * Loads an optional peer dependency (or a module that imports some), or says in one line which
 * package to install: the one Node could not find (`@fastify/multipart`, loading the server's
 * modules), else `name`.
 */
export async function requirePeer<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw peerError(error, name);
  }
}

/** `error` in one line naming the package to install when a package could not be found; else `error` itself. */
export function peerError(error: unknown, name?: string): unknown {
  const missing = missingPackage(error) ?? (isMissingModule(error) ? name : undefined);
  if (missing === undefined) return error;
  return new Error(`the sandbox needs the package ${missing}: install it (npm install --save-dev ${missing})`, {
    cause: error,
  });
}

/** Loads an optional peer dependency; undefined when that package is not installed. */
async function optionalPeer<T>(name: string, load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load();
  } catch (error) {
    if (missingPackage(error) === name) return undefined;
    throw peerError(error, name);
  }
}

function isMissingModule(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}

/** The package Node could not find ("Cannot find package 'pg' imported from ..."), or undefined. */
function missingPackage(error: unknown): string | undefined {
  if (!isMissingModule(error)) return undefined;
  const specifier = /Cannot find (?:package|module) '([^']+)'/.exec((error as Error).message)?.[1];
  if (specifier === undefined || /^[./]|^[A-Za-z]:|^node:|^file:/.test(specifier)) return undefined;
  const parts = specifier.split("/");
  return (specifier.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/");
}
