/**
 * The prepared image of an empty PGlite database. A new PGlite database runs `initdb` (several
 * seconds, and hundreds of MB while it runs); one loaded from the image of a database that already
 * ran it opens in about a second. The first embedded database created on a machine saves its image
 * to a cache (one file per PGlite version); every later one, in memory or in a new data directory,
 * starts from it.
 *
 * The cache is SANDBOX_CACHE_DIR, else node_modules/.cache/workforce-scheduling-api in the working
 * directory when there is a node_modules there, else the user's cache folder (XDG_CACHE_HOME, else
 * ~/.cache), else a folder of this user in the system's temporary directory. The user's own folder
 * comes before the temporary directory because anyone on the machine can create a name in the
 * latter first, and so keep the cache from ever being used there.
 *
 * An image decides the data, keys and schema of every sandbox made from it, so it is only taken from
 * a folder this user owns that no other user can write (the folder is created 0700), below folders
 * no other user can write either (./owners.ts: whoever can write a folder above could swap the
 * cache for one of theirs between the check and the read), and only from what was checked: the
 * file is opened without following a link, and its owner (this user), its mode (no one else may
 * write it) and its bytes (they must match the SHA-256 digest recorded when it was made, which
 * heads the file, written whole, 0600, and moved into place with one rename) are checked on the
 * open descriptor, the bytes it is loaded from. Anything else (a folder of another owner, one
 * others can write, or below one others can write, a file of another user, a missing or wrong
 * digest, a truncated image) is ignored with one warning per process, and the database runs
 * initdb; its new image is saved only in a folder that passes the check. A cache that cannot be
 * read or written only costs time.
 *
 * Processes that start together on a machine without the image (the workers of a test run) do not
 * all run initdb: the first claims the image (a claim file beside it), the others wait for it.
 */
import { createHash } from "node:crypto";
import { existsSync, constants as fs, readFileSync } from "node:fs";
import { type FileHandle, lstat, mkdir, open, rename, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { homedir, tmpdir, userInfo } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { modeText, ownUid, userLabel, whyOthersCanWriteAbove } from "./owners.js";

/** The part of a PGlite instance the image needs. */
interface Dumpable {
  dumpDataDir(compression?: "gzip" | "none" | "auto"): Promise<Blob>;
}

/** The folder the images are kept in. */
export function imageCacheDir(): string {
  const named = process.env.SANDBOX_CACHE_DIR;
  if (named !== undefined && named !== "") return named;
  const local = join(process.cwd(), "node_modules");
  if (existsSync(local)) return join(local, ".cache", "workforce-scheduling-api");
  const xdg = process.env.XDG_CACHE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, "workforce-scheduling-api");
  const home = homeFolder();
  if (home !== undefined) return join(home, ".cache", "workforce-scheduling-api");
  return join(tmpdir(), `workforce-scheduling-api-${userInfo().uid}`);
}

/** The user's home folder, when there is one to write in. */
function homeFolder(): string | undefined {
  const home = homedir();
  return home !== "" && home !== "/" && existsSync(home) ? home : undefined;
}

/**
 * Why the cache folder cannot be trusted with images, or undefined when it can: it must be a folder
 * (not a link), this user's, not writable by the group or others, and every folder above it safe
 * (./owners.ts). Created when missing, 0700.
 */
async function distrust(folder: string): Promise<string | undefined> {
  const above = await whyOthersCanWriteAbove(folder);
  if (above !== undefined) return `the folder above it ${above}`;
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const found = await lstat(folder);
  if (!found.isDirectory()) return "it is not a folder";
  const uid = ownUid();
  if (uid !== undefined && found.uid !== uid) return `it belongs to user ${userLabel(found.uid)}, not to this user`;
  if ((found.mode & 0o022) !== 0) return `other users can write in it (mode ${modeText(found.mode)})`;
  return undefined;
}

