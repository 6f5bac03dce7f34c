/**
 * Folders walked through their descriptors, for the sandbox's housekeeping (removing what a stopped
 * process left, tightening modes). A folder is opened without following a link (`O_NOFOLLOW`), its
 * owner and type are checked on the open descriptor, and its entries are reached through that
 * descriptor, never through a path: on Linux as `/proc/self/fd/<n>/<name>`, which the kernel
 * resolves to the folder held open, whatever has been renamed or swapped for a link on the way to
 * it since. An entry is removed with `unlink` or `rmdir`, which never follow a link, and a folder in
 * it is entered only by opening it the same way; so a link planted anywhere in the tree is removed
 * as a link, and nothing outside the tree is ever reached.
 *
 * Where there is no /proc (other systems, a container without it), the entries are reached by their
 * paths below the folder opened, which its owner check makes safe for the folders the sandbox makes
 * itself: they are 0700, and no other user can rename or create anything in them.
 */
import { type Dirent, existsSync, constants as fs } from "node:fs";
import { type FileHandle, lstat, open, readdir, rmdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { ownUid } from "./owners.js";

/** How folders are opened: for reading their entries, never through a link, never blocking. */
const FOLDER_FLAGS = fs.O_RDONLY | fs.O_DIRECTORY | fs.O_NOFOLLOW | fs.O_NONBLOCK;
/** How a file is opened to change its mode: never through a link, never blocking (a FIFO). */
const FILE_FLAGS = fs.O_RDONLY | fs.O_NOFOLLOW | fs.O_NONBLOCK;

/** Whether entries can be reached through a descriptor's path under /proc/self/fd. */
const THROUGH_PROC = process.platform === "linux" && existsSync("/proc/self/fd");

/** The errors of opening what is not of the kind asked for (a file as a folder, a link, a socket), or is gone. */
const PASSED_OVER = new Set(["ENOTDIR", "ELOOP", "ENOENT", "ENXIO"]);

/** A folder held open by its descriptor: who owns it, and its entries reached through it. */
export class OpenFolder {
  readonly #handle: FileHandle;
  readonly #path: string;
  /** the owner of the folder opened */
  readonly uid: number;
  /** its mode bits */
  readonly mode: number;

  private constructor(handle: FileHandle, path: string, uid: number, mode: number) {
    this.#handle = handle;
    this.#path = path;
    this.uid = uid;
    this.mode = mode;
  }

  /** Opens the folder at `path` (not a link to one); throws ENOTDIR or ELOOP for anything else. */
  static async open(path: string): Promise<OpenFolder> {
    const handle = await open(path, FOLDER_FLAGS);
    try {
      const found = await handle.stat();
      return new OpenFolder(handle, path, found.uid, found.mode);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Whether this user owns the folder (always, where there are no user ids). */
  get mine(): boolean {
    const uid = ownUid();
    return uid === undefined || this.uid === uid;
  }

  /** The path of an entry, reached through the descriptor. */
  entry(name: string): string {
    return THROUGH_PROC ? `/proc/self/fd/${this.#handle.fd}/${name}` : join(this.#path, name);
  }

  /** The entries, with their types as the folder records them. */
  entries(): Promise<Dirent[]> {
    return readdir(THROUGH_PROC ? `/proc/self/fd/${this.#handle.fd}` : this.#path, { withFileTypes: true });
  }

  /** The folder `name` in this one, opened; undefined when it is not a folder (a file, a link) or gone. */
  async child(name: string): Promise<OpenFolder | undefined> {
    try {
      return await OpenFolder.open(this.entry(name));
    } catch (error) {
      if (PASSED_OVER.has(codeOf(error))) return undefined;
      throw error;
    }
  }

  /** Sets the folder's own mode, on its descriptor. */
  chmod(mode: number): Promise<void> {
    return this.#handle.chmod(mode);
  }

  close(): Promise<void> {
    return this.#handle.close();
  }
}

/** Runs `use` with the folder at `path` open, and closes it. */
export async function withFolder<T>(path: string, use: (folder: OpenFolder) => Promise<T>): Promise<T> {
  const folder = await OpenFolder.open(path);
  try {
    return await use(folder);
  } finally {
    await folder.close();
  }
}

/**
 * Removes the folder `name` of `parent` and everything in it, through descriptors, when this user
 * owns it; a folder of another user is left as it is, and its owner's id answered. Nothing happens
 * when `name` is not a folder (or is gone).
 */
export async function removeOwnFolder(parent: OpenFolder, name: string): Promise<{ foreign: number } | undefined> {
  const folder = await parent.child(name);
  if (folder === undefined) return undefined;
  try {
    if (!folder.mine) return { foreign: folder.uid };
    await empty(folder);
  } finally {
    await folder.close();
  }
  await rmdir(parent.entry(name)).catch(ignoreMissing);
  return undefined;
}

/** Removes every entry of a folder held open: links and files unlinked, folders emptied the same way and removed. */
async function empty(folder: OpenFolder): Promise<void> {
  for (const entry of await folder.entries()) {
    const child = entry.isDirectory() ? await folder.child(entry.name) : undefined;
    if (child === undefined) {
      await unlink(folder.entry(entry.name)).catch(ignoreMissing);
      continue;
    }
    try {
      await empty(child);
    } finally {
      await child.close();
    }
    await rmdir(folder.entry(entry.name)).catch(ignoreMissing);
  }
}

/** How many files have their modes changed at once (each holds a descriptor meanwhile). */
const FILES_AT_ONCE = 64;

/**
 * Makes the folder at `path` and every folder in it 0700 and every file 0600, through descriptors,
 * changing only what differs: only what this user owns, never through a link, and a file only when
 * it has no other name (a hard link elsewhere is not the sandbox's to change).
 */
export function tightenTree(path: string): Promise<void> {
  return withFolder(path, tightenOpen);
}

async function tightenOpen(folder: OpenFolder): Promise<void> {
  if (folder.mine && (folder.mode & 0o777) !== 0o700) await folder.chmod(0o700);
  const entries = await folder.entries();
  const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => tightenChild(folder, entry.name));
  const files = entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
  const loose = (await Promise.all(files.map((name) => looseFile(folder, name)))).filter(
    (found) => found !== undefined,
  );
  for (let at = 0; at < loose.length; at += FILES_AT_ONCE)
    await Promise.all(loose.slice(at, at + FILES_AT_ONCE).map((found) => tightenFile(folder, found)));
  await Promise.all(folders);
}

/** Tightens the folder `name` of `folder`, opened without following a link (a link is left as it is). */
async function tightenChild(folder: OpenFolder, name: string): Promise<void> {
  const child = await folder.child(name);
  if (child === undefined) return;
  try {
    await tightenOpen(child);
  } finally {
    await child.close();
  }
}

/** A file of `folder` whose mode is to be tightened: this user's, with no other name, not 0600. */
interface LooseFile {
  readonly name: string;
  readonly dev: bigint;
  readonly ino: bigint;
}

/** The file `name` when it is one of this user's with no other name whose mode is not 0600. */
async function looseFile(folder: OpenFolder, name: string): Promise<LooseFile | undefined> {
  const uid = ownUid();
  const seen = await lstat(folder.entry(name), { bigint: true }).catch(() => undefined);
  if (seen === undefined || !seen.isFile() || (Number(seen.mode) & 0o777) === 0o600 || seen.nlink !== 1n)
    return undefined;
  if (uid !== undefined && seen.uid !== BigInt(uid)) return undefined;
  return { name, dev: seen.dev, ino: seen.ino };
}

/** Makes one file 0600 on its own descriptor, when it is still the file looked at. */
async function tightenFile(folder: OpenFolder, found: LooseFile): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(folder.entry(found.name), FILE_FLAGS);
  } catch (error) {
    if (PASSED_OVER.has(codeOf(error))) return;
    throw error;
  }
  try {
    const now = await handle.stat({ bigint: true });
    if (now.isFile() && now.dev === found.dev && now.ino === found.ino && now.nlink === 1n) await handle.chmod(0o600);
  } finally {
    await handle.close();
  }
}

function codeOf(error: unknown): string {
  return String((error as NodeJS.ErrnoException | undefined)?.code ?? "");
}

function ignoreMissing(error: unknown): void {
  if (codeOf(error) !== "ENOENT") throw error;
}
