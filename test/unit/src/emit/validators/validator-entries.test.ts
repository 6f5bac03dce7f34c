import { describe, expect, it } from "vitest";
import type { ValidatorEntry } from "../../../../../src/compiler/index.js";
import { withSharedKeys, withUniqueKeys } from "../../../../../src/emit/validators/validator-entries.js";

const entry = (name: string, keys: string[]): ValidatorEntry => ({
  name,
  schema: { pointer: "#" },
  standardSchemaKeys: keys,
});

describe("the keys of `schemas`", () => {
  it("give a shared validator the keys of the operations sharing it", () => {
    const shared = withSharedKeys(
      [entry("validateClientUpdate", ["ClientUpdate"])],
      [
        ["validateClientUpdate", "ClientUpdate"],
        ["validateClientUpdate", "UpdateClientBody"],
      ],
    );
    expect(withUniqueKeys(shared).map((e) => e.standardSchemaKeys)).toEqual([["ClientUpdate", "UpdateClientBody"]]);
  });

  it("keep each key on the first validator asking for it", () => {
    const entries = [
      entry("validateCreateThingBody", ["CreateThingBody"]),
      entry("validateCreateThingBodyJson", ["CreateThingBodyJson", "CreateThingBody"]),
    ];
    expect(withUniqueKeys(entries).map((e) => e.standardSchemaKeys)).toEqual([
      ["CreateThingBody"],
      ["CreateThingBodyJson"],
    ]);
  });
});
