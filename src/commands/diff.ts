import { parseArgs } from "node:util";
import { GenerationFailed } from "../diagnostics/diagnostic.js";
import { formatDiagnostic, sortDiagnostics } from "../diagnostics/format.js";
import { DEFAULT_ACCEPTED_FILE } from "../diff/report/accepted.js";
import { type DiffOptions, runDiff } from "../diff/run-diff.js";
import { usageFailure } from "../diff/source/failures.js";
import type { CommandIo } from "./command.js";

export const USAGE = `Usage: npm run spec:diff -- [<base>] [<head>] [options]

  <base>, <head>         a spec file, git:<ref> (spec/openapi.yaml at that ref) or git:<ref>:<path>
                         (default: git:HEAD against the working spec/openapi.yaml; one argument is the base)
  --format FORMAT        markdown (default, a pull-request comment), json, or github (workflow annotations)
  --fail-on LEVEL        exit 1 when an unaccepted change is "breaking", or "warning" or worse
  --accepted FILE        the accepted breaking changes (default: ${DEFAULT_ACCEPTED_FILE})
  --check-version BASE   compare BASE (a git:<ref>) with <head> and fail when package.json's version
                         (and the spec's info.version) grew less than the changes need
  --help                 show this text

Exit codes: 0 no threshold reached, 1 a --fail-on threshold reached or a version bump too small,
2 an input that cannot be read or compared (reported as file:line:col, code, hint).`;

/** `npm run spec:diff`: runs the comparison with command-line arguments; returns the exit code. */
export async function runDiffCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    const options = parseDiffArguments(argv);
    if (options === "help") {
      io.out(`${USAGE}\n`);
      return 0;
    }
    const outcome = await runDiff(options, io.cwd);
    io.out(outcome.output);
    for (const line of outcome.versionLines) io.err(`${line}\n`);
    return outcome.exitCode;
  } catch (error) {
    if (!(error instanceof GenerationFailed)) throw error;
    for (const diagnostic of sortDiagnostics(error.diagnostics)) io.err(`${formatDiagnostic(diagnostic, io.cwd)}\n`);
    io.err(`spec:diff could not compare: ${error.diagnostics.length} error(s).\n`);
    return 2;
  }
}

/** The options, or "help". Throws GenerationFailed (DIFF_USAGE) for anything it does not know. */
export function parseDiffArguments(argv: readonly string[]): DiffOptions | "help" {
  const { values, positionals } = parseStrictly(argv);
  if (values.help === true) return "help";
  const format = values.format ?? "markdown";
  if (format !== "markdown" && format !== "json" && format !== "github")
    throw usageFailure(`--format must be markdown, json or github, not "${format}"`);
  const failOn = values["fail-on"];
  if (failOn !== undefined && failOn !== "breaking" && failOn !== "warning")
    throw usageFailure(`--fail-on must be breaking or warning, not "${failOn}"`);
  const checkVersion = values["check-version"];
  if (positionals.length > (checkVersion === undefined ? 2 : 1))
    throw usageFailure(`too many arguments: ${positionals.join(" ")}`);
  const [first, second] = positionals;
  const head = checkVersion === undefined ? second : first;
  return {
    base: checkVersion ?? first ?? "git:HEAD",
    ...(head !== undefined ? { head } : {}),
    format,
    ...(failOn !== undefined ? { failOn } : {}),
    accepted: values.accepted ?? DEFAULT_ACCEPTED_FILE,
    checkVersion: checkVersion !== undefined,
  };
}

function parseStrictly(argv: readonly string[]): ReturnType<typeof parseOptions> {
  try {
    return parseOptions(argv);
  } catch (error) {
    throw usageFailure((error as Error).message);
  }
}

function parseOptions(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: true,
    options: {
      format: { type: "string" },
      "fail-on": { type: "string" },
      accepted: { type: "string" },
      "check-version": { type: "string" },
      help: { type: "boolean" },
    },
  });
}
