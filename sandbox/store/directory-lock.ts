/**
 * One process per PGlite data directory. PGlite takes no lock of its own, and two processes
 * writing one directory leave it unreadable, so the sandbox holds a lock beside the directory for
 * as long as the database is open: a Unix-domain socket it listens on at `<dir>.lock`. The kernel
 * closes a socket when its process ends, however it ends (killed, a zombie its parent has not
 * reaped, a container stopped), so a lock is alive exactly while a connect to it succeeds. Nothing
 * is judged by process ids, which are reused (a container's sandbox is process 1 at every start).
 *
 * - Taking: the socket is bound in a private folder (0700) beside the lock, made 0600, then
 *   hard-linked to the lock's path, which fails when a lock is there. So the lock appears whole,
 *   and no other user can ever connect to it.
 * - A lock there whose connect is refused (its holder is gone), or a lock file of an earlier
 *   version (JSON text naming a process), is stale: it is removed and the link tried again. The
 *   removal is unconditional, so the check and the removal are made under a guard: on Linux, a
 *   socket in the abstract namespace named after the lock's real path, whose bind is atomic and
 *   which the kernel releases with its process. (Elsewhere two processes taking over one stale
 *   lock at the same instant are not kept apart; a lock taken normally always is.)
 * - A holder greets whoever connects with a line of JSON (its process id, host and start time),
 *   only for the message that refuses a second process, and then serves one request of a line:
 *   `npm run sandbox:reset` asks the sandbox running on the directory to reset itself
 *   (`requestReset`, answered by the handler `serveResets` registers). Only the same user can
 *   connect (the socket is 0600), so a request needs no further proof.
 * - A socket's path is limited to about 100 bytes: a longer one is reached relative to the
 *   working directory when that is short enough, else through /proc/self/fd on Linux, else the
 *   error says to choose a shorter path.
 */
import { createHash, randomBytes } from "node:crypto";
import { closeSync, constants, openSync } from "node:fs";
import { chmod, link, lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, unlink } from "node:fs/promises";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { hostname } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";

/** A held lock, and how to let it go (what the directory holds is ./data-directory.ts's to judge). */
export interface DirectoryLock {
  /** the lock's path, `<dir>.lock` */
  readonly path: string;
  /** closes the socket and removes its file (if it is still this lock's) */
  release(): Promise<void>;
}

/** Who holds a lock, as its holder says when greeting. */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
}

/** The refusal of a directory held by a live process. */
export class DirectoryInUseError extends Error {
  constructor(
    readonly directory: string,
    /** undefined when the holder did not say who it is in time */
    readonly holder: LockHolder | undefined,
  ) {
    super(
      `the data directory ${directory} is in use by ${describe(holder)}: one process at a time may open it. Stop that one, or give this one another directory (DATA_DIR).`,
    );
    this.name = "DirectoryInUseError";
  }
}

/** Resets the data of one schema to the seed sent (not yet checked), for `sandbox:reset`. */
export type ResetHandler = (seed: unknown) => Promise<void>;

/** The reset handlers of a held lock, by schema: every sandbox of this process on the schema. */
type ResetHandlers = Map<string, Set<ResetHandler>>;

/** Takes the lock of a data directory, or throws saying which process holds it. */
export async function lockDirectory(path: string): Promise<DirectoryLock> {
  const directory = resolve(path);
  await mkdir(dirname(directory), { recursive: true, mode: 0o700 });
  const file = `${directory}.lock`;
  const me: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  const handlers: ResetHandlers = new Map();
  const connections = new Set<Socket>();
  const bound = await bindPrivately(file, (connection) => {
    connections.add(connection);
    connection.once("close", () => connections.delete(connection));
    serve(connection, me, handlers);
  });
  let placed: { dev: bigint; ino: bigint } | undefined;
  let releasing: Promise<void> | undefined;
  const release = (): Promise<void> => {
    releasing ??= (async () => {
      if (held().get(file) === handlers) held().delete(file);
      // while the socket listens no other process can judge the file stale and replace it, so
      // the file checked here is the one removed
      const now = await lstat(file, { bigint: true }).catch(() => undefined);
      if (now?.dev === placed?.dev && now?.ino === placed?.ino) await unlink(file).catch(ignoreMissing);
      await closeServer(bound.server, connections);
    })();
    return releasing;
  };
  try {
    placed = await place(bound.socket, file, directory);
    held().set(file, handlers);
    return { path: file, release };
  } catch (error) {
    await release();
    throw error;
  } finally {
    await rm(bound.folder, { recursive: true, force: true });
  }
}

