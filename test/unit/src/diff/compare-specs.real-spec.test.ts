/** The report on the project's own spec: its constructs, equivalent rewrites, and its git history. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { reportOn } from "../../../../src/diff/compare-specs.js";
import { RULE_IDS } from "../../../../src/diff/report/rules.js";
import type { DiffReport } from "../../../../src/diff/report/types.js";
import { loadSide, type SpecSide } from "../../../../src/diff/source/load-side.js";
import { repoRoot } from "../../../support/paths.js";
import { runCommand } from "./support/run-command.js";
import { rulesOf } from "./support/support.js";

const specText = readFileSync(join(repoRoot, "spec/openapi.yaml"), "utf8");
const spec = loadSide({ name: "spec/openapi.yaml", text: specText });

async function compareWithSpec(text: string): Promise<[DiffReport, DiffReport]> {
  const [real, other]: SpecSide[] = await Promise.all([spec, loadSide({ name: "spec/changed.yaml", text })]);
  return [reportOn(real as SpecSide, other as SpecSide), reportOn(other as SpecSide, real as SpecSide)];
}

/** Every mapping with its keys in reverse order, `required` and `enum` lists reversed. */
function reorder(value: unknown, key = ""): unknown {
  if (Array.isArray(value))
    return (key === "required" || key === "enum" ? [...value].reverse() : value).map((item) => reorder(item));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reorder(v, k)]),
  );
}

describe("the project's spec", () => {
  it("compared with itself, and with every key and required list in another order, gives none", async () => {
    for (const text of [specText, stringify(reorder(parse(specText)))]) {
      const [forward] = await compareWithSpec(text);
      expect(forward).toEqual({ semver: "none", changes: [] });
    }
  });

  it("reads its own `event_id: false` as a property no request may carry: allowing it widens, forbidding it breaks", async () => {
    const text = specText.replace(
      "            event_id: false\n",
      "            event_id:\n              type: string\n",
    );
    expect(text).not.toBe(specText);
    const [widened, narrowed] = await compareWithSpec(text);
    expect(rulesOf(widened)).toEqual(["package-type-changed", "request-property-type-widened"]);
    expect(widened.changes.find((c) => c.rule === "request-property-type-widened")).toMatchObject({
      severity: "info",
      operation: "createEvent",
      pointer: "#/components/schemas/EventCreate/allOf/1/properties/event_id",
      before: "nothing (false)",
      after: "string",
    });
    expect(rulesOf(narrowed)).toEqual(["request-property-type-changed"]);
    expect(narrowed.semver).toBe("major");
  });
});

describe("the command on the repository's history", () => {
  it("reports the working spec against git:HEAD~1 as JSON with valid changes", async () => {
    const previous = execFileSync("git", ["show", "HEAD~1:spec/openapi.yaml"], { cwd: repoRoot, encoding: "utf8" });
    const run = await runCommand(["git:HEAD~1", "--format", "json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as DiffReport;
    expect(["major", "minor", "patch", "none"]).toContain(report.semver);
    for (const change of report.changes) expect(RULE_IDS).toContain(change.rule);
    if (previous === specText) expect(report).toEqual({ semver: "none", changes: [] });
  });

  it("calls the description edits of the spec's history a patch", async () => {
    const run = await runCommand(["git:56cd6c2", "git:0fe80d6", "--format", "json"]);
    const report = JSON.parse(run.stdout) as DiffReport;
    expect(report.semver).toBe("patch");
    expect(rulesOf(report)).toEqual(["documentation-changed"]);
    expect(report.changes.map((c) => c.pointer).sort()).toEqual([
      "#/paths/~1clients~1{id}/patch/description",
      "#/paths/~1workers~1{id}~1credentials/post/description",
      "#/tags",
    ]);
    expect(report.changes.every((c) => c.location?.file === "git:0fe80d6:spec/openapi.yaml")).toBe(true);
  });
});
