/**
 * One validator imported from `./validators` is bundled with what it calls and nothing else: the
 * module's constants and its `schemas` object are marked pure, so a bundler drops what no kept
 * code names. Bundled by esbuild for the browser, as a page is.
 */
import { describe, expect, it } from "vitest";
import { bundleBesideGenerated } from "../../support/page-bundle.js";

/** The functions a bundle of `source` (a module beside generated/) defines, unminified. */
async function definedFunctions(source: string): Promise<string[]> {
  const text = await bundleBesideGenerated(source);
  return [...text.matchAll(/^function (\$?\w+)/gm)].map((match) => match[1] ?? "");
}

describe("a validator imported alone", () => {
  it("brings its own schema's functions and no other's", async () => {
    const venue = await definedFunctions(
      `import { validateVenueCreate } from "./validators/index.js"; console.log(validateVenueCreate({}));`,
    );
    expect(venue).toContain("validateVenueCreate");
    expect(venue.filter((name) => name.startsWith("$v_"))).toEqual(["$v_VenueCreate"]);
    expect(venue).not.toContain("$standard");
  });

  it("brings the schemas it references: an event body its venue input and custom fields", async () => {
    const event = await definedFunctions(
      `import { validateEventCreate } from "./validators/index.js"; console.log(validateEventCreate({}));`,
    );
    expect(event.filter((name) => name.startsWith("$v_")).sort()).toEqual([
      "$v_CustomFieldInput",
      "$v_EventCreate",
      "$v_EventVenueInput",
      "$v_EventWriteFields",
    ]);
  });

  it("keeps every validator when the schemas object is used", async () => {
    const all = await definedFunctions(`import { schemas } from "./validators/index.js"; console.log(schemas);`);
    expect(all).toContain("$standard");
    expect(all).toContain("$v_Venue");
    expect(all).toContain("$v_EventList");
  });
});