/**
 * Registers how a sandbox of this process resets `schema` of the data directory the process holds,
 * for `sandbox:reset` run against it; answers how to unregister. Without a lock of this process on
 * the directory it does nothing.
 */
export function serveResets(path: string, schema: string, reset: ResetHandler): () => void {
  const handlers = held().get(`${resolve(path)}.lock`);
  if (handlers === undefined) return () => undefined;
  const ofSchema = handlers.get(schema) ?? new Set();
  handlers.set(schema, ofSchema.add(reset));
  return () => {
    ofSchema.delete(reset);
    if (ofSchema.size === 0 && handlers.get(schema) === ofSchema) handlers.delete(schema);
  };
}

/**
 * Asks the process holding a data directory to reset `schema` to `seed`; resolves with who did
 * once it is done, or throws with the holder's error (or saying the directory is no longer held).
 */
export async function requestReset(path: string, schema: string, seed: unknown): Promise<LockHolder> {
  const directory = resolve(path);
  const file = `${directory}.lock`;
  const connection = await connectTo(file).catch((error: unknown) => {
    const code = codeOf(error);
    const stopped = code === "ECONNREFUSED" || code === "ENOENT";
    throw new Error(
      stopped
        ? `the sandbox holding the data directory ${directory} stopped before it could be asked to reset it: run the command again`
        : `the process holding the data directory ${directory} could not be asked to reset it (${code})`,
      { cause: error },
    );
  });
  try {
    const lines = lineReader(connection);
    const holder = parseHolder(await lines.next(GREETING_MS));
    connection.write(`${JSON.stringify({ reset: seed, schema })}\n`);
    const answer = parseAnswer(await lines.next(RESET_MS));
    if (answer === undefined)
      throw new Error(`the process holding the data directory ${directory} gave no answer to the reset`);
    if ("error" in answer) throw new Error(`the sandbox in ${describe(holder)} did not reset: ${answer.error}`);
    if (holder === undefined) throw new Error(`the process holding ${directory} did not say who it is`);
    return holder;
  } finally {
    connection.destroy();
  }
}

/** How long a holder has to greet, and to answer a reset. */
const GREETING_MS = 2000;
const RESET_MS = 120_000;
/** How long a connection may stay without a request, and the longest request (a seed) taken. */
const IDLE_MS = 30_000;
const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

/** The reset handlers of the locks this process holds, by lock path; on globalThis, as ./engines.ts keeps its registry. */
const REGISTRY = Symbol.for("workforce-scheduling-api/sandbox/directory-locks");
function held(): Map<string, ResetHandlers> {
  const global = globalThis as { [REGISTRY]?: Map<string, ResetHandlers> };
  global[REGISTRY] ??= new Map();
  return global[REGISTRY];
}

/**
 * A listening socket, 0600, bound in a new folder of its own (0700, beside the lock, so that a
 * hard link can place it) that nobody else can enter: no other user connects before the mode is set.
 */
async function bindPrivately(
  file: string,
  onConnection: (connection: Socket) => void,
): Promise<{ server: Server; socket: string; folder: string }> {
  await removeLeftovers(file);
  const folder = await mkdtemp(join(dirname(file), `.${basename(file)}-`)).catch((error: unknown) => {
    throw new Error(
      `the lock ${file} could not be made (${codeOf(error)}): the sandbox writes its lock beside the data directory, in ${dirname(file)}, which this user must be able to write`,
      { cause: error },
    );
  });
  const socket = join(folder, randomBytes(8).toString("hex"));
  const server = createServer(onConnection);
  try {
    await viaShortPath(socket, (address) => listen(server, address)).catch((error: unknown) => {
      throw new Error(
        `the lock ${file} could not be made (${codeOf(error)}): the sandbox's lock is a Unix socket, which this folder's file system may not hold. Choose a DATA_DIR on a local file system.`,
        { cause: error },
      );
    });
    server.unref();
    await chmod(socket, 0o600);
    return { server, socket, folder };
  } catch (error) {
    await closeServer(server, new Set());
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The private folders of takes that were killed before they ended (a take lasts milliseconds):
 * removed when older than a minute.
 */
async function removeLeftovers(file: string): Promise<void> {
  const parent = dirname(file);
  const prefix = `.${basename(file)}-`;
  const names = await readdir(parent).catch(() => []);
  for (const name of names) {
    if (!name.startsWith(prefix) || name.length !== prefix.length + 6) continue;
    const info = await lstat(join(parent, name)).catch(() => undefined);
    if (info?.isDirectory() && Date.now() - info.mtimeMs > 60_000)
      await rm(join(parent, name), { recursive: true, force: true });
  }
}

/** Links the bound socket to the lock's path, taking over a stale lock there; the lock's file identity. */
async function place(socket: string, file: string, directory: string): Promise<{ dev: bigint; ino: bigint }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await linked(socket, file)) return lstat(socket, { bigint: true });
    const found = await inspect(file, directory);
    if (found.state === "live") throw new DirectoryInUseError(directory, found.holder);
    if (found.state === "absent") continue;
    const took = await underGuard(file, async () => {
      // judged again under the guard: another process may have taken it over since
      const again = await inspect(file, directory);
      if (again.state === "live") throw new DirectoryInUseError(directory, again.holder);
      if (again.state === "stale") await unlink(file).catch(ignoreMissing);
      return linked(socket, file);
    });
    if (took) return lstat(socket, { bigint: true });
  }
  throw new Error(
    `the lock ${file} kept changing while this process tried to take it: another process is starting on the data directory ${directory}; try again`,
  );
}

