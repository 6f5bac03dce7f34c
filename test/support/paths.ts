import { existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { requireInCi } from "./required.js";

/** The repository root. */
export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The shared third-party corpus (OpenAPI documents, JSON Schema Test Suite), when present.
 * CORPUS_DIR=none leaves it out on purpose (npm run test:quick), in CI too (a fork's CI has no
 * corpus); a corpus that is merely missing fails CI, so it cannot drop out unnoticed.
 */
const corpusOff = process.env.CORPUS_DIR === "none";
const corpusSetting =
  process.env.CORPUS_DIR === undefined || process.env.CORPUS_DIR === "" ? "../shared/corpus" : process.env.CORPUS_DIR;
export const corpusDir = resolve(repoRoot, corpusSetting);
export const corpusPresent =
  !corpusOff && existsSync(join(corpusDir, "openapi")) && existsSync(join(corpusDir, "json-schema-test-suite"));
/** What the corpus is and how to get it, for every message about it. */
const CORPUS_HELP =
  "it is third-party data (the JSON Schema Test Suite, public OpenAPI documents, oasdiff's cases) copied from public repositories at fixed commits, listed with how to make a copy in CONTRIBUTING.md#the-third-party-corpus; CORPUS_DIR=none runs everything else without it";
export const corpusAbsentMessage = corpusOff
  ? "corpus left out (CORPUS_DIR=none, as npm run test:quick sets): npm test runs it"
  : `corpus not found at ${corpusDir} (looked for openapi/ and json-schema-test-suite/ there): set CORPUS_DIR to the folder holding them; ${CORPUS_HELP}`;

/**
 * Whether the corpus (and its `folder`, when one is named) is there for the `tests` named. Missing,
 * it fails the calling test file in CI and prints why the tests are skipped elsewhere. Every suite
 * that reads the corpus asks here.
 */
export function corpusAvailable(tests: string, folder?: string): boolean {
  if (corpusOff) {
    process.stderr.write(`${tests} skipped: ${corpusAbsentMessage}\n`);
    return false;
  }
  const missing = corpusMissing(folder);
  requireInCi(tests, missing);
  return missing === undefined;
}

/** Why the corpus (and its `folder`, when one is named) is not there to be read; undefined when it is. */
export function corpusMissing(folder?: string): string | undefined {
  if (!corpusPresent) return corpusAbsentMessage;
  if (folder === undefined || existsSync(join(corpusDir, folder))) return undefined;
  return `${folder}/ not found in the corpus at ${corpusDir}: set CORPUS_DIR to a corpus that holds it; ${CORPUS_HELP}`;
}

/** The variable naming the test run's folder of temporary folders (./global-setup.ts makes it). */
export const TEMP_ROOT_VARIABLE = "SUITE_TEMP_ROOT";

/**
 * A fresh temporary folder: in a test run, in the run's own folder, which the run removes at its
 * end, whatever its tests left; elsewhere (a script), in the system's.
 */
export function makeTempDir(prefix: string): Promise<string> {
  return mkdtemp(join(process.env[TEMP_ROOT_VARIABLE] || tmpdir(), `${prefix}-`));
}
