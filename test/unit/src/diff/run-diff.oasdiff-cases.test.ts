/**
 * spec:diff on oasdiff's checker cases (CORPUS_DIR/oasdiff-checker, see its README): pairs of
 * documents built from oasdiff's fixtures and the edits its Go tests make, each with oasdiff's
 * verdict and, where that was judged wrong or open, a judged one. The HTTP-level verdict of each
 * case (breaking when the report holds a breaking change, the package-surface rules left out) must
 * be the expected one (the judged verdict where there is one, `either` accepting both, else
 * oasdiff's), or be listed in DISAGREEMENTS with the project's reason.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { RuleId } from "../../../../src/diff/report/rules.js";
import type { Change } from "../../../../src/diff/report/types.js";
import { runDiff } from "../../../../src/diff/run-diff.js";
import { isRecord } from "../../../../src/json-value.js";
import { corpusAvailable, corpusDir, corpusMissing } from "../../../support/paths.js";

type Verdict = "breaking" | "not-breaking";

/** A case where the project's verdict is not the expected one, and why the project's stands. */
interface Disagreement {
  /** the project's verdict */
  readonly verdict: Verdict;
  /** the rule behind it: the breaking change reported, or what the change is reported as instead */
  readonly rule: RuleId | typeof NO_HTTP_CHANGE;
  readonly reason: string;
}

/** The rule of a disagreement where the report holds no HTTP change at all. */
const NO_HTTP_CHANGE = "no HTTP change";

/** A looser response constraint is breaking: a client that checks responses (the generated client's `validateResponses`) refuses what it now gets. */
const LOOSER_RESPONSE =
  "`created` is readOnly, so only responses carry it, and its values are no longer held to the old pattern: a looser response constraint, breaking like a raised response maxLength (which oasdiff rates ERR, cases 282-288); oasdiff has no check for a response pattern";

const DISAGREEMENTS: Readonly<Record<string, Disagreement>> = {
  "113": {
    verdict: "not-breaking",
    rule: NO_HTTP_CHANGE,
    reason:
      "the anyOf branch removed (Rabbit) is the same as Cat, which stays: the anyOf accepts the same values. The mirror of case 221, where oasdiff agrees that the duplicate added breaks nothing",
  },
  "125": {
    verdict: "breaking",
    rule: "request-one-of-branches-overlap",
    reason:
      "the oneOf branch added (Rabbit) is the same as Cat: a body valid against Cat alone before (one whose `breed` is not an object, which Dog refuses) now matches Cat and Rabbit and is refused. oasdiff rates a oneOf branch added INFO whatever it overlaps",
  },
  "169": {
    verdict: "breaking",
    rule: "response-property-constraint-loosened",
    reason: `pattern ^[a-z]+$ replaced by .+, which accepts every string the old one did and more. ${LOOSER_RESPONSE}`,
  },
  "170": {
    verdict: "breaking",
    rule: "response-property-constraint-loosened",
    reason: `pattern ^[a-z]+$ replaced by .*, which every string matches. ${LOOSER_RESPONSE}`,
  },
  "171": {
    verdict: "breaking",
    rule: "response-property-constraint-loosened",
    reason: `pattern ^[a-z]+$ removed. ${LOOSER_RESPONSE}`,
  },
  "193": {
    verdict: "breaking",
    rule: "request-property-became-required",
    reason:
      "`test` is taken out of `properties` but added to `required`: a request without it is now refused (JSON Schema applies `required` whether `properties` lists the name or not), and a response may carry any value for it. oasdiff reads `required` only for the properties it lists",
  },
  "249": {
    verdict: "breaking",
    rule: "new-required-request-property",
    reason:
      "`name` is added to `required` without being listed in `properties`: a request without it is now refused. oasdiff reads `required` only for the properties it lists",
  },
  "263": {
    verdict: "not-breaking",
    rule: "request-parameter-default-added",
    reason:
      "a default given to an optional header parameter that had none: no request is refused, and no promise is broken (what the server did without the header was not said before), so a warning. A default changed or removed is breaking (cases 207, 262, 264)",
  },
};

/** The share of cases whose verdict must be the expected one. */
const MINIMUM_AGREEMENT = 0.97;

/** One case of the corpus, as its case.json gives it. */
interface CorpusCase {
  readonly name: string;
  /** where in oasdiff it comes from */
  readonly from: string;
  readonly base: string;
  readonly head: string;
  readonly expected: Verdict | "either";
}

/** What the project says of a case. */
interface Outcome {
  readonly verdict: Verdict;
  /** the rules behind the verdict: the breaking ones, else those of the most severe changes */
  readonly rules: readonly RuleId[];
}

