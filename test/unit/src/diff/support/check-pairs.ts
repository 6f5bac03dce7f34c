import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { reportOn } from "../../../../../src/diff/compare-specs.js";
import type { DiffReport } from "../../../../../src/diff/report/types.js";
import { loadSide, type SpecSide } from "../../../../../src/diff/source/load-side.js";
import { baseDocument, changesOf, type Json, rulesOf } from "./support.js";

/**
 * Checks every pair in both directions: base → head gives `forward`, head → base gives `reverse`.
 * `sideOf` loads each document once, for every pair that uses it.
 */
export function checkPairs(title: string, pairs: readonly RulePair[], sideOf = createSideCache()): void {
  describe(title, () => {
    for (const pair of pairs) {
      const base = (pair.base ?? ((document) => document))(baseDocument());
      const head = pair.head(base);
      it(`${pair.name}: ${pair.forward.rule} (${pair.forward.severity}, ${pair.forward.semver}), reversed ${pair.reverse.rule}`, async () => {
        const [before, after] = await Promise.all([sideOf(base), sideOf(head)]);
        expect(describeMismatch(reportOn(before, after), pair.forward)).toBeUndefined();
        expect(describeMismatch(reportOn(after, before), pair.reverse)).toBeUndefined();
      });
    }
  });
}

/** What a pair of documents must give in one direction: exactly these rules, and this bump. */
export interface Expected {
  /** the rule the pair is about, and its severity */
  readonly rule: string;
  readonly severity: "breaking" | "warning" | "info";
  /** every rule the report holds (the rule above included) */
  readonly rules: readonly string[];
  readonly semver: DiffReport["semver"];
}

/** A pair of documents, made from the base document, checked in both directions. */
export interface RulePair {
  readonly name: string;
  /** the older document (the base document when absent) */
  readonly base?: (document: Json) => Json;
  readonly head: (document: Json) => Json;
  readonly forward: Expected;
  readonly reverse: Expected;
}

/** Loads a document once per test file run, whatever pairs use it. */
export function createSideCache(): (document: Json) => Promise<SpecSide> {
  const sides = new Map<string, Promise<SpecSide>>();
  return (document) => {
    const text = stringify(document);
    const cached = sides.get(text) ?? loadSide({ name: "spec/openapi.yaml", text });
    sides.set(text, cached);
    return cached;
  };
}

/** Checks a report against what a direction of a pair must give. */
export function describeMismatch(report: DiffReport, expected: Expected): string | undefined {
  const main = changesOf(report, expected.rule);
  const problems = [
    ...(main.length === 0 ? [`no ${expected.rule} change`] : []),
    ...main
      .filter((c) => c.severity !== expected.severity)
      .map((c) => `${c.rule} is ${c.severity}, not ${expected.severity}`),
    ...(JSON.stringify(rulesOf(report)) !== JSON.stringify([...expected.rules].sort())
      ? [`rules ${rulesOf(report).join(", ")}`]
      : []),
    ...(report.semver !== expected.semver ? [`semver ${report.semver}`] : []),
  ];
  return problems.length === 0
    ? undefined
    : `${problems.join("; ")}\n${report.changes.map((c) => `  ${c.severity} ${c.rule}: ${c.message}`).join("\n")}`;
}

/** What a direction must give: `rule` with `severity`, the report's bump, and the other rules beside it. */
export function want(
  rule: string,
  severity: Expected["severity"],
  semver: Expected["semver"],
  ...others: string[]
): Expected {
  return { rule, severity, semver, rules: [rule, ...others] };
}

/** The same expectation in both directions (a change that is its own reverse). */
export function bothWays(expected: Expected): Pick<RulePair, "forward" | "reverse"> {
  return { forward: expected, reverse: expected };
}

/** A request constraint tightened: breaking, and reversed a loosening that needs a minor release. */
export function tightenedRequest(
  name: string,
  head: RulePair["head"],
  subject: "property" | "parameter" = "property",
): RulePair {
  return {
    name,
    head,
    forward: want(`request-${subject}-constraint-tightened`, "breaking", "major"),
    reverse: want(`request-${subject}-constraint-loosened`, "info", "minor"),
  };
}