/**
 * The image file for the installed PGlite, named by its version (an image fits only the engine that
 * made it) and by how it was made (its log in 1 MB segments: engine.ts's EMBEDDED_INITDB_PARAMS).
 */
function imageFile(): string | undefined {
  const version = pgliteVersion();
  return version === undefined ? undefined : join(imageCacheDir(), `pglite-${version}-wal-1mb.image`);
}

/** The images earlier versions made in the same folder, removed when a new one is saved. */
function earlierImages(file: string): string[] {
  const base = file.replace(/-wal-1mb\.image$/, "");
  return [`${base}.tar`, `${base}.image`];
}

function pgliteVersion(): string | undefined {
  try {
    let dir = dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
    for (let i = 0; i < 4; i++, dir = dirname(dir)) {
      const manifest = join(dir, "package.json");
      if (!existsSync(manifest)) continue;
      const { name, version } = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version?: string };
      if (name === "@electric-sql/pglite" && typeof version === "string") return version;
    }
  } catch {
    // no version: no image
  }
  return undefined;
}

/** The first line of an image file: its digest. The tar of the data directory follows. */
const HEADER = /^workforce-scheduling-api image sha256=([0-9a-f]{64})\n/;

function header(tar: Uint8Array): string {
  return `workforce-scheduling-api image sha256=${createHash("sha256").update(tar).digest("hex")}\n`;
}

/**
 * The cached image: absent, checked (its tar), or why it is not used. The file is opened without
 * following a link, and everything is checked on the open descriptor it is read from. The tar is
 * read once, into a buffer of its own that PGlite is given as it is: a Blob of the bytes, and the
 * copy its `arrayBuffer()` answers, were 40 MB each more, and Node keeps the last answer of a
 * Blob's `arrayBuffer()` alive, so they stayed for as long as the process ran.
 */
async function readImage(file: string): Promise<Blob | { refused: string } | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(file, fs.O_RDONLY | fs.O_NOFOLLOW | fs.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ELOOP" ? { refused: "it is a symbolic link" } : undefined;
  }
  try {
    const found = await handle.stat();
    const uid = ownUid();
    if (!found.isFile()) return { refused: "it is not a file" };
    if (uid !== undefined && found.uid !== uid) return { refused: `it belongs to user ${userLabel(found.uid)}` };
    if ((found.mode & 0o022) !== 0) return { refused: `other users can write it (mode ${modeText(found.mode)})` };
    return await checkedImage(handle, found.size);
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** The tar of an open image when it matches the digest at its head, or why it is not used. */
async function checkedImage(handle: FileHandle, size: number): Promise<Blob | { refused: string }> {
  const start = await readAt(handle, 0, 128).catch(() => new Uint8Array(0));
  const head = HEADER.exec(Buffer.from(start).toString("latin1"));
  if (head === null) return { refused: "it has no recorded digest" };
  const offset = Buffer.byteLength(head[0], "latin1");
  const tar = await readAt(handle, offset, size - offset);
  if (header(tar) !== head[0]) return { refused: "it does not match its recorded digest (changed or cut short)" };
  return new HandedOver(tar.buffer);
}

/** `length` bytes of a file from `position` (fewer at its end), in an ArrayBuffer of their own. */
async function readAt(handle: FileHandle, position: number, length: number): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = new Uint8Array(new ArrayBuffer(Math.max(0, length)));
  let at = 0;
  while (at < bytes.length) {
    const { bytesRead } = await handle.read(bytes, at, bytes.length - at, position + at);
    if (bytesRead === 0) break;
    at += bytesRead;
  }
  return at === bytes.length ? bytes : bytes.slice(0, at);
}

/**
 * A Blob whose `arrayBuffer()` answers the buffer it was made with, once, without a copy: what
 * PGlite reads an image from (it asks for the bytes once, and then holds them as its files).
 */
class HandedOver extends Blob {
  #bytes: ArrayBuffer | undefined;

