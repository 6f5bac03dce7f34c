/**
 * The guard under which a stale lock (./directory-lock.ts) is taken over: two processes that both
 * found the lock stale must not both remove it, or the second would remove the first one's new
 * lock. On Linux the guard is a socket in the abstract namespace, whose bind is atomic and which
 * the kernel releases with its process, however it ends.
 *
 * Abstract sockets have no owner or mode, so any local user may bind a name first. The guard's
 * name is therefore made from the stale lock itself (its real path, device, inode and change
 * time, which only users who can look into the lock's folder can read), so that no one can take it
 * in advance; and a name that stays taken is checked: when the process holding it is not one of
 * this user's (found through /proc, as its socket's inode among the descriptors of this user's
 * processes), the next name of the series is used, so another user cannot hold a takeover hostage.
 * Elsewhere two processes taking over one stale lock at the same instant are not kept apart; a
 * lock taken normally always is.
 */
import { createHash } from "node:crypto";
import { readdir, readFile, readlink, realpath, stat } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { basename, dirname, join } from "node:path";
import { closeServer, codeOf, listen } from "./lock-sockets.js";
import { ownUid } from "./owners.js";

/** The stale lock a guard is for, as `lstat` gave it (with bigint fields). */
export interface StaleLock {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly ctimeNs: bigint;
}

/** How long a busy guard is waited for, and how long a name may stay taken before its holder is checked. */
const WAIT_MS = 5000;
const CHECK_AFTER_MS = 100;
/** How many names of a series are tried before giving up (each taken by another user). */
const NAMES = 8;

/**
 * Runs `take` while holding the takeover guard of the stale lock `stale` at `file`; a guard another
 * process of this user holds is waited for up to 5 s (it is held for milliseconds).
 */
export async function underGuard<T>(file: string, stale: StaleLock, take: () => Promise<T>): Promise<T> {
  if (process.platform !== "linux") return take();
  const real = join(await realpath(dirname(file)), basename(file));
  const deadline = Date.now() + WAIT_MS;
  for (let index = 0, since = Date.now(); ; ) {
    const name = guardName(real, stale, index);
    const guard = await bindGuard(name);
    if (guard !== undefined) {
      try {
        return await take();
      } finally {
        await closeServer(guard, new Set());
      }
    }
    if (Date.now() - since > CHECK_AFTER_MS) {
      since = Date.now();
      if (await heldByAnotherUser(name)) {
        if (++index === NAMES)
          throw new Error(
            `the lock ${file} is stale, and other users' processes hold every name of the guard under which it is taken over: another user is keeping the sandbox from starting on this directory. Give DATA_DIR a folder only this user can read.`,
          );
        continue;
      }
    }
    if (Date.now() > deadline)
      throw new Error(
        `another process has been taking over the stale lock ${file} for ${WAIT_MS / 1000} s and has not finished: try again`,
      );
    await new Promise((wake) => setTimeout(wake, 10));
  }
}

/** The abstract name of the guard of one stale lock, the `index`th of its series. */
function guardName(real: string, stale: StaleLock, index: number): string {
  const digest = createHash("sha256")
    .update(`${real}\0${stale.dev}:${stale.ino}:${stale.ctimeNs}:${index}`)
    .digest("hex");
  return `\0workforce-scheduling-api-guard-${digest}`;
}

/** Binds the guard; undefined when the name is taken. */
async function bindGuard(name: string): Promise<Server | undefined> {
  const guard = createServer((connection) => connection.destroy());
  try {
    await listen(guard, name);
    guard.unref();
    return guard;
  } catch (error) {
    if (codeOf(error) === "EADDRINUSE") return undefined;
    throw error;
  }
}

/**
 * Whether the abstract socket `name` is held by a process that is not this user's: its listening
 * socket's inode (/proc/net/unix) is found among no descriptor of this user's processes, and is
 * still listed, unchanged, after they were all looked at. False when that cannot be told.
 */
export async function heldByAnotherUser(name: string): Promise<boolean> {
  const before = await listeningInodes(name);
  if (before === undefined || before.length === 0) return false;
  const holders = await processesHolding(new Set(before.map((inode) => `socket:[${inode}]`)));
  const uid = ownUid();
  if (holders.some((holder) => holder === uid)) return false;
  const after = await listeningInodes(name);
  return after?.some((inode) => before.includes(inode)) === true;
}

/** The inodes of the sockets bound to the abstract `name`, from /proc/net/unix; undefined without it. */
async function listeningInodes(name: string): Promise<string[] | undefined> {
  let table: string;
  try {
    table = await readFile("/proc/net/unix", "latin1");
  } catch {
    return undefined;
  }
  // the table shows an abstract name's NULs as "@", and Node binds it padded with NULs to the full address
  const shown = `@${name.slice(1)}`;
  const inodes: string[] = [];
  for (const line of table.split("\n")) {
    const fields = line.trim().split(/\s+/);
    if (fields[7]?.replace(/@+$/, "") === shown && fields[6] !== undefined) inodes.push(fields[6]);
  }
  return inodes;
}

/**
 * The user ids of the processes holding one of `sockets` ("socket:[inode]") among those whose
 * descriptors this process may read (its user's; every process, for root).
 */
async function processesHolding(sockets: ReadonlySet<string>): Promise<number[]> {
  const found: number[] = [];
  const pids = (await readdir("/proc").catch(() => [])).filter((entry) => /^\d+$/.test(entry));
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => "");
      if (!sockets.has(target)) continue;
      const owner = await stat(`/proc/${pid}`).catch(() => undefined);
      if (owner !== undefined) found.push(owner.uid);
      break;
    }
  }
  return found;
}
