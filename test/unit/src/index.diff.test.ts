/** spec:diff through the programmatic API (src/index.ts), as a build tool would call it. */
import { describe, expect, it } from "vitest";
import { formatReport, runDiff } from "../../../src/index.js";
import { repoRoot } from "../../support/paths.js";

describe("runDiff from the package's API", () => {
  it("compares two files and reports no change between a spec and itself", async () => {
    const outcome = await runDiff(
      {
        base: "spec/openapi.yaml",
        head: "spec/openapi.yaml",
        format: "json",
        accepted: "spec/accepted-changes.yaml",
        checkVersion: false,
      },
      repoRoot,
    );
    expect(outcome.report.changes).toEqual([]);
    expect(outcome.exitCode).toBe(0);
    expect(JSON.parse(outcome.output)).toEqual(JSON.parse(formatReport(outcome.report, "json")));
    expect(formatReport(outcome.report, "markdown")).toMatch(/the documents are equivalent/);
  });
});

describe("runDiff across OpenAPI versions", () => {
  it("a Swagger 2.0 document against its 3.1 successor reports only the version", async () => {
    const outcome = await runDiff(
      {
        base: "test/unit/src/diff/support/versions/pets-2.0.yaml",
        head: "test/unit/src/diff/support/versions/pets-3.1.yaml",
        format: "json",
        accepted: "spec/accepted-changes.yaml",
        checkVersion: false,
      },
      repoRoot,
    );
    expect(outcome.report.changes.map((change) => [change.rule, change.before, change.after])).toEqual([
      ["openapi-version-changed", "Swagger 2.0", "3.1.0"],
    ]);
  });

  it("a 3.1 document against its 3.2 form, a GET made a QUERY, reports the operation replaced", async () => {
    const outcome = await runDiff(
      {
        base: "test/unit/src/diff/support/versions/pets-3.1.yaml",
        head: "test/unit/src/diff/support/versions/pets-3.2.yaml",
        format: "json",
        accepted: "spec/accepted-changes.yaml",
        checkVersion: false,
      },
      repoRoot,
    );
    const rules = outcome.report.changes.map((change) => [change.rule, change.operation ?? ""]);
    expect(rules).toContainEqual(["openapi-version-changed", ""]);
    expect(rules).toContainEqual(["api-removed", "listPets"]);
    expect(rules).toContainEqual(["endpoint-added", "searchPets"]);
  });
});