async function linked(socket: string, file: string): Promise<boolean> {
  try {
    await link(socket, file);
    return true;
  } catch (error) {
    if (codeOf(error) === "EEXIST") return false;
    throw new Error(
      `the lock ${file} could not be placed (${codeOf(error)}): the sandbox's lock is a Unix socket, linked into place, which this folder's file system may not allow. Choose a DATA_DIR on a local file system.`,
      { cause: error },
    );
  }
}

type Found =
  | { readonly state: "absent" }
  | { readonly state: "live"; readonly holder: LockHolder | undefined }
  | { readonly state: "stale" };

/** What is at the lock's path: nothing, a live lock (and who holds it), or a stale one. */
async function inspect(file: string, directory: string, tries = 3): Promise<Found> {
  const info = await lstat(file).catch((error: unknown) => {
    if (codeOf(error) === "ENOENT") return undefined;
    throw error;
  });
  if (info === undefined) return { state: "absent" };
  if (!info.isSocket()) return inspectOther(info.isFile(), file, directory, tries);
  // a holder closing its socket (exiting, or letting the lock go) resets the connections it had not
  // taken, or closes them before its greeting: a moment later the lock is gone, or refuses
  const lookAgain = async (): Promise<Found> => {
    if (tries <= 1) return { state: "live", holder: undefined };
    await new Promise((wake) => setTimeout(wake, 10));
    return inspect(file, directory, tries - 1);
  };
  let connection: Socket;
  try {
    connection = await connectTo(file);
  } catch (error) {
    return afterRefusal(error, file, directory, lookAgain);
  }
  try {
    const lines = lineReader(connection);
    const greeting = await lines.next(GREETING_MS);
    if (greeting === undefined && lines.ended()) return lookAgain();
    // no greeting in time: a live holder whose work keeps it from answering (the connect succeeded)
    return { state: "live", holder: parseHolder(greeting) };
  } finally {
    connection.destroy();
  }
}

/** What is at the lock's path when it is not a socket: an earlier version's lock file (stale), or something in the way. */
async function inspectOther(isFile: boolean, file: string, directory: string, tries: number): Promise<Found> {
  if (!isFile)
    throw new Error(
      `${file} is in the way of the data directory ${directory}'s lock (it is not a file): move it away, or give the sandbox another directory (DATA_DIR)`,
    );
  const old = await isOldLock(file);
  // replaced between the two looks (another process took it over): look again
  if (old === undefined && tries > 1) return inspect(file, directory, tries - 1);
  if (old === true) return { state: "stale" };
  throw new Error(
    `${file} is in the way of the data directory ${directory}'s lock and is not a lock the sandbox made: move it away, or give the sandbox another directory (DATA_DIR)`,
  );
}

/** What a connect to the lock that failed says of it. */
function afterRefusal(
  error: unknown,
  file: string,
  directory: string,
  lookAgain: () => Promise<Found>,
): Found | Promise<Found> {
  const code = codeOf(error);
  if (code === "ECONNREFUSED") return { state: "stale" };
  if (code === "ECONNRESET") return lookAgain();
  if (code === "ENOENT") return { state: "absent" };
  if (code === "EAGAIN") return { state: "live", holder: undefined };
  if (code === "EACCES")
    throw new Error(
      `the data directory ${directory} has a lock of another user (${file}, which this user may not connect to): give the sandbox another directory (DATA_DIR)`,
    );
  throw new Error(`the lock ${file} could not be checked (${code})`, { cause: error });
}

