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
 * CORPUS_DIR=none leaves it out on purpose (npm run test:quick); in CI nothing may leave it out.
 */
const corpusOff = process.env.CORPUS_DIR === "none";
const corpusSetting =
  process.env.CORPUS_DIR === undefined || process.env.CORPUS_DIR === "" ? "../shared/corpus" : process.env.CORPUS_DIR;
export const corpusDir = resolve(repoRoot, corpusSetting);
export const corpusPresent =
  !corpusOff && existsSync(join(corpusDir, "openapi")) && existsSync(join(corpusDir, "json-schema-test-suite"));
export const corpusAbsentMessage = corpusOff
  ? "corpus left out (CORPUS_DIR=none, as npm run test:quick sets): npm test runs it"
  : `corpus not found at ${corpusDir} (looked for openapi/ and json-schema-test-suite/ there): set CORPUS_DIR to the folder holding them`;

/**
 * Whether the corpus (and its `folder`, when one is named) is there for the `tests` named. Missing,
 * it fails the calling test file in CI and prints why the tests are skipped elsewhere. Every suite
 * that reads the corpus asks here.
 */
export function corpusAvailable(tests: string, folder?: string): boolean {
  const missing = corpusMissing(folder);
  requireInCi(tests, missing);
  return missing === undefined;
}

/** Why the corpus (and its `folder`, when one is named) is not there to be read; undefined when it is. */
export function corpusMissing(folder?: string): string | undefined {
  if (!corpusPresent) return corpusAbsentMessage;
  if (folder === undefined || existsSync(join(corpusDir, folder))) return undefined;
  return `${folder}/ not found in the corpus at ${corpusDir}: set CORPUS_DIR to a corpus that holds it`;
}

/** A fresh temporary folder. */
export function makeTempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `${prefix}-`));
}
