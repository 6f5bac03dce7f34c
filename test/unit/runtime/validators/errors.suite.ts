import { describe, expect, it } from "vitest";
import {
  $deep,
  $escape,
  $fail,
  $invalid,
  $MAX_DEPTH,
  $mark,
  $prefix,
} from "../../../../runtime/validators/helpers/errors.js";
import type { $Sink } from "../../../../runtime/validators/helpers/module.js";

const sink = (): $Sink => ({ valid: true, value: 1, errors: undefined });

describe("error helpers", () => {
  it("$fail records an error in a sink and answers `a` (go on collecting), and answers false without one", () => {
    const r = sink();
    expect($fail(r, true, "type", { type: "string" }, "must be string", "/a", "#/type")).toBe(true);
    expect($fail(r, false, "required", {}, "must have b", "", "#/required")).toBe(false);
    expect(r.errors?.map((error) => error.keyword)).toEqual(["type", "required"]);
    expect($fail(null, true, "type", {}, "m", "", "#")).toBe(false);
  });

  it("$fail puts the instance path in front of the message, and joins a schema path given in two parts", () => {
    const r = sink();
    $fail(r, true, "type", {}, "must be string", "/a/b", "#/components/schemas/X", "/properties/a/type");
    $fail(r, true, "type", {}, "must be object", "", "#/components/schemas/X", "/type");
    $fail(r, true, "type", {}, "must be object", "", "#/type");
    expect(r.errors?.map((error) => [error.instancePath, error.schemaPath, error.message])).toEqual([
      ["/a/b", "#/components/schemas/X/properties/a/type", "/a/b must be string"],
      ["", "#/components/schemas/X/type", "must be object"],
      ["", "#/type", "must be object"],
    ]);
  });

  it("$mark and $prefix put a child's path in front of the errors it added, message included", () => {
    const r = sink();
    $fail(r, true, "type", {}, "before", "", "#/x");
    const start = $mark(r);
    $fail(r, true, "type", {}, "must be string", "", "#/y");
    $fail(r, true, "type", {}, "must be string", "/b", "#/z");
    $prefix(r, start, "/a");
    expect(r.errors?.map((error) => [error.instancePath, error.message])).toEqual([
      ["", "before"],
      ["/a", "/a must be string"],
      ["/a/b", "/a/b must be string"],
    ]);
    expect($mark(null)).toBe(0);
  });

  it("$escape writes a key as a JSON Pointer segment", () => {
    expect($escape("a/b~c")).toBe("a~1b~0c");
    expect($escape(3)).toBe("3");
    expect($escape("plain")).toBe("plain");
  });

  it("$deep reports the depth limit, and $invalid turns a sink into an invalid result", () => {
    const r = sink();
    expect($deep(r, "#/components/schemas/Tree")).toBe(false);
    expect(r.errors?.[0]).toMatchObject({ keyword: "maxDepth", params: { limit: $MAX_DEPTH } });
    expect($invalid(sink())).toEqual({ valid: false, value: undefined, errors: [] });
  });
});
