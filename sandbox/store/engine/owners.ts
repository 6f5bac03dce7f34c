/**
 * Who may change what the sandbox keeps on disk. Its housekeeping (the data directory, its partial
 * folders, its lock, the image cache) acts only on what this user owns, in folders no other user
 * can write: a folder another user can write lets that user rename, replace or plant what is in it
 * between a check and the act that follows, so such a folder is refused (or, for the image cache,
 * not used) and its message says which folder, whose it is, and how to make it safe.
 *
 * A folder is safe when it belongs to this user or to root, and neither its group nor other users
 * can write in it, unless it has the sticky bit (as /tmp has: others may create names in it, but
 * not rename or remove this user's). Each folder from the root of the file system down is checked,
 * since whoever can write one of them can replace everything below it. Where the system has no user
 * ids (Windows), nothing is checked.
 */
import { readFileSync } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import { userInfo } from "node:os";
import { dirname } from "node:path";

/** The sticky bit of a folder's mode (S_ISVTX): only an entry's owner may rename or remove it. */
const STICKY = 0o1000;

/** This process's user id, or undefined where the system has none (and nothing is checked). */
export function ownUid(): number | undefined {
  return process.getuid?.();
}

/** A user as messages name one: "nobody (uid 65534)", or "uid 1234" when the system has no name for it. */
export function userLabel(uid: number): string {
  const name = uid === ownUid() ? safeOwnName() : nameFromPasswd(uid);
  return name === undefined ? `uid ${uid}` : `${name} (uid ${uid})`;
}

function safeOwnName(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}

/** The name /etc/passwd gives a user id, if it has one (only printable names are taken). */
function nameFromPasswd(uid: number): string | undefined {
  try {
    for (const line of readFileSync("/etc/passwd", "latin1").split("\n")) {
      const [name, , id] = line.split(":");
      if (id === String(uid) && name !== undefined && /^[\w.-]{1,64}$/.test(name)) return name;
    }
  } catch {
    // no passwd file: the id alone
  }
  return undefined;
}

const WARNED = Symbol.for("workforce-scheduling-api/sandbox/foreign-leftovers");

/** Says (once a process for each path) that a leftover another user owns (a partial folder, a lock's folder) was left as it is. */
export function warnOfForeign(path: string, owner: number): void {
  const global = globalThis as { [WARNED]?: Set<string> };
  global[WARNED] ??= new Set();
  if (global[WARNED].has(path)) return;
  global[WARNED].add(path);
  process.emitWarning(
    `${path} belongs to user ${userLabel(owner)}, not to this user: it was left as it is (its owner can remove it)`,
    { type: "SandboxWarning", code: "SANDBOX_FOREIGN_LEFTOVER" },
  );
}

/** Who owns a file and which mode bits it has, as `lstat` gives them. */
export interface Ownership {
  readonly uid: number;
  readonly mode: number;
}

/**
 * Why another user could rename or replace the entries of `folder` (a real path, no symbolic link
 * in it), or undefined when no one but this user (and root) can: each folder from `folder` up to
 * the root must belong to this user or root, and be writable by no one else unless it is sticky.
 */
export async function whyOthersCanWrite(folder: string): Promise<string | undefined> {
  const uid = ownUid();
  if (uid === undefined) return undefined;
  for (let current = folder; ; current = dirname(current)) {
    const found = await lstat(current);
    const why = unsafeFolder(found, uid);
    if (why !== undefined) return `${current} ${why}`;
    if (dirname(current) === current) return undefined;
  }
}

/**
 * Why another user could rename or replace what is at `path`, or undefined: the check of
 * `whyOthersCanWrite` made on the folder `path` is in (the nearest one there, its links followed).
 */
export async function whyOthersCanWriteAbove(path: string): Promise<string | undefined> {
  for (let folder = dirname(path); ; folder = dirname(folder)) {
    try {
      return await whyOthersCanWrite(await realpath(folder));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || dirname(folder) === folder) throw error;
    }
  }
}

/**
 * Refuses a data directory whose folder another user could write (./directory-lock.ts keeps the
 * lock there, and ./data-directory.ts the partial folders): the message names the folder, why, and
 * how to make it safe.
 */
export async function refuseUnsafePlace(directory: string): Promise<void> {
  const why = await whyOthersCanWriteAbove(directory);
  if (why === undefined) return;
  throw new Error(
    `the data directory ${directory} cannot be kept safe where it is: ${why}. Give DATA_DIR a folder that only this user can write (chmod go-w on that folder; a folder shared on purpose, as /tmp is, takes the sticky bit: chmod +t).`,
  );
}

/** What makes one folder unsafe, or undefined. */
function unsafeFolder(found: Ownership & { isDirectory(): boolean }, uid: number): string | undefined {
  if (!found.isDirectory()) return "is not a folder";
  if (found.uid !== uid && found.uid !== 0)
    return `belongs to user ${userLabel(found.uid)}, who can replace what is in it`;
  if ((found.mode & 0o022) !== 0 && (found.mode & STICKY) === 0)
    return `can be written by other users (mode ${modeText(found.mode)}) and has no sticky bit, so they can rename or replace what is in it`;
  return undefined;
}

/** A mode as `ls` and `chmod` write it: "0755", "1777". */
export function modeText(mode: number): string {
  return `0${(mode & 0o7777).toString(8)}`;
}
