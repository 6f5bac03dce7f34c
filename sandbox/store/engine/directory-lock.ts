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
 *   removal is unconditional, so the check and the removal are made under a guard that the kernel
 *   releases and no other user can hold hostage (./lock-guard.ts).
 * - Nothing of another user's is touched: the lock's folder must be one no other user can write
 *   (./owners.ts), a lock of another user is refused before any connection to it, naming its
 *   owner, and the private folders left by takes that were killed are removed through their
 *   descriptors, only when they are this user's (./folder-walk.ts).
 * - A holder greets whoever connects, and serves `npm run sandbox:reset` (./lock-channel.ts).
 * - A socket's path is limited to about 100 bytes: a longer one is reached relative to the
 *   working directory when that is short enough, else through /proc/self/fd on Linux, else the
 *   error says to choose a shorter path.
 */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { chmod, link, lstat, mkdir, mkdtemp, readFile, unlink } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { hostname } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { removeOwnFolder, withFolder } from "./folder-walk.js";
import {
  describe,
  GREETING_MS,
  held,
  type LockHolder,
  lineReader,
  parseHolder,
  type ResetHandlers,
  refuseForeignLock,
  serve,
} from "./lock-channel.js";
import { type StaleLock, underGuard } from "./lock-guard.js";
import { closeServer, codeOf, connectTo, ignoreMissing, listen, viaShortPath } from "./lock-sockets.js";
import { refuseUnsafePlace, warnOfForeign } from "./owners.js";

/** A held lock, and how to let it go (what the directory holds is ./data-directory.ts's to judge). */
export interface DirectoryLock {
  /** the lock's path, `<dir>.lock` */
  readonly path: string;
  /** closes the socket and removes its file (if it is still this lock's) */
  release(): Promise<void>;
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

/** Takes the lock of a data directory, or throws saying which process holds it. */
export async function lockDirectory(path: string): Promise<DirectoryLock> {
  const directory = resolve(path);
  await mkdir(dirname(directory), { recursive: true, mode: 0o700 });
  await refuseUnsafePlace(directory);
  const file = `${directory}.lock`;
  const me: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  const handlers: ResetHandlers = new Map();
  const connections = new Set<Socket>();
  const bound = await bindPrivately(file, (connection) => {
    connections.add(connection);
    connection.once("close", () => connections.delete(connection));
    serve(connection, me, handlers, file);
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
    await removeFolder(bound.folder);
  }
}

/** Removes a private folder this process made beside the lock, through its descriptor. */
async function removeFolder(folder: string): Promise<void> {
  await withFolder(dirname(folder), (parent) => removeOwnFolder(parent, basename(folder)));
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
    await removeFolder(folder);
    throw error;
  }
}

/**
 * The private folders of takes (and of `sandbox:reset`'s proofs) that were killed before they ended
 * (each lasts milliseconds): removed through their descriptors when older than a minute and this
 * user's; another user's are left as they are, with a warning.
 */
async function removeLeftovers(file: string): Promise<void> {
  const prefix = `.${basename(file)}-`;
  await withFolder(dirname(file), async (parent) => {
    for (const { name } of await parent.entries()) {
      if (!name.startsWith(prefix) || name.length !== prefix.length + 6) continue;
      const info = await lstat(parent.entry(name)).catch(() => undefined);
      if (info?.isDirectory() !== true || Date.now() - info.mtimeMs <= 60_000) continue;
      const kept = await removeOwnFolder(parent, name);
      if (kept !== undefined) warnOfForeign(join(dirname(file), name), kept.foreign);
    }
  });
}

/** Links the bound socket to the lock's path, taking over a stale lock there; the lock's file identity. */
async function place(socket: string, file: string, directory: string): Promise<{ dev: bigint; ino: bigint }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await linked(socket, file)) return lstat(socket, { bigint: true });
    const found = await inspect(file, directory);
    if (found.state === "live") throw new DirectoryInUseError(directory, found.holder);
    if (found.state === "absent") continue;
    const took = await underGuard(file, found.lock, async () => {
      // judged again under the guard: another process may have taken it over since
      const again = await inspect(file, directory);
      if (again.state === "live") throw new DirectoryInUseError(directory, again.holder);
      if (again.state === "stale") {
        // another stale lock than the one this guard is for: judged again, under its own guard
        if (again.lock.dev !== found.lock.dev || again.lock.ino !== found.lock.ino) return false;
        await unlink(file).catch(ignoreMissing);
      }
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
  | { readonly state: "stale"; readonly lock: StaleLock };

/**
 * What is at the lock's path: nothing, a live lock (and who holds it), or a stale one. A lock of
 * another user is refused before anything is sent to it or read from it.
 */
async function inspect(file: string, directory: string, tries = 3): Promise<Found> {
  const info = await lstat(file, { bigint: true }).catch((error: unknown) => {
    if (codeOf(error) === "ENOENT") return undefined;
    throw error;
  });
  if (info === undefined) return { state: "absent" };
  refuseForeignLock(Number(info.uid), file, directory);
  const lock: StaleLock = { dev: info.dev, ino: info.ino, ctimeNs: info.ctimeNs };
  if (!info.isSocket()) return inspectOther(info.isFile(), lock, file, directory, tries);
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
    return afterRefusal(error, lock, file, directory, lookAgain);
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
async function inspectOther(
  isFile: boolean,
  lock: StaleLock,
  file: string,
  directory: string,
  tries: number,
): Promise<Found> {
  if (!isFile)
    throw new Error(
      `${file} is in the way of the data directory ${directory}'s lock (it is not a file): move it away, or give the sandbox another directory (DATA_DIR)`,
    );
  const old = await isOldLock(file);
  // replaced between the two looks (another process took it over): look again
  if (old === undefined && tries > 1) return inspect(file, directory, tries - 1);
  if (old === true) return { state: "stale", lock };
  throw new Error(
    `${file} is in the way of the data directory ${directory}'s lock and is not a lock the sandbox made: move it away, or give the sandbox another directory (DATA_DIR)`,
  );
}

/** What a connect to the lock that failed says of it. */
function afterRefusal(
  error: unknown,
  lock: StaleLock,
  file: string,
  directory: string,
  lookAgain: () => Promise<Found>,
): Found | Promise<Found> {
  const code = codeOf(error);
  if (code === "ECONNREFUSED") return { state: "stale", lock };
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
