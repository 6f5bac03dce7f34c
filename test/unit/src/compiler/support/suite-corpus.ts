import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { corpusAbsentMessage, corpusAvailable, corpusDir, repoRoot } from "../../../../support/paths.js";

/** Repository root. */
export const REPO_ROOT = repoRoot;

/** The shared third-party corpus; override with CORPUS_DIR (relative paths are taken from the repo root). */
export const CORPUS_DIR = corpusDir;

const SUITE_ROOT = join(CORPUS_DIR, "json-schema-test-suite");
const SUITE_DIR = join(SUITE_ROOT, "draft2020-12");
const REMOTES_DIR = join(SUITE_ROOT, "remotes");

/** Message for skipped tests when the corpus is missing. */
export const CORPUS_ABSENT = corpusAbsentMessage;

/** The optional files that belong to the selection (format assertions and ECMA-262 regex semantics). */
const OPTIONAL_FILES = [
  "optional/format/date.json",
  "optional/format/date-time.json",
  "optional/format/time.json",
  "optional/format/email.json",
  "optional/format/uuid.json",
  "optional/format/uri.json",
  "optional/format/ipv4.json",
  "optional/format/ipv6.json",
  "optional/format/hostname.json",
  "optional/ecmascript-regex.json",
  "optional/non-bmp-regex.json",
];

/** A JSON Schema feature the compiler does not implement, and why a group needs it. */
export interface Unsupported {
  /** the feature, as docs/generator.md lists it */
  readonly feature: string;
  readonly reason: string;
}

/**
 * Groups whose cases need features this compiler does not implement, by "file: group
 * description", reported as not supported with the reason (docs/generator.md lists them beside the
 * suite's figures). None today: every group of the selection runs.
 */
export const UNSUPPORTED_GROUPS: Readonly<Record<string, Unsupported>> = {};

/** One test case of the suite. */
export interface SuiteCase {
  readonly description: string;
  readonly data: unknown;
  readonly valid: boolean;
}

/** One group: a schema and its cases. */
export interface SuiteGroup {
  readonly file: string;
  readonly index: number;
  readonly description: string;
  readonly schema: unknown;
  readonly tests: readonly SuiteCase[];
  /** set when the group needs a feature the compiler does not implement */
  readonly unsupported: Unsupported | undefined;
}

/** True when the suite folder exists (missing, CI fails: see corpusAvailable). */
export function suiteAvailable(tests: string): boolean {
  return corpusAvailable(tests) && existsSync(SUITE_DIR);
}

/** Selected files, in a stable order. */
export function selectedFiles(): string[] {
  const top = readdirSync(SUITE_DIR)
    .filter((name) => name.endsWith(".json"))
    .sort();
  return [...top, ...OPTIONAL_FILES];
}

/** The groups of one selected file. */
export function loadGroups(file: string): SuiteGroup[] {
  const raw = JSON.parse(readFileSync(join(SUITE_DIR, file), "utf8")) as {
    description: string;
    schema: unknown;
    tests: SuiteCase[];
  }[];
  return raw.map((group, index) => ({
    file,
    index,
    description: group.description,
    schema: group.schema,
    tests: group.tests,
    unsupported: UNSUPPORTED_GROUPS[`${file}: ${group.description}`],
  }));
}

/** Remote documents by the URI the suite uses for them (http://localhost:1234/...). */
export function loadRemotes(): Record<string, unknown> {
  const remotes: Record<string, unknown> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".json"))
        remotes[`http://localhost:1234/${relative(REMOTES_DIR, path).split("\\").join("/")}`] = JSON.parse(
          readFileSync(path, "utf8"),
        );
    }
  };
  walk(REMOTES_DIR);
  return remotes;
}

/** Files whose cases expect `format` to be an annotation only (the 2020-12 default). */
export const ANNOTATION_FORMAT_FILES: ReadonlySet<string> = new Set(["format.json"]);

/** The URI a group's schema is registered under (its retrieval URI). */
export function groupUri(group: SuiteGroup): string {
  return `https://suite.invalid/${group.file.replace(/\.json$/, "")}/${group.index}.json`;
}
