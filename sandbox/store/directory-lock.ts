/**
 * One process per PGlite data directory. PGlite takes no lock of its own, and two processes
 * writing one directory leave it unreadable, so the sandbox holds a lock file beside the directory
 * (`<dir>.lock`, created exclusively, holding the owner's process id and host) for as long as the
 * database is open. A second process is refused with a message naming the owner. A lock left by a
 * process that no longer runs on this host (killed, say) is taken over.
 */
import { mkdir, open, readdir, readFile, rm } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname, resolve } from "node:path";

/** A held lock: whether the directory was new (absent or empty) when taken, and how to let it go. */
export interface DirectoryLock {
  readonly fresh: boolean;
  release(): Promise<void>;
}

interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
}

/** Takes the lock of a data directory, or throws saying which process holds it. */
export async function lockDirectory(path: string): Promise<DirectoryLock> {
  const directory = resolve(path);
  await mkdir(dirname(directory), { recursive: true });
  const file = `${directory}.lock`;
  const me: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  if (!(await create(file, me))) {
    const owner = await readOwner(file);
    if (owner !== undefined && !abandoned(owner)) throw inUse(directory, file, owner);
    await rm(file, { force: true });
    if (!(await create(file, me))) throw inUse(directory, file, await readOwner(file));
  }
  return {
    fresh: await isEmpty(directory),
    release: async () => {
      const owner = await readOwner(file);
      if (owner?.pid === me.pid && owner.host === me.host) await rm(file, { force: true });
    },
  };
}

async function create(file: string, owner: LockOwner): Promise<boolean> {
  try {
    const handle = await open(file, "wx");
    await handle.writeFile(`${JSON.stringify(owner)}\n`);
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

async function readOwner(file: string): Promise<LockOwner | undefined> {
  try {
    const owner = JSON.parse(await readFile(file, "utf8")) as Partial<LockOwner>;
    return typeof owner.pid === "number" && typeof owner.host === "string"
      ? { pid: owner.pid, host: owner.host, since: String(owner.since ?? "") }
      : undefined;
  } catch {
    return undefined;
  }
}

/** A lock whose process is gone (only decidable on this host). An unreadable lock counts as abandoned. */
function abandoned(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return false;
  if (owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

function inUse(directory: string, file: string, owner: LockOwner | undefined): Error {
  const who =
    owner === undefined
      ? "another process"
      : owner.pid === process.pid
        ? "this process (another sandbox)"
        : `process ${owner.pid} on ${owner.host} (since ${owner.since})`;
  return new Error(
    `the data directory ${directory} is in use by ${who}: one process at a time may open it. Stop that one, or give this one another directory (DATA_DIR); if no process holds it, remove ${file}.`,
  );
}

async function isEmpty(directory: string): Promise<boolean> {
  try {
    return (await readdir(directory)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
}
