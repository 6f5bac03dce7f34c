/**
 * The generator on real public OpenAPI documents (CORPUS_DIR/openapi): each one either generates
 * code that typechecks, or is refused with clear diagnostics (code, file, line, pointer), never a
 * crash. The largest documents have a test file each, so the runner spreads them over its workers.
 * Skipped, saying so, where the corpus is absent.
 */
import { readdirSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Diagnostic, GenerationFailed, generate } from "../../../src/index.js";
import { corpusAbsentMessage, corpusAvailable, corpusDir, repoRoot } from "../../support/paths.js";
import { listTypeScript, typecheck } from "../../support/typecheck.js";

/** Documents with real defects, refused on purpose (see the corpus README). */
const REFUSED = new Map([
  ["lob.yaml", /components\/mediaTypes|allows no Reference Object here|more schema validation errors/],
]);

/** The documents that have a test file of their own. */
export const LARGE = ["stripe.yaml", "openai.yaml", "discord.json"] as const;

/**
 * What of a document's output is typechecked: all of it, or `types.ts` alone. The validators,
 * client and server of the largest documents take most of `npm test`'s time to typecheck (Stripe's
 * 15 MB of validators alone over 20 s), so there `npm test` typechecks `types.ts`, the file that
 * once failed to compile unseen; `npm run test:corpus` (CORPUS_TYPECHECK=all) typechecks all of it.
 */
export type CorpusTypecheck = "all" | "types";

const FULL = process.env.CORPUS_TYPECHECK === "all";

/** Every document of the corpus, by file name. */
function corpusDocuments(): string[] {
  return readdirSync(join(corpusDir, "openapi"))
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .sort();
}

/** Generates each selected document into one folder, then typechecks their output (`scope`) in one program. */
export function describeCorpus(
  label: string,
  select: (document: string) => boolean,
  scope: CorpusTypecheck = "all",
): void {
  if (!corpusAvailable(`OpenAPI corpus tests (${label})`)) {
    describe(`the OpenAPI corpus (${label})`, () => {
      it.skip(`is absent: ${corpusAbsentMessage}`, () => undefined);
    });
    return;
  }
  const documents = corpusDocuments().filter(select);
  // inside the repository, so generated server code resolves fastify from node_modules
  const root = join(repoRoot, ".tmp", `corpus-test-${label}-${process.pid}`);

  describe(`the OpenAPI corpus: ${label}`, () => {
    const refused = new Map<string, Diagnostic[]>();
    beforeAll(() => mkdir(root, { recursive: true }));
    afterAll(() => rm(root, { recursive: true, force: true }));

    it("has the documents it names", () => {
      expect(documents.length).toBeGreaterThan(0);
    });

    // a large document takes over a minute to generate beside npm run test:corpus's other work
    it.each(documents)("%s generates, or is refused with clear diagnostics", { timeout: 600_000 }, async (document) => {
      try {
        await generate({ spec: join(corpusDir, "openapi", document), out: join(root, document.replace(/\.\w+$/, "")) });
      } catch (error) {
        if (!(error instanceof GenerationFailed)) throw error;
        refused.set(document, [...error.diagnostics]);
      }
      const diagnostics = refused.get(document) ?? [];
      expect(diagnostics.filter((d) => d.severity === "error").length > 0).toBe(REFUSED.has(document));
      for (const diagnostic of diagnostics.filter((d) => d.severity === "error")) {
        expect(diagnostic.location?.file).toContain(document);
        expect(diagnostic.location?.line).toBeGreaterThan(0);
        expect(diagnostic.location?.pointer).toMatch(/^#\//);
        expect(diagnostic.message).toMatch(REFUSED.get(document) ?? /^$/);
      }
    });

    const all = FULL || scope === "all";
    it(`the ${all ? "code" : "types.ts"} generated from every document not refused typechecks${all ? "" : " (npm run test:corpus: all of it)"}`, {
      timeout: 600_000,
    }, () => {
      const generated = documents.filter((document) => !REFUSED.has(document));
      // types.ts of each document's output folder (not the validators' or the server runtime's types.ts)
      const files = listTypeScript(root).filter(
        (file) => all || relative(root, file).split(sep).slice(1).join("/") === "types.ts",
      );
      expect(files.length).toBeGreaterThanOrEqual(all ? generated.length + 1 : generated.length);
      expect(typecheck(files)).toEqual([]);
    });
  });
}
