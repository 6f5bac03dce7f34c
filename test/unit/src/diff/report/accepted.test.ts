/** Accepting breaking changes on purpose: the file's format, what an entry covers, and stale entries. */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { GenerationFailed } from "../../../../../src/diagnostics/diagnostic.js";
import { parseAcceptedChanges, readAcceptedChanges } from "../../../../../src/diff/report/accepted.js";
import { makeTempDir, repoRoot } from "../../../../support/paths.js";
import { runCommand } from "../support/run-command.js";
import { baseDocument, withValue } from "../support/support.js";

const MAX_LENGTH = "#/components/schemas/VenueCreate/properties/name/maxLength";

function failure(text: string): string {
  try {
    parseAcceptedChanges(text, "accepted.yaml");
  } catch (error) {
    if (error instanceof GenerationFailed)
      return error.diagnostics
        .map((d) => `${d.location?.line}:${d.location?.column} ${d.code} ${d.message}`)
        .join("\n");
  }
  return "no failure";
}

describe("the accepted-changes file", () => {
  it("the repository's file explains the format and accepts nothing yet", async () => {
    const text = await readFile(join(repoRoot, "spec/accepted-changes.yaml"), "utf8");
    expect(text).toMatch(/^# Breaking changes accepted on purpose/);
    expect(await readAcceptedChanges(join(repoRoot, "spec/accepted-changes.yaml"))).toEqual([]);
  });

  it("reads entries with their place, and a missing file as none", async () => {
    const text = `- rule: api-removed\n  operation: "DELETE /venues/{id}"\n  reason: Nobody calls it.\n- rule: request-property-constraint-tightened\n  pointer: "${MAX_LENGTH}"\n  reason: Longer names were never stored.\n`;
    expect(parseAcceptedChanges(text, "accepted.yaml")).toEqual([
      { rule: "api-removed", operation: "DELETE /venues/{id}", reason: "Nobody calls it.", line: 1, column: 3 },
      {
        rule: "request-property-constraint-tightened",
        pointer: MAX_LENGTH,
        reason: "Longer names were never stored.",
        line: 4,
        column: 3,
      },
    ]);
    expect(await readAcceptedChanges(join(await makeTempDir("accepted"), "none.yaml"))).toEqual([]);
  });

  it("refuses entries without a reason, without a place, with an unknown rule, and a file that is not a list", () => {
    expect(failure("- rule: api-removed\n  operation: getVenue\n")).toBe(
      "1:3 ACCEPTED_CHANGES_INVALID entry for api-removed gives no reason",
    );
    expect(failure("- rule: api-removed\n  reason: x\n")).toBe(
      "1:3 ACCEPTED_CHANGES_INVALID entry for api-removed names neither an operation nor a pointer",
    );
    expect(failure("- rule: api-gone\n  operation: x\n  reason: y\n")).toBe(
      '1:3 ACCEPTED_CHANGES_INVALID entry has an unknown rule "api-gone"',
    );
    expect(failure("rule: api-removed\n")).toBe("1:1 ACCEPTED_CHANGES_INVALID must be a list of entries");
  });
});

describe("accepting a breaking change", () => {
  it("keeps it in the report, marked, without raising the advice or failing --fail-on; a stale entry is a warning", async () => {
    const dir = await makeTempDir("accepted-run");
    await writeFile(join(dir, "base.yaml"), stringify(baseDocument()));
    await writeFile(join(dir, "head.yaml"), stringify(withValue(baseDocument(), MAX_LENGTH, 50)));
    await writeFile(
      join(dir, "accepted.yaml"),
      [
        `- rule: request-property-constraint-tightened`,
        `  operation: POST /venues`,
        `  pointer: "${MAX_LENGTH}"`,
        `  reason: Longer names were never stored.`,
        `- rule: api-removed`,
        `  operation: deleteVenue`,
        `  reason: Removed last year.`,
        ``,
      ].join("\n"),
    );
    const run = await runCommand(
      ["base.yaml", "head.yaml", "--accepted", "accepted.yaml", "--format", "json", "--fail-on", "breaking"],
      dir,
    );
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      semver: string;
      changes: { rule: string; accepted?: unknown; location?: unknown; severity: string }[];
    };
    expect(report.semver).toBe("minor");
    expect(report.changes.map((c) => [c.rule, c.severity, c.accepted])).toEqual([
      ["accepted-change-stale", "warning", undefined],
      ["request-property-constraint-tightened", "breaking", { reason: "Longer names were never stored." }],
    ]);
    expect(report.changes[0]?.location).toEqual({ file: "accepted.yaml", line: 5, column: 3 });
    expect(
      (await runCommand(["base.yaml", "head.yaml", "--accepted", "accepted.yaml", "--fail-on", "warning"], dir)).code,
    ).toBe(1);
  });
});
