/**
 * Pairs of documents written from other breaking-change checkers' tests (test/unit/src/diff/support/held-out/, each
 * stating its expected verdict and why at the top): spec:diff gives the HTTP-level verdict each
 * states (breaking when the report holds a breaking change, the package-surface rules left out),
 * under the rule named, or refuses an invalid document with exit code 2.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../support/paths.js";
import { runCommand } from "./support/run-command.js";

/** What a pair must give: a verdict and a rule that shows it, or a refusal with a diagnostic code. */
type Outcome = { readonly verdict: "breaking" | "not breaking"; readonly rule?: string } | { readonly refused: string };

const EXPECTED: Readonly<Record<string, Outcome>> = {
  "01-integer-multipleof-raised": { verdict: "breaking", rule: "request-property-constraint-tightened" },
  "02-integer-multipleof-added": { verdict: "breaking", rule: "request-property-constraint-tightened" },
  "03-request-discriminator-renamed": { verdict: "breaking", rule: "request-discriminator-property-changed" },
  "04-allow-empty-value-removed": { verdict: "breaking", rule: "request-parameter-constraint-tightened" },
  "05-identical-path-templates": { refused: "PATH_TEMPLATE_DUPLICATE" },
  "06-request-min-zero-added": { verdict: "not breaking" },
  "07-additional-properties-empty-schema": { verdict: "not breaking" },
  "08-response-any-narrowed-to-anyof": { verdict: "not breaking", rule: "response-property-type-narrowed" },
  "09-response-additional-properties-widened": { verdict: "breaking", rule: "response-property-type-changed" },
  "10-response-min-zero-removed": { verdict: "not breaking" },
  "11-path-item-ref-refused": { verdict: "not breaking", rule: "endpoint-added" },
  "12-closed-response-property-added": { verdict: "breaking", rule: "response-property-added-closed" },
};

const folder = join(repoRoot, "test/unit/src/diff/support/held-out");

/** The verdict a fixture states on its first line: "# EXPECTED: breaking (...)". */
function statedVerdict(name: string): string {
  const first = readFileSync(join(folder, name, "old.yaml"), "utf8").split("\n")[0] ?? "";
  return /^# EXPECTED: (breaking|not breaking|no change)\b/.exec(first)?.[1] ?? first;
}

interface ReportedChange {
  readonly rule: string;
  readonly severity: string;
  readonly direction: string;
}

describe("pairs held out from other checkers' tests", () => {
  it("lists every pair of the folder", () => {
    expect(readdirSync(folder).sort()).toEqual(Object.keys(EXPECTED));
  });

  it.each(Object.entries(EXPECTED))("%s", async (name, expected) => {
    const run = await runCommand([join(folder, name, "old.yaml"), join(folder, name, "new.yaml"), "--format", "json"]);
    if ("refused" in expected) {
      expect(statedVerdict(name)).toBe("no change");
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`error ${expected.refused}`);
      return;
    }
    expect(run.stderr).toBe("");
    expect(statedVerdict(name)).toBe(expected.verdict);
    const changes = (JSON.parse(run.stdout) as { changes: ReportedChange[] }).changes.filter(
      (change) => change.direction !== "package",
    );
    const breaking = changes.filter((change) => change.severity === "breaking").map((change) => change.rule);
    expect(breaking.length > 0 ? "breaking" : "not breaking", JSON.stringify(changes)).toBe(expected.verdict);
    if (expected.rule !== undefined) expect(changes.map((change) => change.rule)).toContain(expected.rule);
  });
});