/** A lock file of an earlier version: JSON naming a process (or empty, its writer killed at once); undefined when no longer a file. */
async function isOldLock(file: string): Promise<boolean | undefined> {
  let text: string;
  try {
    const info = await lstat(file);
    if (!info.isFile()) return undefined;
    if (info.size > 4096) return false;
    text = await readFile(file, {
      encoding: "utf8",
      flag: constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    });
  } catch (error) {
    // gone, or now a socket (which cannot be opened) or a link
    if (["ENOENT", "ENXIO", "ELOOP"].includes(codeOf(error))) return undefined;
    throw error;
  }
  if (text.trim() === "") return true;
  try {
    const value = JSON.parse(text) as { pid?: unknown };
    return typeof value === "object" && value !== null && typeof value.pid === "number";
  } catch {
    return false;
  }
}

/**
 * Runs `take` while holding the takeover guard of the lock `file`. On Linux the guard is a socket
 * in the abstract namespace, named after the lock's real path, so every process taking over that
 * lock meets the same name; a guard held stays held for milliseconds, and is waited for up to 5 s.
 */
async function underGuard<T>(file: string, take: () => Promise<T>): Promise<T> {
  if (process.platform !== "linux") return take();
  const real = join(await realpath(dirname(file)), basename(file));
  const name = `\0workforce-scheduling-api-lock-${createHash("sha256").update(real).digest("hex")}`;
  const deadline = Date.now() + 5000;
  let guard: Server;
  for (;;) {
    guard = createServer((connection) => connection.destroy());
    try {
      await listen(guard, name);
      break;
    } catch (error) {
      if (codeOf(error) !== "EADDRINUSE") throw error;
      if (Date.now() > deadline)
        throw new Error(
          `another process has been taking over the stale lock ${file} for 5 s and has not finished: try again`,
        );
      await new Promise((wake) => setTimeout(wake, 10));
    }
  }
  guard.unref();
  try {
    return await take();
  } finally {
    await closeServer(guard, new Set());
  }
}

/** Greets a connection with who holds the lock, then answers its one request. */
function serve(connection: Socket, me: LockHolder, handlers: ResetHandlers): void {
  connection.unref();
  connection.on("error", () => undefined);
  connection.setTimeout(IDLE_MS, () => connection.destroy());
  connection.write(`${JSON.stringify(me)}\n`);
  void lineReader(connection, MAX_REQUEST_BYTES)
    .next(IDLE_MS)
    .then(async (line) => {
      if (line === undefined) return connection.end();
      connection.setTimeout(0);
      const answer = await answerRequest(line, handlers).catch((error: unknown) => ({
        error: error instanceof Error ? error.message : String(error),
      }));
      connection.end(`${JSON.stringify(answer)}\n`);
    })
    .catch((error: unknown) => {
      connection.end(`${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`);
    });
}

async function answerRequest(line: string, handlers: ResetHandlers): Promise<{ done: true } | { error: string }> {
  const request = parseRequest(line);
  if (request === undefined)
    return { error: 'the request is not one the lock serves: {"reset": <seed>, "schema": <name>}' };
  const resets = [...(handlers.get(request.schema) ?? [])];
  if (resets.length === 0)
    return {
      error: `no sandbox on the schema ${request.schema} runs in this process now (it may be starting or stopping): try again, or stop it`,
    };
  // each sandbox on the schema resets it (the later ones find it reset) and forgets what it knew
  for (const reset of resets) await reset(request.reset);
  return { done: true };
}

/** Reads a connection line by line; a line longer than `limit` bytes is an error. */
function lineReader(connection: Socket, limit = 64 * 1024): LineReader {
  return new LineReader(connection, limit);
}

class LineReader {
  #buffered = "";
  #bytes = 0;
  #ended = false;
  #failure: Error | undefined;
  #wake: (() => void) | undefined;

  constructor(
    connection: Socket,
    readonly limit: number,
  ) {
    connection.setEncoding("utf8");
    connection.on("data", (chunk: string) => {
      this.#buffered += chunk;
      this.#bytes += Buffer.byteLength(chunk);
      if (this.#bytes > limit && !this.#buffered.includes("\n")) {
        this.#failure = new Error(`a line longer than ${limit} bytes came on the lock's connection`);
        connection.pause();
      }
      this.#wake?.();
    });
    const end = (): void => {
      this.#ended = true;
      this.#wake?.();
    };
    connection.on("end", end);
    connection.on("close", end);
  }

