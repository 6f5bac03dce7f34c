/** The three outputs: JSON in the documented shape, Markdown for a pull request, GitHub annotations. */
import { describe, expect, it } from "vitest";
import { formatGithub } from "../../../../src/diff/format/github.js";
import { formatMarkdown } from "../../../../src/diff/format/markdown.js";
import type { DiffReport } from "../../../../src/diff/report/types.js";
import { formatReport } from "../../../../src/diff/run-diff.js";
import { baseDocument, diffDocuments, type Json, without, withValue } from "./support/support.js";

const V = "#/components/schemas/Venue";
const CREATED = "#/paths/~1venues/post/responses/201/content/application~1json/schema";

/** The base document with Venue answered by both operations, and a revision that changes it. */
async function sharedVenueReport(): Promise<DiffReport> {
  const base = withValue(baseDocument(), CREATED, { $ref: V });
  const steps: [string, unknown][] = [
    [`${V}/required`, ["venue_id"]],
    [`${V}/properties/name/maxLength`, 200],
    ["#/servers/0/url", "https://api.example.org/v1"],
    ["#/paths/~1venues~1{id}/get/summary", "Read a venue"],
  ];
  const head = steps.reduce<Json>((document, [pointer, value]) => withValue(document, pointer, value), base);
  return diffDocuments(base, head);
}

describe("json", () => {
  it("has exactly the documented fields", async () => {
    const report = JSON.parse(formatReport(await sharedVenueReport(), "json")) as DiffReport;
    expect(Object.keys(report)).toEqual(["semver", "changes"]);
    const allowed = [
      "rule",
      "severity",
      "direction",
      "operation",
      "pointer",
      "location",
      "before",
      "after",
      "message",
      "accepted",
    ];
    for (const change of report.changes) {
      expect(Object.keys(change).every((key) => allowed.includes(key))).toBe(true);
      expect(change.location).toEqual({
        file: "spec/openapi.yaml",
        line: expect.any(Number),
        column: expect.any(Number),
      });
    }
  });
});

describe("markdown", () => {
  it("starts with the verdict, lists breaking changes first, then the rest by operation, components apart", async () => {
    const text = formatMarkdown(await sharedVenueReport());
    const lines = text.split("\n");
    expect(lines[0]).toBe(
      "### spec:diff: **major**: release a new major version of the package (below 1.0.0: a new minor version)",
    );
    expect(lines[2]).toBe("2 breaking · 1 warning(s) · 1 info. Breaks HTTP clients.");
    const headings = lines.filter((line) => line.startsWith("#### "));
    expect(headings).toEqual([
      "#### Breaking changes",
      "#### Other changes: shared components and the document",
      "#### Other changes: getVenue",
    ]);
    expect(lines.find((line) => line.includes("`response-property-became-optional`"))).toMatch(
      /^- `response-property-became-optional` \(spec\/openapi\.yaml:\d+:9\) type `Venue`, property `name`: became optional \(reached from 2 operations: createVenue, getVenue\) — `required → optional`$/,
    );
    expect(text).toMatch(
      /\n- info `documentation-changed` \(spec\/openapi\.yaml:\d+:7 · `getVenue`\) operation getVenue: summary added — `→ Read a venue`\n/,
    );
  });

  it("folds a change found through several operations into one line that names them", async () => {
    const item = "#/paths/~1venues~1{id}";
    const shared = withValue(
      withValue(without(baseDocument(), `${item}/get/parameters/0`), `${item}/parameters`, [
        { name: "id", in: "path", required: true, schema: { type: "integer" } },
      ]),
      `${item}/delete`,
      { operationId: "deleteVenue", responses: { "204": { description: "gone" } } },
    );
    const text = formatMarkdown(
      await diffDocuments(shared, withValue(shared, `${item}/parameters/0/schema/type`, "string")),
    );
    expect(text.split("\n").filter((line) => line.includes("request-parameter-type-changed"))).toEqual([
      expect.stringMatching(
        /^- `request-parameter-type-changed` \(spec\/openapi\.yaml:\d+:\d+ · `deleteVenue`, `getVenue`\) path parameter `id`: type changed from integer to string — `integer → string`$/,
      ),
    ]);
  });

  it("says when the documents are equivalent", () => {
    expect(formatMarkdown({ semver: "none", changes: [] })).toBe(
      "### spec:diff: **none**: the documents are equivalent: nothing to release\n\n0 breaking · 0 warning(s) · 0 info.\n",
    );
  });
});

describe("github", () => {
  it("annotates file, line and column, escapes what the workflow syntax reserves, and ends with the advice", () => {
    const report: DiffReport = {
      semver: "minor",
      changes: [
        {
          rule: "unclassified",
          severity: "warning",
          direction: "request",
          pointer: "#/x",
          location: { file: "git:main:spec/openapi.yaml", line: 3, column: 5 },
          message: "100% odd,\nreally",
          before: "a",
          after: "b",
        },
        {
          rule: "api-schema-added",
          severity: "info",
          direction: "package",
          pointer: "#/y",
          message: "new",
          after: ["Place", "validatePlace"],
        },
      ],
    };
    expect(formatGithub(report)).toBe(
      [
        "::warning file=spec/openapi.yaml,line=3,col=5,title=unclassified::100%25 odd,%0Areally [a → b]",
        "::notice title=api-schema-added::new [→ Place, validatePlace]",
        "::notice title=spec%3Adiff::semver advice: minor (2 change(s))",
        "",
      ].join("\n"),
    );
  });
});