  constructor(bytes: ArrayBuffer) {
    super([], { type: "application/x-tar" });
    this.#bytes = bytes;
  }

  override get size(): number {
    return this.#bytes?.byteLength ?? 0;
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#bytes;
    this.#bytes = undefined;
    if (bytes === undefined) throw new Error("the sandbox's image was read already");
    return bytes;
  }
}

const WARNED = Symbol.for("workforce-scheduling-api/sandbox/image-warned");

/** Says once in a process that an image cache is not used, and why. */
function warnOnce(message: string): void {
  const global = globalThis as { [WARNED]?: boolean };
  if (global[WARNED] === true) return;
  global[WARNED] = true;
  process.emitWarning(`${message}; the database is made with initdb instead (a few seconds more)`, {
    type: "SandboxWarning",
    code: "SANDBOX_IMAGE_NOT_TRUSTED",
  });
}

/** The duty of the process that makes the image: save it (or give up), which ends the claim. */
export interface ImageClaim {
  save(pglite: Dumpable): Promise<void>;
  release(): Promise<void>;
}

/** How long a process waits for another to make the image, and when a claim counts as abandoned. */
const WAIT_MS = 60_000;
const POLL_MS = 200;

/**
 * The cached image, or the claim to make it: when there is no image and no other process is making
 * it, this one claims it (and must `save` or `release`); when one is, this waits for its image. A
 * claim older than a minute is taken as abandoned (its process died).
 */
export async function loadImage(): Promise<Blob | ImageClaim> {
  const file = imageFile();
  if (file === undefined) return UNCLAIMED;
  const folder = dirname(file);
  const untrusted = await distrust(folder).catch((error: Error) => `it cannot be used (${error.message})`);
  if (untrusted !== undefined) {
    warnOnce(`the sandbox's image cache ${folder} is not used: ${untrusted}`);
    return UNCLAIMED;
  }
  const claim = `${file}.claim`;
  for (const deadline = Date.now() + WAIT_MS; Date.now() < deadline; await delay(POLL_MS)) {
    const image = await readImage(file);
    if (image instanceof Blob) return image;
    // an image refused is made again (its maker replaces it); one another process is saving is waited for
    if (await claimFile(claim)) {
      if (image !== undefined) warnOnce(`the sandbox's image ${file} is not used: ${image.refused}`);
      return claimed(file, claim);
    }
    const since = await stat(claim).then(
      (found) => found.mtimeMs,
      () => Date.now(),
    );
    if (Date.now() - since > WAIT_MS) await rm(claim, { force: true });
  }
  return UNCLAIMED;
}

async function claimFile(claim: string): Promise<boolean> {
  try {
    await (await open(claim, "wx", 0o600)).close();
    return true;
  } catch {
    return false;
  }
}

/** A claim on nothing: the image is made but not saved (no cache, or the wait ran out). */
const UNCLAIMED: ImageClaim = { save: async () => undefined, release: async () => undefined };

function claimed(file: string, claim: string): ImageClaim {
  const release = (): Promise<void> => rm(claim, { force: true });
  return {
    release,
    /** Saves the image of a database that has just been created (before anything is written to it). */
    save: async (pglite) => {
      try {
        // uncompressed (about 40 MB): loading it skips the unzip, a sixth of the time a start takes
        const tar = Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer());
        await writeWhole(file, [Buffer.from(header(tar), "latin1"), tar]);
        for (const earlier of earlierImages(file)) await rm(earlier, { force: true });
      } catch {
        // a cache that cannot be written costs only time
      } finally {
        await release();
      }
    },
  };
}

/** Writes a file 0600 under a name of its own, then moves it into place with one rename. */
async function writeWhole(file: string, parts: readonly Buffer[]): Promise<void> {
  const partial = `${file}.${process.pid}.partial`;
  const handle = await open(partial, "w", 0o600);
  try {
    for (const part of parts) await handle.write(part);
  } finally {
    await handle.close();
  }
  await rename(partial, file);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
