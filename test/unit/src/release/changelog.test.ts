/**
 * A release's changelog section, from spec:diff's report between two documents: one sentence per
 * change, naming its operations, the side of the call and the field, grouped by what it asks of
 * consumers; and the section put on top of the changelog.
 */
import { describe, expect, it } from "vitest";
import { addSection, changelogSection } from "../../../../src/release/changelog.js";
import { baseDocument, diffDocuments, type Json, without, withValue } from "../diff/support/support.js";

const CONTRACT = { title: "T", version: "1.0.0", operations: ["createVenue", "getVenue"] };

/** The document with the edits applied one after the other. */
function edited(...edits: ((document: Json) => Json)[]): Json {
  return edits.reduce((document, edit) => edit(document), baseDocument());
}

describe("a release's section", () => {
  it("groups the changes: breaking (the package's names included), added, changed, fixed, each a sentence with its operation and field", async () => {
    const head = edited(
      (d) => withValue(d, "#/components/schemas/VenueCreate/required", ["name", "city"]),
      (d) => withValue(d, "#/components/schemas/Venue/properties/opened", { type: "string" }),
      (d) => without(d, "#/paths/~1venues~1{id}/get/parameters/1"),
      (d) => withValue(d, "#/paths/~1venues~1{id}/get/description", "Reads one venue, by its id."),
    );
    const report = await diffDocuments(baseDocument(), head);
    const section = changelogSection({
      version: "2.0.0",
      previous: "1.4.1",
      date: "2026-12-02",
      report,
      contract: CONTRACT,
    });
    expect(section).toBe(
      [
        "## 2.0.0 (2026-12-02)",
        "",
        "Compared with 1.4.1, the version published before it: 3 breaking, 1 added, 1 changed, 1 fixed.",
        "",
        "### Breaking changes",
        "",
        "- `getVenue` (the package's TypeScript): export(s) GetVenueQuery, validateGetVenueQuery no longer exist.",
        "- `createVenue` (what a call sends): type `VenueCreate`, property `city` became required (`optional` → `required`).",
        "- `getVenue` (the package's TypeScript): query parameter `q` was removed (clients that still send it are not told); client code (`client.getVenue`) written against the old types may no longer compile.",
        "",
        "### Added",
        "",
        "- `getVenue` (what a call receives): type `Venue`, property `opened` was added (optional).",
        "",
        "### Changed",
        "",
        "- `getVenue` (what a call sends): query parameter `q` was removed (clients that still send it are not told).",
        "",
        "### Fixed",
        "",
        "- `getVenue`: description added.",
        "",
      ].join("\n"),
    );
  });

  it("folds a change reaching several operations into one sentence naming them all, and gives an accepted one's reason", async () => {
    // Venue answers both operations
    const base = withValue(baseDocument(), "#/paths/~1venues/post/responses/201/content/application~1json/schema", {
      $ref: "#/components/schemas/Venue",
    });
    const head = withValue(base, "#/components/schemas/Venue/properties/name/maxLength", 200);
    const report = await diffDocuments(base, head);
    const accepted = {
      ...report,
      changes: report.changes.map((change) => ({ ...change, accepted: { reason: "Names were never longer." } })),
    };
    const section = changelogSection({
      version: "1.5.0",
      previous: "1.4.1",
      date: "2026-12-02",
      report: accepted,
      contract: CONTRACT,
    });
    expect(section).toContain(
      "### Breaking changes\n\n- `createVenue`, `getVenue` (what a call receives): type `Venue`, property `name`: maxLength changed from 100 to 200 (`100` → `200`).",
    );
    expect(section.match(/^- /gm)).toHaveLength(1);
    expect(section).toMatch(/\(`100` → `200`\)\. Accepted: Names were never longer\.\n$/);
  });

  it("says so when the contract did not change", async () => {
    const report = await diffDocuments(baseDocument(), baseDocument());
    expect(
      changelogSection({ version: "1.4.2", previous: "1.4.1", date: "2026-12-02", report, contract: CONTRACT }),
    ).toBe(
      "## 1.4.2 (2026-12-02)\n\nCompared with 1.4.1, the version published before it: no change to the contract.\n\nThe contract did not change: the package's code did.\n",
    );
  });

  it("names the contract and its operations in the first release's", () => {
    expect(changelogSection({ version: "1.0.0", date: "2026-12-02", contract: CONTRACT })).toBe(
      "## 1.0.0 (2026-12-02)\n\nFirst release, from the contract T 1.0.0: 2 operations (`createVenue`, `getVenue`).\n",
    );
  });
});

describe("the changelog", () => {
  const section = "## 1.1.0 (2026-12-02)\n\nSomething.\n";

  it("is made with its title and first section when there is none", () => {
    expect(addSection(undefined, section)).toMatch(/^# Changelog\n\n.+\n\n## 1\.1\.0 \(2026-12-02\)\n\nSomething\.\n$/);
  });

  it("gets the new section on top of the others, below its title", () => {
    const before = "# Changelog\n\nIntro.\n\n## 1.0.0 (2026-11-30)\n\nFirst.\n";
    expect(addSection(before, section)).toBe(
      "# Changelog\n\nIntro.\n\n## 1.1.0 (2026-12-02)\n\nSomething.\n\n## 1.0.0 (2026-11-30)\n\nFirst.\n",
    );
  });
});
