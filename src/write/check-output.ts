import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { GeneratedFile } from "../emit/emitter.js";

/** How the output folder differs from what the generator would write. */
export interface OutputDrift {
  /** files whose content differs */
  readonly changed: readonly string[];
  /** files the generator writes that are not on disk */
  readonly missing: readonly string[];
  /** files on disk the generator no longer writes */
  readonly stale: readonly string[];
}

export function isInSync(drift: OutputDrift): boolean {
  return drift.changed.length === 0 && drift.missing.length === 0 && drift.stale.length === 0;
}

/** Compares the output folder with the generated files; writes nothing. */
export async function checkOutput(outDir: string, files: readonly GeneratedFile[]): Promise<OutputDrift> {
  const onDisk = new Set(await listFiles(outDir));
  const changed: string[] = [];
  const missing: string[] = [];
  await Promise.all(
    files.map(async (file) => {
      if (!onDisk.has(file.path)) {
        missing.push(file.path);
        return;
      }
      onDisk.delete(file.path);
      if ((await readFile(join(outDir, file.path), "utf8")) !== file.content) changed.push(file.path);
    }),
  );
  return { changed: changed.sort(), missing: missing.sort(), stale: [...onDisk].sort() };
}

async function listFiles(root: string): Promise<string[]> {
  try {
    const entries = await readdir(root, { withFileTypes: true, recursive: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join("/"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}
