import { existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The shared third-party corpus (OpenAPI documents, JSON Schema Test Suite), when present.
 * CORPUS_DIR=none leaves it out on purpose (npm run test:quick).
 */
const corpusOff = process.env.CORPUS_DIR === "none";
export const corpusDir = resolve(repoRoot, process.env.CORPUS_DIR ?? "../shared/corpus");
export const corpusPresent = !corpusOff && existsSync(join(corpusDir, "openapi"));
export const corpusAbsentMessage = corpusOff
  ? "corpus left out (CORPUS_DIR=none, as npm run test:quick sets): npm test runs it"
  : `corpus not found at ${corpusDir}: set CORPUS_DIR to the folder holding openapi/ and json-schema-test-suite/`;

/** A fresh temporary folder. */
export function makeTempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `${prefix}-`));
}
