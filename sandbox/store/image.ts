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
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
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
export async function loadImage(): Promise<Blob | undefined> {
  const file = imageFile();
  if (file === undefined) return undefined;
  try {
    return new Blob([await readFile(file)]);
  } catch {
    return undefined;
  }
}

/** Saves the image of a database that has just been created (before anything is written to it). */
export async function saveImage(pglite: Dumpable): Promise<void> {
  const file = imageFile();
  if (file === undefined) return;
  try {
    // uncompressed (about 40 MB): loading it skips the unzip, a sixth of the time a start takes
    const image = Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer());
    await mkdir(dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, image);
    await rename(partial, file);
  } catch {
    // a cache that cannot be written costs only time
  }
}
