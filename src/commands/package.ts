import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { GenerationFailed } from "../diagnostics/diagnostic.js";
import { formatDiagnostic } from "../diagnostics/format.js";
import { buildPackage } from "../release/package.js";
import type { CommandIo } from "./command.js";

export const PACKAGE_USAGE = `Usage: npm run package -- [--pack-destination DIR]

Builds the package and packs it, as a release publishes it, at package.json's version, into a
tarball to install from the file (npm install path/to/it.tgz). Publishes nothing.

  --pack-destination DIR   where the tarball goes (default: the current folder)
  --help                   show this text`;

/** `npm run package`: builds and packs the package; returns the exit code. */
export async function runPackageCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  let values: { "pack-destination"?: string; help?: boolean };
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      options: { "pack-destination": { type: "string" }, help: { type: "boolean" } },
    }).values;
  } catch (error) {
    io.err(`error ${(error as Error).message}\n\n${PACKAGE_USAGE}\n`);
    return 2;
  }
  if (values.help === true) {
    io.out(`${PACKAGE_USAGE}\n`);
    return 0;
  }
  const manifest = JSON.parse(await readFile(join(io.cwd, "package.json"), "utf8")) as { version?: unknown };
  const scratch = await mkdtemp(join(tmpdir(), "package-"));
  try {
    const destination = resolve(io.cwd, values["pack-destination"] ?? ".");
    await mkdir(destination, { recursive: true });
    const packed = await buildPackage(
      { root: io.cwd, scratch, destination, version: String(manifest.version) },
      { cwd: io.cwd },
    );
    io.out(`${relative(io.cwd, packed.tarball) || packed.tarball}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof GenerationFailed)) throw error;
    for (const diagnostic of error.diagnostics) io.err(`${formatDiagnostic(diagnostic, io.cwd)}\n`);
    return 1;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
