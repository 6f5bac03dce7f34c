/** spec:diff through the programmatic API (src/index.ts), as a build tool would call it. */
import { describe, expect, it } from "vitest";
import { formatReport, runDiff } from "../../src/index.js";
import { repoRoot } from "../support/paths.js";

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
