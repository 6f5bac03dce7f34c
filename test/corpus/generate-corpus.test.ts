/**
 * The generator on real public OpenAPI documents (CORPUS_DIR/openapi): each one either generates
 * code that typechecks, or is refused with clear diagnostics (code, file, line, pointer), never a
 * crash. Skipped, saying so, where the corpus is absent.
 */
import { readdirSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Diagnostic, GenerationFailed, generate } from "../../src/index.js";
import { corpusAbsentMessage, corpusDir, corpusPresent, repoRoot } from "../support/paths.js";
import { listTypeScript, typecheck } from "../support/typecheck.js";

/** Documents with real defects, refused on purpose (see the corpus README). */
const REFUSED = new Map([["lob.yaml", /components\/mediaTypes|allows no Reference Object here|more schema validation errors/]]);

const documents = corpusPresent
  ? readdirSync(join(corpusDir, "openapi"))
      .filter((f) => /\.(ya?ml|json)$/.test(f))
      .sort()
  : [];
// inside the repository, so generated server code resolves fastify from node_modules
const root = join(repoRoot, ".tmp", `corpus-test-${process.pid}`);

if (!corpusPresent) console.warn(`generate-corpus: skipped, ${corpusAbsentMessage}`);

describe.skipIf(!corpusPresent)("every OpenAPI document in the corpus", () => {
  const refused = new Map<string, Diagnostic[]>();
  beforeAll(() => mkdir(root, { recursive: true }));
  afterAll(() => rm(root, { recursive: true, force: true }));

  it.each(documents)("%s generates, or is refused with clear diagnostics", async (document) => {
    try {
      await generate({ spec: join(corpusDir, "openapi", document), out: join(root, document.replace(/\.\w+$/, "")) });
    } catch (error) {
      if (!(error instanceof GenerationFailed)) throw error;
      refused.set(document, [...error.diagnostics]);
    }
    const diagnostics = refused.get(document) ?? [];
    for (const diagnostic of diagnostics.filter((d) => d.severity === "error")) {
      expect(diagnostic.location?.file).toContain(document);
      expect(diagnostic.location?.line).toBeGreaterThan(0);
      expect(diagnostic.location?.pointer).toMatch(/^#\//);
      expect(diagnostic.message).toMatch(REFUSED.get(document) ?? /^$/);
    }
  });

  it("refuses only the documents with real defects", () => {
    expect([...refused.keys()]).toEqual([...REFUSED.keys()]);
  });

  it("the code generated from every other document typechecks", { timeout: 600_000 }, () => {
    const files = listTypeScript(root);
    expect(files.length).toBeGreaterThan(documents.length);
    expect(typecheck(files)).toEqual([]);
  });
});

describe.skipIf(corpusPresent)("the OpenAPI corpus", () => {
  it.skip(`is absent: ${corpusAbsentMessage}`, () => undefined);
});
