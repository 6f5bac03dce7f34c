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
 * umask's modes; the directory's own 0700 keeps other users from reaching them meanwhile).
 */
import { randomBytes } from "node:crypto";
import { chmod, lstat, mkdir, readdir, realpath, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

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

/** Looks at a data directory without changing anything in it. */
export async function inspectDirectory(path: string): Promise<DirectoryState> {
  let found: import("node:fs").Stats;
  try {
    found = await stat(path);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return { kind: "new" };
    throw error;
  }
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

/** Removes the partial folders a process stopped while making this directory left beside it. */
export async function removePartials(path: string): Promise<void> {
  const pattern = new RegExp(`^${escapeRegExp(basename(path))}\\.partial-[0-9a-f]{12}$`);
  const siblings = await readdir(dirname(path)).catch(() => []);
  for (const name of siblings.filter((sibling) => pattern.test(sibling)))
    await rm(join(dirname(path), name), { recursive: true, force: true });
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
  const partial = `${path}.partial-${randomBytes(6).toString("hex")}`;
  await mkdir(partial, { mode: 0o700 });
  try {
    await make(partial);
    await tighten(partial);
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
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

/** Moves a directory that cannot be opened aside, never deleting it; answers where it went. */
export async function moveAside(path: string): Promise<string> {
  const stamp = new Date().toISOString().slice(0, 19).replaceAll(":", "-");
  for (let n = 1; ; n++) {
    const aside = `${path}.broken-${stamp}Z${n === 1 ? "" : `-${n}`}`;
    if (await exists(aside)) continue;
    await rename(path, aside);
    return aside;
  }
}

/** Makes every folder under `path` (and itself) 0700 and every file 0600, changing only those that differ. */
export async function tighten(path: string): Promise<void> {
  const found = await lstat(path);
  if (found.isDirectory()) {
    if ((found.mode & 0o777) !== 0o700) await chmod(path, 0o700);
    await Promise.all((await readdir(path)).map((entry) => tighten(join(path, entry))));
  } else if (found.isFile() && (found.mode & 0o777) !== 0o600) {
    await chmod(path, 0o600);
  }
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
