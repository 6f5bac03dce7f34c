import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { createDiagnostic, GenerationFailed } from "../diagnostics/diagnostic.js";
import type { GeneratedFile } from "../emit/emitter.js";

/**
 * Writes the output folder atomically: every file goes into a new sibling folder first, which
 * then takes the place of the old one. A failure at any point leaves the previous output as it
 * was; files the generator no longer writes disappear with the old folder.
 */
export async function writeOutput(outDir: string, files: readonly GeneratedFile[]): Promise<void> {
  const parent = dirname(outDir);
  const suffix = randomBytes(4).toString("hex");
  const staging = join(parent, `.${basename(outDir)}.new-${suffix}`);
  const retired = join(parent, `.${basename(outDir)}.old-${suffix}`);
  try {
    await mkdir(parent, { recursive: true });
    await writeAll(staging, files);
    await swap(outDir, staging, retired);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    const reason = (error as Error).message;
    throw new GenerationFailed([createDiagnostic("OUTPUT_FAILED", `cannot write ${outDir}: ${reason}`)]);
  }
  await rm(retired, { recursive: true, force: true });
}

async function writeAll(root: string, files: readonly GeneratedFile[]): Promise<void> {
  await mkdir(root, { recursive: false });
  const folders = new Set(files.map((file) => dirname(join(root, file.path))));
  for (const folder of [...folders].sort()) await mkdir(folder, { recursive: true });
  await Promise.all(files.map((file) => writeFile(join(root, file.path), file.content)));
}

async function swap(outDir: string, staging: string, retired: string): Promise<void> {
  const hadOutput = await rename(outDir, retired).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return false;
      throw error;
    },
  );
  try {
    await rename(staging, outDir);
  } catch (error) {
    if (hadOutput) await rename(retired, outDir);
    throw error;
  }
}
