/** The rule catalogue: consistent levels and bumps, and every rule documented in docs/spec-review.md. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RULE_IDS, rules } from "../../../../../src/diff/report/rules.js";
import { repoRoot } from "../../../../support/paths.js";

describe("the rule catalogue", () => {
  it("asks a major bump exactly of breaking rules", () => {
    for (const id of RULE_IDS) expect(rules[id].semver === "major", id).toBe(rules[id].severity === "breaking");
  });

  it("is listed in full in the spec review guide's section on spec changes", () => {
    const guide = readFileSync(join(repoRoot, "docs", "spec-review.md"), "utf8");
    const start = guide.indexOf("\n## Reviewing a spec change\n");
    expect(start, "docs/spec-review.md has a section on spec changes").toBeGreaterThanOrEqual(0);
    const end = guide.indexOf("\n## ", start + 1);
    const section = guide.slice(start, end === -1 ? undefined : end);
    expect(RULE_IDS.filter((id) => !section.includes(`\`${id}\``))).toEqual([]);
    expect(section).toContain(`The rules (${RULE_IDS.length})`);
  });
});