  ended(): boolean {
    return this.#ended;
  }

  /** The next line; undefined when the connection ended, or none came within `timeoutMs`. */
  async next(timeoutMs: number): Promise<string | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = this.#take();
      if (line !== undefined) return line;
      if (this.#failure !== undefined) throw this.#failure;
      if (this.#ended || Date.now() >= deadline) return undefined;
      await this.#until(deadline);
    }
  }

  #take(): string | undefined {
    const newline = this.#buffered.indexOf("\n");
    if (newline === -1) return undefined;
    const line = this.#buffered.slice(0, newline);
    this.#buffered = this.#buffered.slice(newline + 1);
    this.#bytes = Buffer.byteLength(this.#buffered);
    return line;
  }

  /** Waits for more data, the end, or the deadline. */
  #until(deadline: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, deadline - Date.now());
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
    });
  }
}

function parseHolder(line: string | undefined): LockHolder | undefined {
  if (line === undefined) return undefined;
  try {
    const value = JSON.parse(line) as Partial<LockHolder>;
    return typeof value.pid === "number" && typeof value.host === "string"
      ? { pid: value.pid, host: value.host, since: String(value.since ?? "") }
      : undefined;
  } catch {
    return undefined;
  }
}

function parseRequest(line: string): { reset: unknown; schema: string } | undefined {
  try {
    const value = JSON.parse(line) as { reset?: unknown; schema?: unknown } | null;
    if (typeof value !== "object" || value === null) return undefined;
    return value.reset !== undefined && typeof value.schema === "string"
      ? { reset: value.reset, schema: value.schema }
      : undefined;
  } catch {
    return undefined;
  }
}

function parseAnswer(line: string | undefined): { done: true } | { error: string } | undefined {
  if (line === undefined) return undefined;
  try {
    const value = JSON.parse(line) as { done?: unknown; error?: unknown };
    if (typeof value.error === "string") return { error: value.error };
    return value.done === true ? { done: true } : undefined;
  } catch {
    return undefined;
  }
}

function describe(holder: LockHolder | undefined): string {
  if (holder === undefined) return "another process";
  if (holder.pid === process.pid && holder.host === hostname()) return "this process (another sandbox)";
  return `process ${holder.pid} on ${holder.host} (since ${holder.since})`;
}

/** Connects to the socket at `file`. */
function connectTo(file: string): Promise<Socket> {
  return viaShortPath(
    file,
    (address) =>
      new Promise<Socket>((resolve, reject) => {
        const connection = createConnection(address);
        connection.once("connect", () => {
          connection.off("error", reject);
          connection.on("error", () => undefined);
          resolve(connection);
        });
        connection.once("error", reject);
      }),
  );
}

function listen(server: Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(address, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** Closes a server and the connections it still has. */
function closeServer(server: Server, connections: ReadonlySet<Socket>): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    for (const connection of connections) connection.destroy();
  });
}

/** The longest socket path the system takes (sun_path, less its terminating NUL). */
const MAX_SOCKET_PATH = process.platform === "linux" ? 107 : 103;

/**
 * Runs `use` with a path to `file` short enough for a socket: the path itself, else relative to
 * the working directory, else (Linux) through a descriptor of its folder, held open meanwhile.
 * Node does not check the length and the system would cut a longer path, binding another name.
 */
async function viaShortPath<T>(file: string, use: (address: string) => Promise<T>): Promise<T> {
  const fits = (path: string): boolean => Buffer.byteLength(path) <= MAX_SOCKET_PATH;
  if (fits(file)) return use(file);
  const near = relative(process.cwd(), file);
  if (fits(near)) return use(near);
  if (process.platform === "linux") {
    const folder = openSync(dirname(file), "r");
    try {
      const viaFolder = `/proc/self/fd/${folder}/${basename(file)}`;
      if (fits(viaFolder)) return await use(viaFolder);
    } finally {
      closeSync(folder);
    }
  }
  throw new Error(
    `the lock ${file} has a path of ${Buffer.byteLength(file)} bytes, and a Unix socket's is limited to ${MAX_SOCKET_PATH}: choose a DATA_DIR with a shorter path`,
  );
}

function codeOf(error: unknown): string {
  return String((error as NodeJS.ErrnoException | undefined)?.code ?? error);
}

function ignoreMissing(error: unknown): void {
  if (codeOf(error) !== "ENOENT") throw error;
}
