/**
 * The version a release takes: the published one bumped as spec:diff advises (as npm reads ranges
 * below 1.0.0), a higher one asked for, a lower one refused with why; the first release's.
 */
import { describe, expect, it } from "vitest";
import { GenerationFailed } from "../../../../src/diagnostics/diagnostic.js";
import { buildReport } from "../../../../src/diff/report/report.js";
import type { Change } from "../../../../src/diff/report/types.js";
import { chooseVersion } from "../../../../src/release/version.js";

const REMOVED: Change = {
  rule: "api-removed",
  severity: "breaking",
  direction: "operation",
  operation: "listWageRules",
  pointer: "#/paths/~1wage-rules/get",
  message: "listWageRules (GET /wage-rules): removed; its client method and handler go with it",
};
const ADDED: Change = {
  rule: "new-optional-request-property",
  severity: "info",
  direction: "request",
  operation: "createVenue",
  pointer: "#/components/schemas/VenueCreate/properties/country",
  message: "type `VenueCreate`, property `country`: added (optional)",
};
const DOCUMENTED: Change = {
  rule: "documentation-changed",
  severity: "info",
  direction: "operation",
  operation: "createVenue",
  pointer: "#/paths/~1venues/post/description",
  message: "operation createVenue: description changed",
};

const breaking = buildReport([REMOVED, ADDED]);
const additive = buildReport([ADDED, DOCUMENTED]);
const documented = buildReport([DOCUMENTED]);
const none = buildReport([]);

/** The failure's diagnostic, as the command prints it: its code and message. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof GenerationFailed) return error.diagnostics.map((d) => `${d.code} ${d.message}`).join("\n");
    throw error;
  }
  return "not refused";
}

describe("chooseVersion", () => {
  it.each([
    ["1.4.2", breaking, "2.0.0"],
    ["1.4.2", additive, "1.5.0"],
    ["1.4.2", documented, "1.4.3"],
    // below 1.0.0, npm reads ^0.3.1 as 0.3.x: a breaking change needs a new minor version, an addition a patch
    ["0.3.1", breaking, "0.4.0"],
    ["0.3.1", additive, "0.3.2"],
    ["0.0.3", breaking, "0.0.4"],
  ])("bumps %s as the changes advise", (published, report, version) => {
    expect(chooseVersion({ published, report, current: "0.0.0" }).version).toBe(version);
  });

  it("says why it takes the advised version", () => {
    expect(chooseVersion({ published: "1.4.2", report: breaking, current: "1.4.2" }).reason).toBe(
      "1.4.2 with a major bump: 1 breaking change(s) (listWageRules (GET /wage-rules): removed; its client method and handler go with it)",
    );
  });

  it("takes a higher version asked for: the first major, or a bump larger than advised", () => {
    expect(chooseVersion({ published: "0.3.1", report: additive, requested: "1.0.0", current: "0.3.1" }).version).toBe(
      "1.0.0",
    );
    expect(chooseVersion({ published: "1.4.2", report: documented, requested: "1.5.0", current: "1.4.2" })).toEqual({
      version: "1.5.0",
      reason: "--version, at least the patch bump the changes need",
    });
  });

  it("refuses a version lower than advised, naming the changes that need more", () => {
    expect(
      refusal(() => chooseVersion({ published: "1.4.2", report: breaking, requested: "1.5.0", current: "" })),
    ).toBe(
      "RELEASE_VERSION --version 1.5.0 is lower than 2.0.0, which the changes since 1.4.2 need (a major bump): 1 breaking change(s) (listWageRules (GET /wage-rules): removed; its client method and handler go with it)",
    );
  });

  it("refuses a version already published, or below it", () => {
    for (const requested of ["1.4.2", "1.3.9"])
      expect(refusal(() => chooseVersion({ published: "1.4.2", report: breaking, requested, current: "" }))).toBe(
        `RELEASE_VERSION --version ${requested} is not above 1.4.2, the registry's latest version: a version is published once`,
      );
  });

  it("refuses to release a contract that has not changed, unless a version is asked for", () => {
    expect(refusal(() => chooseVersion({ published: "1.4.2", report: none, current: "1.4.2" }))).toBe(
      "RELEASE_NOTHING the contract has not changed since 1.4.2, the registry's latest version: spec:diff finds no change to release",
    );
    expect(chooseVersion({ published: "1.4.2", report: none, requested: "1.4.3", current: "1.4.2" }).version).toBe(
      "1.4.3",
    );
  });

  it("takes package.json's version for the first release, or the one asked for", () => {
    expect(chooseVersion({ current: "0.2.0" })).toEqual({
      version: "0.2.0",
      reason: "first release: nothing is published yet, so package.json's version is taken",
    });
    expect(chooseVersion({ requested: "1.0.0", current: "0.2.0" }).version).toBe("1.0.0");
  });

  it("refuses what is not a plain version, saying where it came from", () => {
    expect(refusal(() => chooseVersion({ requested: "2.0.0-rc.1", current: "0.2.0" }))).toBe(
      'RELEASE_VERSION --version "2.0.0-rc.1" is not a version of the form 1.2.3',
    );
    expect(refusal(() => chooseVersion({ current: "^1.0.0" }))).toBe(
      `RELEASE_VERSION package.json's version "^1.0.0" is not a version of the form 1.2.3`,
    );
  });
});
