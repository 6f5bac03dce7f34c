/**
 * The prepared image of an empty PGlite database. A new PGlite database runs `initdb` (several
 * seconds, and hundreds of MB while it runs); one loaded from the image of a database that already
 * ran it opens in about a second. The first embedded database created on a machine saves its image
 * to a cache (one file per PGlite version); every later one, in memory or in a new data directory,
 * starts from it.
 *
 * The cache is SANDBOX_CACHE_DIR, else node_modules/.cache/workforce-scheduling-api in the working
 * directory when there is a node_modules there, else a folder of this user in the system's temporary
 * directory. A cache that cannot be read or written only costs time: the database runs initdb.
 *
 * Processes that start together on a machine without the image (the workers of a test run) do not
 * all run initdb: the first claims the image (a claim file beside it), the others wait for it.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir, userInfo } from "node:os";
import { dirname, join } from "node:path";

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
  return join(tmpdir(), `workforce-scheduling-api-${userInfo().uid}`);
}

/** The image file for the installed PGlite, named by its version (an image fits only the engine that made it). */
function imageFile(): string | undefined {
  const version = pgliteVersion();
  return version === undefined ? undefined : join(imageCacheDir(), `pglite-${version}.tar`);
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

/** The cached image, when there is one. */
async function readImage(file: string): Promise<Blob | undefined> {
  try {
    return new Blob([await readFile(file)]);
  } catch {
    return undefined;
  }
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
  const claim = `${file}.claim`;
  for (const deadline = Date.now() + WAIT_MS; Date.now() < deadline; await delay(POLL_MS)) {
    const image = await readImage(file);
    if (image !== undefined) return image;
    if (await claimFile(claim)) return claimed(file, claim);
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
    await mkdir(dirname(claim), { recursive: true });
    await (await open(claim, "wx")).close();
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
        const image = Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer());
        const partial = `${file}.${process.pid}.partial`;
        await writeFile(partial, image);
        await rename(partial, file);
      } catch {
        // a cache that cannot be written costs only time
      } finally {
        await release();
      }
    },
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
