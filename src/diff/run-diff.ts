import { relative, resolve, sep } from "node:path";
import { compareSpecs } from "./compare-specs.js";
import { formatGithub } from "./format/github.js";
import { formatMarkdown } from "./format/markdown.js";
import { readAcceptedChanges } from "./report/accepted.js";
import { reachesThreshold } from "./report/report.js";
import type { DiffReport } from "./report/types.js";
import { settleAll, usageFailure } from "./source/failures.js";
import type { SpecSource } from "./source/load-side.js";
import { DEFAULT_SPEC, parseSourceArgument, readSource, type SourceArgument } from "./source/sources.js";
import { checkVersions } from "./version/version-discipline.js";

/** The command's options, as parsed from its arguments. */
export interface DiffOptions {
  /** a file, git:<ref> or git:<ref>:<path> */
  readonly base: string;
  /** the same; the working spec/openapi.yaml when absent */
  readonly head?: string;
  readonly format: "markdown" | "json" | "github";
  readonly failOn?: "breaking" | "warning";
  /** the accepted-changes file */
  readonly accepted: string;
  /** also check package.json's version (and info.version) against the advice */
  readonly checkVersion: boolean;
}

/** What a run prints and returns. */
export interface DiffOutcome {
  readonly report: DiffReport;
  readonly output: string;
  readonly versionLines: readonly string[];
  readonly exitCode: number;
}

/** Reads both sides and the accepted changes, compares, formats; checks versions when asked. */
export async function runDiff(options: DiffOptions, cwd: string): Promise<DiffOutcome> {
  const base = parseSourceArgument(options.base);
  const head =
    options.head === undefined ? { kind: "file" as const, path: DEFAULT_SPEC } : parseSourceArgument(options.head);
  if (options.checkVersion && base.kind !== "git")
    throw usageFailure(
      `--check-version needs a git:<ref> base (package.json is read at that ref), not "${options.base}"`,
    );
  const [sources, accepted] = await Promise.all([
    readBoth(base, head, cwd),
    readAcceptedChanges(resolve(cwd, options.accepted)),
  ]);
  const [before, after] = sources as [SpecSource, SpecSource];
  const comparison = await compareSpecs(before, after, { accepted, acceptedFile: displayPath(cwd, options.accepted) });
  const versions =
    options.checkVersion && base.kind === "git"
      ? await checkVersions(base, head, comparison, cwd)
      : { ok: true, lines: [] };
  const failing =
    options.failOn !== undefined &&
    comparison.report.changes.some((change) => reachesThreshold(change, options.failOn ?? "breaking"));
  return {
    report: comparison.report,
    output: formatReport(comparison.report, options.format),
    versionLines: versions.lines,
    exitCode: failing || !versions.ok ? 1 : 0,
  };
}

/** The report in one of the output formats. */
export function formatReport(report: DiffReport, format: DiffOptions["format"]): string {
  if (format === "json") return `${JSON.stringify(report, null, 2)}\n`;
  return format === "github" ? formatGithub(report) : formatMarkdown(report);
}

async function readBoth(base: SourceArgument, head: SourceArgument, cwd: string): Promise<SpecSource[]> {
  return settleAll([readSource(base, cwd), readSource(head, cwd)]);
}

function displayPath(cwd: string, path: string): string {
  return relative(cwd, resolve(cwd, path)).split(sep).join("/") || path;
}
