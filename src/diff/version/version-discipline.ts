/**
 * `--check-version`: whether package.json's version, and the spec's info.version, grew enough for
 * the changes (this module), by the semver arithmetic of `check-version.ts`.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { createDiagnostic, GenerationFailed } from "../../diagnostics/diagnostic.js";
import type { Comparison } from "../compare-specs.js";
import { bumpOf, maxBump } from "../report/report.js";
import { readGitFile, type SourceArgument } from "../source/sources.js";
import { judgeBump, parseVersion, type Version } from "./check-version.js";

/** The verdict of `--check-version`: whether every bump is enough, and one line per version. */
export interface VersionVerdict {
  readonly ok: boolean;
  readonly lines: readonly string[];
}

/**
 * Compares package.json's version at the base ref and at the head with the advised bump, and the
 * spec's info.version with the bump the HTTP changes alone need (it versions the service, which
 * a change of the package's names does not touch). An info.version that is not a version number
 * is skipped, with a line that says so.
 */
export async function checkVersions(
  base: SourceArgument & { kind: "git" },
  head: SourceArgument,
  comparison: Comparison,
  cwd: string,
): Promise<VersionVerdict> {
  const before = packageVersion(await readGitFile(base.ref, "package.json", cwd), `git:${base.ref}:package.json`);
  const afterText =
    head.kind === "git"
      ? await readGitFile(head.ref, "package.json", cwd)
      : await readWorkingFile(resolve(cwd, "package.json"));
  const after = packageVersion(afterText, head.kind === "git" ? `git:${head.ref}:package.json` : "package.json");
  const changes = comparison.report.changes;
  const httpAdvice = changes
    .filter((change) => change.direction !== "package")
    .map(bumpOf)
    .reduce(maxBump, "none");
  const verdicts = [
    judgeBump("package.json version", before, after, comparison.report.semver),
    ...infoVerdict(comparison, httpAdvice),
  ];
  return { ok: verdicts.every((verdict) => verdict.ok), lines: verdicts.map((verdict) => verdict.line) };
}

function infoVerdict(comparison: Comparison, advice: ReturnType<typeof bumpOf>): { ok: boolean; line: string }[] {
  const [was, is] = [comparison.base.model.source.version, comparison.head.model.source.version];
  const [before, after] = [parseVersion(was, true), parseVersion(is, true)];
  if (before === undefined || after === undefined)
    return [{ ok: true, line: `skipped: info.version "${was}" → "${is}" is not a version number` }];
  return [judgeBump("info.version", before, after, advice, [was, is])];
}

function packageVersion(text: string, file: string): Version {
  let version: unknown;
  try {
    version = (JSON.parse(text) as { version?: unknown }).version;
  } catch {
    version = undefined;
  }
  const parsed = parseVersion(version);
  if (parsed === undefined)
    throw new GenerationFailed([
      createDiagnostic(
        "VERSION_INVALID",
        `the version ${JSON.stringify(version) ?? "(none)"} is not a semver version`,
        { file, pointer: "#/version" },
      ),
    ]);
  return parsed;
}

async function readWorkingFile(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new GenerationFailed([
      createDiagnostic("DIFF_SOURCE_NOT_FOUND", `package.json cannot be read (${(error as Error).message})`, {
        file: path,
        pointer: "",
      }),
    ]);
  }
}
