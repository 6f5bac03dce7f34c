/**
 * A PGlite data directory on disk, kept whole and private. A new directory is never made in place:
 * it is made beside the final one (`<dir>.partial-<random>`), complete with the sandbox's schema and
 * seed, closed, and moved into place with one `rename` only then. So a process stopped at any moment
 * (Ctrl-C, `kill -9`, a crash) leaves either no directory, to be made again, or a whole one; a
 * partial folder it leaves is removed at the next start (under the directory's lock).
 *
 * A directory that is there but cannot be opened is never deleted, emptied or made again in place:
 * the start is refused, saying what is wrong and that `npm run sandbox:reset` moves it aside
 * (`<dir>.broken-<time>`) and makes a new one. A folder that is not a database at all (a user's
 * folder given by mistake) is refused by both, and nothing in it is touched.
 *
 * Its files are the user's alone, as PostgreSQL's `initdb` makes them: the directory and every
 * folder in it 0700, every file 0600, whatever the umask and the modes of the image it was made
 * from (whose files PGlite writes 0666). Directories made by earlier versions are tightened when
 * they are opened and again when they are closed (files PGlite creates while it runs take the
 * umask's modes; the directory's own 0700 keeps other users from reaching them meanwhile), and so
 * is a directory moved aside.
 *
 * A directory of another user is refused, as PostgreSQL refuses one, naming its owner. Partial
 * folders are removed through their descriptors (./folder-walk.ts), and only this user's: one of
 * another user is left as it is, with a warning naming its owner.
 */
import { randomBytes } from "node:crypto";
import { lstat, mkdir, readdir, realpath, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { removeOwnFolder, tightenTree, withFolder } from "./folder-walk.js";
import { ownUid, userLabel, warnOfForeign } from "./owners.js";

/** What is at a data directory's path. */
export type DirectoryState =
  | { readonly kind: "new" }
  | { readonly kind: "database" }
  | { readonly kind: "broken"; readonly reason: string }
  | { readonly kind: "foreign"; readonly reason: string };

/** The entries of a PostgreSQL data directory's top folder that mark one, even one made only in part. */
const POSTGRES_ENTRIES = ["PG_VERSION", "global", "base", "pg_wal", "pg_xact", "postgresql.conf"];

/** The real path of a data directory (a symbolic link to one stands for its target), made absolute. */
export async function realDirectory(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return join(await realDirectory(dirname(path)), basename(path));
    throw error;
  }
}

/**
 * Creates the folder a data directory goes in, when missing: 0700, like the directory (the folders
 * it creates; the modes of folders that are there are left alone).
 */
export async function makeParent(path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
}

/** Looks at a data directory without changing anything in it; one of another user is refused, naming its owner. */
export async function inspectDirectory(path: string): Promise<DirectoryState> {
  let found: import("node:fs").Stats;
  try {
    found = await stat(path);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return { kind: "new" };
    throw error;
  }
  const uid = ownUid();
  if (uid !== undefined && found.uid !== uid) throw notOwned(path, found.uid, uid);
  if (!found.isDirectory()) return { kind: "foreign", reason: "it is a file, not a folder" };
  const entries = await readdir(path);
  if (entries.length === 0) return { kind: "new" };
  const marks = POSTGRES_ENTRIES.filter((entry) => entries.includes(entry));
  if (marks.length === 0) {
    const shown = entries.slice(0, 3).join(", ") + (entries.length > 3 ? ", …" : "");
    return { kind: "foreign", reason: `it holds files that are not a database (${shown})` };
  }
  if (!marks.includes("PG_VERSION"))
    return { kind: "broken", reason: "its PG_VERSION file is missing (its making was interrupted)" };
  if (!(await isFile(join(path, "global", "pg_control"))))
    return { kind: "broken", reason: "its global/pg_control file is missing" };
  return { kind: "database" };
}

/** The error of a directory that is there but cannot be opened: what is wrong, and the command that recovers. */
export function cannotOpen(path: string, reason: string): Error {
  return new Error(
    `the data directory ${path} cannot be opened: ${reason}. It was left as it is. \`npm run sandbox:reset\` moves it aside (to ${path}.broken-<time>) and makes a new one with the seed; or give DATA_DIR another folder.`,
  );
}

