import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { validatorFor } from "./support/compile-helpers.js";

afterEach(() => {
  expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
});

describe("object keys are data, checked as own properties", () => {
  it("requires __proto__, constructor and toString as own properties", async () => {
    const validate = await validatorFor({ type: "object", required: ["__proto__", "constructor", "toString"] });
    expect(validate({}).valid).toBe(false);
    expect(validate(JSON.parse('{"__proto__": 1, "constructor": 2, "toString": 3}')).valid).toBe(true);
    const missing = validate(JSON.parse('{"__proto__": 1, "toString": 3}'));
    expect(missing.errors?.[0]?.message).toBe("must have required property 'constructor'");
  });

  it("validates properties named after Object.prototype members by their own value", async () => {
    const validate = await validatorFor(
      JSON.parse('{"type": "object", "properties": {"__proto__": {"type": "number"}, "toString": {"type": "string"}}}'),
    );
    expect(validate({}).valid).toBe(true);
    expect(validate(JSON.parse('{"__proto__": "x"}')).valid).toBe(false);
    expect(validate(JSON.parse('{"__proto__": 5, "toString": "y"}')).valid).toBe(true);
    expect(validate(JSON.parse('{"toString": 5}')).valid).toBe(false);
  });

  it("rejects an own __proto__ key under additionalProperties false", async () => {
    const validate = await validatorFor({ type: "object", properties: { a: {} }, additionalProperties: false });
    const result = validate(JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(result.valid).toBe(false);
    expect(result.errors?.[0]?.params).toEqual({ additionalProperty: "__proto__" });
  });

  it("does not treat inherited properties as present", async () => {
    const validate = await validatorFor({
      type: "object",
      required: ["name"],
      properties: { name: { type: "string" } },
    });
    const inherited = Object.create({ name: "from prototype" }) as object;
    expect(validate(inherited).valid).toBe(false);
  });

  it("looks declared properties up as own properties on objects of any prototype", async () => {
    const validate = await validatorFor({
      type: "object",
      required: ["name"],
      properties: { name: { type: "string" }, size: { type: "integer" } },
    });
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { name: "x", size: 1 });
    expect(validate(bare).valid).toBe(true);
    expect(validate(Object.assign(Object.create(null) as object, { size: 1 })).errors?.[0]?.keyword).toBe("required");
    expect(
      validate(Object.assign(Object.create(null) as object, { name: "x", size: "1" })).errors?.[0]?.instancePath,
    ).toBe("/size");
    const hidden = Object.defineProperty({ size: 1 }, "name", { value: 5, enumerable: false });
    expect(validate(hidden).errors?.[0]?.instancePath).toBe("/name");
    const foreign = runInNewContext('({ name: "x", size: 1.5 })') as object;
    expect(validate(foreign).errors?.[0]?.instancePath).toBe("/size");
  });

  it("does not read names a polluted Object.prototype holds as present", async () => {
    const validate = await validatorFor({
      type: "object",
      required: ["name"],
      properties: { name: { type: "string" }, size: { type: "integer" } },
    });
    const prototype = Object.prototype as Record<string, unknown>;
    prototype["size"] = "polluted";
    try {
      expect(validate({ name: "x" }).valid).toBe(true);
      expect(validate({ name: "x", size: 2 }).valid).toBe(true);
      expect(validate({ size: 2 }).errors?.[0]?.keyword).toBe("required");
    } finally {
      delete prototype["size"];
    }
    expect(validate({ name: "x", size: "1" }).valid).toBe(false);
  });

  it("does not pollute Object.prototype while validating hostile input", async () => {
    const validate = await validatorFor(
      JSON.parse(
        '{"type": "object", "properties": {"__proto__": {"type": "object", "properties": {"polluted": {"type": "boolean"}}}}, "additionalProperties": {"type": "object"}}',
      ),
    );
    validate(JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}'), {
      allErrors: true,
    });
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("compares enum and const objects containing __proto__ keys as data", async () => {
    const validate = await validatorFor({ const: JSON.parse('{"__proto__": {"a": 1}}') });
    expect(validate(JSON.parse('{"__proto__": {"a": 1}}')).valid).toBe(true);
    expect(validate({}).valid).toBe(false);
  });
});

describe("instance paths are JSON pointers", () => {
  it("escapes ~ and / in keys", async () => {
    const validate = await validatorFor({ additionalProperties: { type: "number" } });
    const result = validate({ "a/b~c": "x" });
    expect(result.errors?.[0]?.instancePath).toBe("/a~1b~0c");
    expect(result.errors?.[0]?.message).toBe("/a~1b~0c must be number");
  });

  it("points into nested objects and arrays", async () => {
    const validate = await validatorFor({
      type: "object",
      properties: {
        venue: {
          type: "object",
          required: ["zip"],
          properties: { tags: { type: "array", items: { type: "string" } } },
        },
      },
    });
    expect(validate({ venue: {} }).errors?.[0]?.message).toBe("/venue must have required property 'zip'");
    const result = validate({ venue: { zip: "1", tags: ["a", 2] } });
    expect(result.errors?.[0]?.instancePath).toBe("/venue/tags/1");
    expect(result.errors?.[0]?.schemaPath).toBe("#/properties/venue/properties/tags/items/type");
  });

  it("prefixes paths of errors raised in referenced schemas", async () => {
    const validate = await validatorFor({
      $defs: { zip: { type: "string", maxLength: 5 } },
      type: "object",
      properties: { list: { type: "array", items: { type: "object", properties: { zip: { $ref: "#/$defs/zip" } } } } },
    });
    const result = validate({ list: [{ zip: "1" }, { zip: "123456" }] });
    expect(result.errors?.[0]?.instancePath).toBe("/list/1/zip");
    expect(result.errors?.[0]?.schemaPath).toBe("#/$defs/zip/maxLength");
    expect(result.errors?.[0]?.message).toBe("/list/1/zip must be at most 5 characters");
  });
});

describe("other object keywords", () => {
  it("checks propertyNames, patternProperties and property counts", async () => {
    const validate = await validatorFor({
      type: "object",
      propertyNames: { maxLength: 3 },
      patternProperties: { "^x": { type: "number" } },
      minProperties: 1,
      maxProperties: 2,
    });
    expect(validate({ x1: 1 }).valid).toBe(true);
    expect(validate({ x1: "a" }).valid).toBe(false);
    expect(validate({ long: 1 }).errors?.[0]?.keyword).toBe("propertyNames");
    expect(validate({}).valid).toBe(false);
    expect(validate({ a: 1, b: 2, c: 3 }).valid).toBe(false);
  });

  it("checks dependentRequired and dependentSchemas", async () => {
    const validate = await validatorFor({
      dependentRequired: { card: ["billing"] },
      dependentSchemas: { vip: { required: ["level"] } },
    });
    expect(validate({ card: 1 }).errors?.[0]?.message).toBe(
      "must have property 'billing' when property 'card' is present",
    );
    expect(validate({ card: 1, billing: 2 }).valid).toBe(true);
    expect(validate({ vip: true }).valid).toBe(false);
    expect(validate({ vip: true, level: 1 }).valid).toBe(true);
  });
});
