import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { schemaArbitrary } from "./support/arbitrary.js";
import { buildSides, type ExceptionKind, explainAll, type Mismatch } from "./support/differential.js";
import { loadFormatEvidence } from "./support/format-evidence.js";
import { withMutations } from "./support/mutations.js";
import { documentPaths, type LoadedDocument, loadDocument } from "./support/openapi-corpus.js";
import { CORPUS_ABSENT, suiteAvailable } from "./support/suite-corpus.js";

/** Instances per document, spread over its component schemas (at least MIN, at most MAX per schema). */
const RUN_BUDGET = 2400;
const MIN_RUNS = 3;
const MAX_RUNS = 40;

/**
 * Differences from Ajv that are not bugs, each with the reason. Format strings on which
 * ajv-formats contradicts the JSON Schema Test Suite (e.g. it accepts "urn:uuid:…" as a uuid,
 * rejects quoted e-mail local parts, does not check IDNA A-labels in host names) are not
 * generated; they are listed with the suite case that proves Ajv wrong when the test runs.
 * - "int64-range": ajv-formats accepts every integer as int64; we check the range -2^63..2^63-1
 *   (beyond 2^53 doubles are inexact, so the bounds are compared as doubles). Counted only when,
 *   with format checks off on both sides, the verdicts agree.
 * - "discriminator": OpenAPI discriminator selection (the tag picks the one branch to validate),
 *   which Ajv does not implement with `mapping` or implicit schema-name mapping, so it sees the
 *   plain oneOf/anyOf. Counted only when our validator with discriminators removed agrees with Ajv.
 */
const EXCEPTION_REASONS: Record<ExceptionKind, string> = {
  "int64-range": "ajv-formats does not check the int64 range",
  discriminator: "OpenAPI discriminator selects one branch; Ajv validates the plain oneOf/anyOf",
};

const documents = documentPaths();
const corpus = suiteAvailable("format evidence of the differential test");
const totals = { documents: 0, schemas: 0, instances: 0, skippedSchemas: 0 };
const exceptions = new Map<ExceptionKind, number>();
const lines: string[] = [];

describe("generated validators agree with Ajv 2020 on random instances", () => {
  const evidence = corpus ? loadFormatEvidence() : { samples: {}, ajvWrong: new Map() };
  if (!corpus) it.skip(`corpus documents skipped: ${CORPUS_ABSENT}`, () => {});
  for (const { name, path } of documents) {
    it(name, async (context) => {
      let loaded: LoadedDocument;
      try {
        loaded = await loadDocument(name, path);
      } catch (error) {
        lines.push(`${name}: skipped, swagger-parser rejects it (${String(error).slice(0, 120)})`);
        context.skip();
        return;
      }
      const unexplained = await compare(loaded, evidence);
      expect(unexplained).toEqual([]);
    });
  }
  // Fewer schemas compared than the documents hold means some dropped out unseen. The spec has 23
  // component schemas, the corpus documents over 3,300.
  it("compared at least as many schemas as the documents hold", () => {
    expect(totals.schemas).toBeGreaterThanOrEqual(corpus ? 3300 : 23);
    expect(totals.skippedSchemas).toBe(0);
  });
  afterAll(() => {
    if (totals.documents === 0) return;
    console.log(
      `Differential vs Ajv: ${totals.documents} documents, ${totals.schemas} schemas, ${totals.instances} instances; ${totals.skippedSchemas} schemas left out`,
    );
    for (const [kind, count] of exceptions)
      console.log(`  explained differences, ${kind}: ${count} (${EXCEPTION_REASONS[kind]})`);
    for (const line of lines) console.log(`  ${line}`);
    console.log(
      `  format strings not generated because ajv-formats contradicts the suite on them (${evidence.ajvWrong.size}):`,
    );
    for (const wrong of evidence.ajvWrong.values()) {
      console.log(
        `    ${wrong.format} ${JSON.stringify(wrong.value)}: suite says ${wrong.expected ? "valid" : "invalid"} (${wrong.description})`,
      );
    }
  });
});

async function compare(loaded: LoadedDocument, evidence: ReturnType<typeof loadFormatEvidence>): Promise<string[]> {
  const sides = await buildSides(loaded);
  const runs = Math.max(MIN_RUNS, Math.min(MAX_RUNS, Math.floor(RUN_BUDGET / Math.max(loaded.schemaNames.length, 1))));
  const context = { document: loaded.document, formatSamples: evidence.samples, maxDepth: 3, cache: new Map() };
  const mismatches: Mismatch[] = [];
  let compared = 0;
  for (const [index, name] of loaded.schemaNames.entries()) {
    const ours = sides.ours.get(name);
    const ajv = sides.ajv.get(name);
    if (ours === undefined || ajv === undefined) continue;
    compared++;
    const instances = fc.sample(withMutations(schemaArbitrary(loaded.schemas[name], context)), {
      numRuns: runs,
      seed: 7919 * (index + 1),
    });
    for (const instance of instances) {
      totals.instances++;
      const ajvVerdict = ajv(instance);
      if (ours(instance).valid !== ajvVerdict) mismatches.push({ name, instance, ajvVerdict });
    }
  }
  const explanations = await explainAll(loaded, mismatches);
  const unexplained: string[] = [];
  mismatches.forEach(({ name, instance, ajvVerdict }, index) => {
    const kind = explanations[index];
    if (kind === undefined)
      unexplained.push(`${name}: ours ${!ajvVerdict}, Ajv ${ajvVerdict} on ${JSON.stringify(instance).slice(0, 300)}`);
    else exceptions.set(kind, (exceptions.get(kind) ?? 0) + 1);
  });
  totals.documents++;
  totals.schemas += compared;
  totals.skippedSchemas += sides.skipped.size;
  lines.push(
    `${loaded.name}: ${compared} schemas × ${runs} instances; left out ${sides.skipped.size}${describeSkipped(sides.skipped)}`,
  );
  return unexplained.slice(0, 20);
}

function describeSkipped(skipped: ReadonlyMap<string, string>): string {
  const reasons = new Map<string, number>();
  for (const reason of skipped.values()) {
    const short = reason.replace(/#\/\S*/g, "#/…").slice(0, 90);
    reasons.set(short, (reasons.get(short) ?? 0) + 1);
  }
  return reasons.size === 0 ? "" : ` (${[...reasons].map(([reason, count]) => `${count}× ${reason}`).join("; ")})`;
}