/** The error of a path that holds something other than a data directory, which nothing touches. */
export function notADatabase(path: string, reason: string): Error {
  return new Error(
    `${path} is not a sandbox data directory: ${reason}. Nothing in it was changed; give DATA_DIR a new or empty folder.`,
  );
}

/** The refusal of a data directory (or whatever is at its path) that another user owns. */
function notOwned(path: string, owner: number, uid: number): Error {
  return new Error(
    `the data directory ${path} belongs to user ${userLabel(owner)}, not to this user (${userLabel(uid)}): the sandbox opens only a data directory of its own user, as PostgreSQL does. Nothing in it was changed; run the sandbox as its owner, or give DATA_DIR a folder of this user's.`,
  );
}

/**
 * Removes the partial folders a process stopped while making this directory left beside it, through
 * their descriptors (./folder-walk.ts); one of another user is left as it is, with a warning.
 */
export async function removePartials(path: string): Promise<void> {
  const pattern = new RegExp(`^${escapeRegExp(basename(path))}\\.partial-[0-9a-f]{12}$`);
  await withFolder(dirname(path), async (parent) => {
    for (const entry of await parent.entries()) {
      if (!pattern.test(entry.name)) continue;
      const kept = await removeOwnFolder(parent, entry.name);
      if (kept !== undefined) warnOfForeign(join(dirname(path), entry.name), kept.foreign);
    }
  });
}

/**
 * Removes PostgreSQL's own lock file from a data directory whose lock (./directory-lock.ts) this
 * process holds. PostgreSQL writes `postmaster.pid` as it starts and removes it as it stops, so a
 * process killed while PGlite ran leaves it behind; that lock judges its holder by process id,
 * which PGlite's WebAssembly always reports the same, so a file naming one is taken over at the
 * next start. But a process killed between creating the file and writing into it leaves it empty,
 * and PostgreSQL refuses to start on an empty lock file, so such a directory could not be opened
 * again. The directory's own lock, which the kernel releases, already keeps every other process
 * out, so whatever the file holds it is a remnant: it is removed before PGlite starts.
 */
export async function removeServerLockFile(path: string): Promise<void> {
  await rm(join(path, "postmaster.pid"), { force: true });
}

/**
 * Makes a new data directory at `path`: `make` fills a new private folder beside it and closes what
 * it opened there, then the folder is moved into place with one `rename`, which replaces nothing
 * but an empty directory. The partial folder is removed when anything fails.
 */
export async function buildDirectory(path: string, make: (partial: string) => Promise<void>): Promise<void> {
  await refuseMountPoint(path);
  const name = `${basename(path)}.partial-${randomBytes(6).toString("hex")}`;
  const partial = join(dirname(path), name);
  await mkdir(partial, { mode: 0o700 });
  try {
    await make(partial);
    await tighten(partial);
    await rename(partial, path);
  } catch (error) {
    await withFolder(dirname(path), (parent) => removeOwnFolder(parent, name));
    throw error;
  }
}

/**
 * An empty directory that is a mount point (a container's volume, say) cannot be replaced by a
 * rename; the message says to give a folder inside it.
 */
async function refuseMountPoint(path: string): Promise<void> {
  const [own, parent] = await Promise.all([stat(path).catch(() => undefined), stat(dirname(path))]);
  if (own !== undefined && own.dev !== parent.dev)
    throw new Error(
      `the data directory ${path} is a mount point: a new data directory is made beside it and moved into place whole, which a mount point does not allow. Give DATA_DIR a folder inside it (${join(path, "sandbox")}).`,
    );
}

/**
 * Moves a directory that cannot be opened aside, never deleting it, and makes it private as a data
 * directory is (one made by an earlier version may have looser modes); answers where it went.
 */
export async function moveAside(path: string): Promise<string> {
  const stamp = new Date().toISOString().slice(0, 19).replaceAll(":", "-");
  for (let n = 1; ; n++) {
    const aside = `${path}.broken-${stamp}Z${n === 1 ? "" : `-${n}`}`;
    if (await exists(aside)) continue;
    await rename(path, aside);
    await tighten(aside);
    return aside;
  }
}

/**
 * Makes every folder under `path` (and itself) 0700 and every file 0600, changing only those that
 * differ, through descriptors (./folder-walk.ts): a link in it is never followed.
 */
export async function tighten(path: string): Promise<void> {
  await tightenTree(path);
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() === true;
}

async function exists(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined)) !== undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function errorCode(error: unknown): unknown {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
