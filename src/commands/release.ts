import { parseArgs } from "node:util";
import { createDiagnostic, GenerationFailed } from "../diagnostics/diagnostic.js";
import { formatDiagnostic, sortDiagnostics } from "../diagnostics/format.js";
import { DEFAULT_ACCEPTED_FILE } from "../diff/report/accepted.js";
import { DEFAULT_SPEC } from "../diff/source/sources.js";
import { type ReleaseOptions, runRelease } from "../release/release.js";
import type { CommandIo } from "./command.js";

export const RELEASE_USAGE = `Usage: npm run release -- [options]

Compares the spec with the contract of the version the registry calls latest, takes the version
spec:diff advises for the changes (or --version), writes the changelog section, builds and
publishes the package, then writes the version to package.json and package-lock.json and the
section to CHANGELOG.md. With nothing published yet, it is the first release.

  --dry-run            show the plan, build and pack the package, let npm check the publish;
                       publish nothing and write no file
  --version X.Y.Z      release this version, at least the advised one (the first release:
                       instead of package.json's version)
  --registry URL       the registry (default: package.json's publishConfig.registry, else npm's
                       registry setting)
  --accepted FILE      the accepted breaking changes (default: ${DEFAULT_ACCEPTED_FILE})
  --help               show this text

Exit codes: 0 released (or the dry run went through), 1 the release was refused or failed
(nothing published, no file changed), 2 arguments that cannot be understood.`;

/** `npm run release`: runs a release with command-line arguments; returns the exit code. */
export async function runReleaseCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  let options: ReleaseOptions | "help";
  try {
    options = parseReleaseArguments(argv);
  } catch (error) {
    return report(error, io, 2);
  }
  if (options === "help") {
    io.out(`${RELEASE_USAGE}\n`);
    return 0;
  }
  try {
    await runRelease(options, { cwd: io.cwd, out: io.out });
    return 0;
  } catch (error) {
    return report(error, io, 1);
  }
}

/** The options, or "help". Throws GenerationFailed (RELEASE_USAGE) for anything it does not know. */
export function parseReleaseArguments(argv: readonly string[]): ReleaseOptions | "help" {
  let values: ReturnType<typeof parseOptions>["values"];
  try {
    values = parseOptions(argv).values;
  } catch (error) {
    throw new GenerationFailed([createDiagnostic("RELEASE_USAGE", (error as Error).message)]);
  }
  if (values.help === true) return "help";
  return {
    dryRun: values["dry-run"] === true,
    ...(values.version === undefined ? {} : { version: values.version }),
    ...(values.registry === undefined ? {} : { registry: values.registry }),
    spec: DEFAULT_SPEC,
    accepted: values.accepted ?? DEFAULT_ACCEPTED_FILE,
  };
}

function parseOptions(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      "dry-run": { type: "boolean" },
      version: { type: "string" },
      registry: { type: "string" },
      accepted: { type: "string" },
      help: { type: "boolean" },
    },
  });
}

function report(error: unknown, io: CommandIo, code: number): number {
  if (!(error instanceof GenerationFailed)) throw error;
  for (const diagnostic of sortDiagnostics(error.diagnostics)) io.err(`${formatDiagnostic(diagnostic, io.cwd)}\n`);
  io.err(`release: nothing was published and no file was changed.\n`);
  return code;
}
