/** The rule catalogue: consistent levels and bumps, and every rule documented in the README. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RULE_IDS, rules } from "../../src/diff/rules.js";
import { repoRoot } from "../support/paths.js";

describe("the rule catalogue", () => {
  it("asks a major bump exactly of breaking rules", () => {
    for (const id of RULE_IDS) expect(rules[id].semver === "major", id).toBe(rules[id].severity === "breaking");
  });

  it("is listed in full in the README's review section", () => {
    const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Reviewing a spec change"), readme.indexOf("## Using the package"));
    expect(RULE_IDS.filter((id) => !section.includes(`\`${id}\``))).toEqual([]);
    expect(section).toContain(`The rules (${RULE_IDS.length})`);
  });
});