const folder = join(corpusDir, "oasdiff-checker", "cases");
const present = corpusAvailable("oasdiff checker cases", "oasdiff-checker");
const cases = present ? readdirSync(folder).sort().map(readCase) : [];

describe("spec:diff on oasdiff's checker cases", () => {
  if (!present) {
    it.skip(`is absent: ${corpusMissing("oasdiff-checker")}`, () => undefined);
    return;
  }
  const outcomes = new Map<string, Outcome>();
  beforeAll(async () => {
    for (const corpusCase of cases) outcomes.set(corpusCase.name, await judge(corpusCase));
  });

  it.each(cases.map((c) => [`${c.name} (${c.from})`, c] as const))("%s", (_, corpusCase) => {
    const outcome = outcomes.get(corpusCase.name) as Outcome;
    const listed = DISAGREEMENTS[corpusCase.name];
    if (agrees(corpusCase, outcome)) {
      expect(listed, "agrees, so it is no longer a disagreement").toBeUndefined();
      return;
    }
    expect(
      listed,
      `expected ${corpusCase.expected}, the project says ${outcome.verdict} (${outcome.rules.join(", ")}): not in DISAGREEMENTS`,
    ).toBeDefined();
    expect(outcome.verdict).toBe(listed?.verdict);
    expect(outcome.rules.length === 0 ? NO_HTTP_CHANGE : outcome.rules).toContain(listed?.rule);
  });

  it(`agrees on at least ${MINIMUM_AGREEMENT * 100}% of the cases, and says why for the others`, () => {
    const disagreeing = cases.filter((c) => !agrees(c, outcomes.get(c.name) as Outcome));
    const agreeing = cases.length - disagreeing.length;
    const lines = disagreeing.map((c) => {
      const listed = DISAGREEMENTS[c.name];
      return `  ${c.name} expected ${c.expected}, ${listed?.verdict ?? "?"} by ${listed?.rule ?? "?"}: ${listed?.reason ?? "not listed"}`;
    });
    console.info(
      `oasdiff checker cases: ${agreeing} of ${cases.length} agree (${((100 * agreeing) / cases.length).toFixed(1)}%)\n${lines.join("\n")}`,
    );
    expect(agreeing / cases.length).toBeGreaterThanOrEqual(MINIMUM_AGREEMENT);
    expect(disagreeing.map((c) => c.name)).toEqual(Object.keys(DISAGREEMENTS).sort());
  });
});

/** A case folder's case.json, checked: a malformed one fails with the case and the field named. */
function readCase(name: string): CorpusCase {
  const file = join(folder, name, "case.json");
  const data: unknown = JSON.parse(readFileSync(file, "utf8"));
  const fail = (problem: string): never => {
    throw new Error(`${file}: ${problem}`);
  };
  if (!isRecord(data)) return fail("is not an object");
  const text = (value: unknown, field: string): string =>
    typeof value === "string" && value !== "" ? value : fail(`${field} is not a file name`);
  const oasdiff = data.oasdiff_verdict;
  const judged = isRecord(data.judged) ? data.judged.verdict : undefined;
  if (oasdiff !== "breaking" && oasdiff !== "not-breaking")
    return fail(`oasdiff_verdict ${JSON.stringify(oasdiff)} is neither breaking nor not-breaking`);
  if (judged !== undefined && judged !== "breaking" && judged !== "not-breaking" && judged !== "either")
    return fail(`judged.verdict ${JSON.stringify(judged)} is not breaking, not-breaking or either`);
  const source = isRecord(data.source) && typeof data.source.from === "string" ? data.source.from : "";
  return {
    name,
    from: source,
    base: text(data.base, "base"),
    head: text(data.head, "head"),
    expected: judged ?? oasdiff,
  };
}

/** The project's HTTP-level verdict on a case. */
async function judge(corpusCase: CorpusCase): Promise<Outcome> {
  const options = {
    base: corpusCase.base,
    head: corpusCase.head,
    format: "json",
    accepted: "accepted-changes.yaml",
    checkVersion: false,
  } as const;
  const { report } = await runDiff(options, join(folder, corpusCase.name));
  const http = report.changes.filter((change) => change.direction !== "package");
  const breaking = http.filter((change) => change.severity === "breaking");
  if (breaking.length > 0) return { verdict: "breaking", rules: distinctRules(breaking) };
  const warnings = http.filter((change) => change.severity === "warning");
  return { verdict: "not-breaking", rules: distinctRules(warnings.length > 0 ? warnings : http) };
}

function distinctRules(changes: readonly Change[]): RuleId[] {
  return [...new Set(changes.map((change) => change.rule))].sort();
}

function agrees(corpusCase: CorpusCase, outcome: Outcome): boolean {
  return corpusCase.expected === "either" || corpusCase.expected === outcome.verdict;
}
