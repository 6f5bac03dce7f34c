import { describe, expect, it } from "vitest";
import type { ValidatorEntry } from "../../../../src/compiler/index.js";
import { createAjv } from "./support/ajv-oracle.js";
import { moduleFor } from "./support/compile-helpers.js";
import { type Validate, validatorOf } from "./support/load.js";

function openApi(version: string, schemas: Record<string, unknown>): Record<string, unknown> {
  return { openapi: version, info: { title: "t", version: "1" }, paths: {}, components: { schemas } };
}

async function validators(
  document: unknown,
  entries: ValidatorEntry[],
  dialect?: "openapi-3.0" | "openapi-3.1",
): Promise<Record<string, Validate>> {
  const module = await moduleFor({ document, entries, ...(dialect === undefined ? {} : { dialect }) });
  return Object.fromEntries(entries.map((entry) => [entry.name, validatorOf(module, entry.name)]));
}

describe("coerceStrings for parameters", () => {
  const document = openApi("3.1.0", {
    Query: {
      type: "object",
      properties: {
        id: { type: "integer", minimum: 0 },
        ratio: { type: "number" },
        flag: { type: "boolean" },
        tags: { type: "array", items: { type: "integer" } },
        note: { type: ["integer", "null"] },
        name: { type: "string" },
      },
    },
  });
  const entries: ValidatorEntry[] = [
    { name: "validateQuery", schema: { pointer: "#/components/schemas/Query" }, coerceStrings: true },
  ];

  it("converts numeric, boolean, null and array strings and returns the copy", async () => {
    const { validateQuery } = await validators(document, entries);
    const input = { id: "7", ratio: "1.5", flag: "true", tags: "3", note: "null", name: "42" };
    const result = validateQuery?.(input);
    expect(result?.valid).toBe(true);
    expect(result?.value).toEqual({ id: 7, ratio: 1.5, flag: true, tags: [3], note: null, name: "42" });
    expect(input.id).toBe("7");
    expect(validateQuery?.({ tags: ["1", "2"] }).value).toEqual({ tags: [1, 2] });
  });

  it("rejects strings that are not integers, or violate the bounds after conversion", async () => {
    const { validateQuery } = await validators(document, entries);
    for (const id of ["1.5", "abc", "-1", "", "0x10"]) expect(validateQuery?.({ id }).valid).toBe(false);
    expect(validateQuery?.({ id: "abc" }).errors?.[0]?.message).toMatch(
      /^\/id must be integer \(an integer is written in decimal digits/,
    );
    expect(validateQuery?.({ id: "-1" }).errors?.[0]?.message).toBe("/id must be >= 0");
  });
});

describe("the text of an integer or a number parameter", () => {
  const document = openApi("3.1.0", {
    Query: {
      type: "object",
      properties: { id: { type: "integer" }, ratio: { type: "number" }, many: { type: "integer" } },
    },
  });
  const entries: ValidatorEntry[] = [
    { name: "validateQuery", schema: { pointer: "#/components/schemas/Query" }, coerceStrings: true },
  ];

  it.each([
    ["9007199254740991", 9007199254740991],
    ["-9007199254740991", -9007199254740991],
    ["0", 0],
    ["-17", -17],
  ])("accepts the canonical decimal %s exactly", async (text, value) => {
    const { validateQuery } = await validators(document, entries);
    expect(validateQuery?.({ id: text }).value).toEqual({ id: value });
  });

  it.each([
    "9007199254740992",
    "-9007199254740992",
    "18446744073709551616",
    "1e3",
    "1.0",
    "-0",
    "01",
    "+1",
    " 1",
    "1 ",
    "0x10",
    "",
  ])("refuses %j as an integer, never rounding it", async (text) => {
    const { validateQuery } = await validators(document, entries);
    const result = validateQuery?.({ id: text }, { allErrors: true });
    expect(result?.valid).toBe(false);
    expect(result?.errors).toEqual([
      expect.objectContaining({ instancePath: "/id", keyword: "type", params: { type: "integer" } }),
    ]);
    expect(result?.errors?.[0]?.message).toBe(
      '/id must be integer (an integer is written in decimal digits with an optional "-" and no "+", exponent, fraction or leading zero, from -9007199254740991 to 9007199254740991)',
    );
  });

  it("reads a number as a JSON number with a finite value", async () => {
    const { validateQuery } = await validators(document, entries);
    expect(validateQuery?.({ ratio: "1e3" }).value).toEqual({ ratio: 1000 });
    expect(validateQuery?.({ ratio: "-0.5" }).value).toEqual({ ratio: -0.5 });
    for (const text of ["1e400", ".5", "1.", "+1", "NaN", "Infinity"])
      expect(validateQuery?.({ ratio: text }).valid, text).toBe(false);
    expect(validateQuery?.({ ratio: "1e400" }).errors?.[0]?.message).toBe(
      "/ratio must be number (a number is written as a JSON number)",
    );
  });

  it("says when a single-valued parameter was sent more than once", async () => {
    const { validateQuery } = await validators(document, entries);
    expect(validateQuery?.({ many: ["1", "2"] }).errors?.[0]?.message).toBe(
      "/many must be integer (it was sent 2 times)",
    );
  });

  it("leaves the messages of values that did not arrive as text alone", async () => {
    const { validateQuery } = await validators(document, entries);
    expect(validateQuery?.({ id: true }).errors?.[0]?.message).toBe("/id must be integer");
  });
});

describe("coerceStrings inside nested objects and arrays (deepObject parameters, bracketed form fields)", () => {
  const document = openApi("3.1.0", {
    Form: {
      type: "object",
      properties: {
        filter: {
          type: "object",
          properties: { size: { type: "integer" }, ids: { type: "array", items: { type: "integer" } } },
        },
        lines: { type: "array", items: { $ref: "#/components/schemas/Line" } },
        extra: { type: "object", additionalProperties: { type: "boolean" } },
      },
    },
    Line: { type: "object", properties: { qty: { type: "integer" }, note: { type: "string" } } },
  });
  const entries: ValidatorEntry[] = [
    { name: "validateForm", schema: { pointer: "#/components/schemas/Form" }, coerceStrings: true },
  ];

  it("converts every level as its schema says, and copies only what changed", async () => {
    const { validateForm } = await validators(document, entries);
    const lines = [{ qty: "2", note: "7" }, { note: "x" }];
    const input = { filter: { size: "3", ids: "4" }, lines, extra: { a: "true", ["__proto__"]: "false" } };
    const result = validateForm?.(input);
    expect(result?.valid).toBe(true);
    expect(result?.value).toEqual({
      filter: { size: 3, ids: [4] },
      lines: [{ qty: 2, note: "7" }, { note: "x" }],
      extra: { a: true, ["__proto__"]: false },
    });
    expect(input.filter.size).toBe("3");
    expect((result?.value as { lines: unknown[] } | undefined)?.lines[1]).toBe(lines[1]);
    expect(validateForm?.({ filter: { size: "big" } }).errors?.[0]?.message).toMatch(
      /^\/filter\/size must be integer \(an integer is written/,
    );
  });
});

describe("readOnly and writeOnly follow the direction", () => {
  const document = openApi("3.1.0", {
    Account: {
      type: "object",
      required: ["id", "email", "password"],
      properties: {
        id: { $ref: "#/components/schemas/Id" },
        email: { type: "string" },
        password: { type: "string", writeOnly: true },
      },
    },
    Id: { type: "string", readOnly: true },
    Wrapper: { type: "object", properties: { account: { $ref: "#/components/schemas/Account" } } },
  });
  const pointer = "#/components/schemas/Wrapper";
  const entries: ValidatorEntry[] = [
    { name: "validateRequest", schema: { pointer }, direction: "request" },
    { name: "validateResponse", schema: { pointer }, direction: "response" },
    { name: "validateNeutral", schema: { pointer } },
  ];

  it("rejects readOnly properties in requests, through $refs, and waives their required-ness", async () => {
    const v = await validators(document, entries);
    expect(v["validateRequest"]?.({ account: { email: "a", password: "p" } }).valid).toBe(true);
    const result = v["validateRequest"]?.({ account: { id: "1", email: "a", password: "p" } });
    expect(result?.errors?.[0]?.message).toBe("/account/id is read-only and must not be sent in a request");
  });

  it("rejects writeOnly properties in responses", async () => {
    const v = await validators(document, entries);
    expect(v["validateResponse"]?.({ account: { id: "1", email: "a" } }).valid).toBe(true);
    expect(v["validateResponse"]?.({ account: { id: "1", email: "a", password: "p" } }).errors?.[0]?.keyword).toBe(
      "writeOnly",
    );
    expect(v["validateResponse"]?.({ account: { email: "a" } }).valid).toBe(false);
  });

  it("allows both in neutral direction", async () => {
    const v = await validators(document, entries);
    expect(v["validateNeutral"]?.({ account: { id: "1", email: "a", password: "p" } }).valid).toBe(true);
  });
});

describe("discriminator", () => {
  const document = openApi("3.1.0", {
    Pet: {
      oneOf: [
        { $ref: "#/components/schemas/Dog" },
        { $ref: "#/components/schemas/Cat" },
        { $ref: "#/components/schemas/Lizard" },
      ],
      discriminator: { propertyName: "kind", mapping: { dog: "#/components/schemas/Dog", cat: "Cat" } },
    },
    Dog: {
      type: "object",
      required: ["kind", "bark"],
      properties: { kind: { type: "string" }, bark: { type: "boolean" } },
    },
    Cat: {
      type: "object",
      required: ["kind", "lives"],
      properties: { kind: { type: "string" }, lives: { type: "integer" } },
    },
    Lizard: { type: "object", required: ["kind"], properties: { kind: { type: "string" } } },
  });
  const entries: ValidatorEntry[] = [{ name: "validatePet", schema: { pointer: "#/components/schemas/Pet" } }];

  it("validates only the branch the tag selects, by mapping and by schema name", async () => {
    const { validatePet } = await validators(document, entries);
    expect(validatePet?.({ kind: "dog", bark: true }).valid).toBe(true);
    expect(validatePet?.({ kind: "cat", lives: 9 }).valid).toBe(true);
    expect(validatePet?.({ kind: "Lizard" }).valid).toBe(true);
    const wrong = validatePet?.({ kind: "cat", bark: true });
    expect(wrong?.errors).toHaveLength(1);
    expect(wrong?.errors?.[0]?.message).toBe("must have required property 'lives'");
  });

  it("reports a missing or unknown tag clearly", async () => {
    const { validatePet } = await validators(document, entries);
    expect(validatePet?.({ bark: true }).errors?.[0]?.message).toBe(
      "must have required property 'kind' (discriminator)",
    );
    expect(validatePet?.({ kind: "cow" }).errors?.[0]?.message).toBe(
      '/kind must be one of: "dog", "cat", "Lizard" (discriminator)',
    );
    expect(validatePet?.({ kind: 3 }).errors?.[0]?.message).toBe("/kind must be a string (discriminator)");
  });

  it("also reads tag values from the branches' const/enum, leaving shared values to plain oneOf", async () => {
    const filters = openApi("3.1.0", {
      Filter: {
        oneOf: [
          { $ref: "#/components/schemas/Compare" },
          { $ref: "#/components/schemas/Combine" },
          { $ref: "#/components/schemas/Legacy" },
        ],
        discriminator: { propertyName: "type" },
      },
      Compare: {
        type: "object",
        required: ["type", "key"],
        properties: { type: { enum: ["eq", "ne", "old"] }, key: { type: "string" } },
      },
      Combine: {
        type: "object",
        required: ["type", "filters"],
        properties: { type: { const: "and" }, filters: { type: "array" } },
      },
      Legacy: {
        type: "object",
        required: ["type", "expr"],
        properties: { type: { enum: ["old"] }, expr: { type: "string" } },
      },
    });
    const { validateFilter } = await validators(filters, [
      { name: "validateFilter", schema: { pointer: "#/components/schemas/Filter" } },
    ]);
    expect(validateFilter?.({ type: "eq", key: "k" }).valid).toBe(true);
    expect(validateFilter?.({ type: "and", filters: [] }).valid).toBe(true);
    expect(validateFilter?.({ type: "and", key: "k" }).errors?.[0]?.message).toBe(
      "must have required property 'filters'",
    );
    expect(validateFilter?.({ type: "Compare", key: "k" }).errors?.[0]?.keyword).toBe("enum");
    expect(validateFilter?.({ type: "old", expr: "x" }).valid).toBe(true);
    expect(validateFilter?.({ type: "old", key: "k", expr: "x" }).errors?.[0]?.keyword).toBe("oneOf");
  });

  it("is a mapping Ajv refuses to compile", () => {
    const ajv = createAjv({ discriminator: true });
    ajv.addSchema(document, "doc");
    expect(() => ajv.getSchema("doc#/components/schemas/Pet")).toThrow(/mapping/);
  });
});

describe("discriminator.defaultMapping (OpenAPI 3.2)", () => {
  const document = openApi("3.2.0", {
    Shape: {
      oneOf: [
        { $ref: "#/components/schemas/Circle" },
        { $ref: "#/components/schemas/Square" },
        { $ref: "#/components/schemas/Plain" },
      ],
      discriminator: { propertyName: "kind", mapping: { circle: "Circle" }, defaultMapping: "Plain" },
    },
    Circle: {
      type: "object",
      required: ["kind", "radius"],
      properties: { kind: { const: "circle" }, radius: { type: "number" } },
    },
    Square: {
      type: "object",
      required: ["kind", "side"],
      properties: { kind: { const: "square" }, side: { type: "number" } },
    },
    Plain: {
      type: "object",
      required: ["label"],
      properties: { kind: { type: "string" }, label: { type: "string" } },
    },
    // the default outside the branches, by reference
    Event: {
      anyOf: [{ $ref: "#/components/schemas/Circle" }],
      discriminator: { propertyName: "kind", defaultMapping: "#/components/schemas/Unknown" },
    },
    Unknown: { type: "object", required: ["raw"], properties: { raw: { type: "string" } } },
  });
  const entries: ValidatorEntry[] = [
    { name: "validateShape", schema: { pointer: "#/components/schemas/Shape" } },
    { name: "validateEvent", schema: { pointer: "#/components/schemas/Event" } },
  ];

  it("validates an object without the tag, or with a tag nothing maps, against the default schema", async () => {
    const { validateShape } = await validators(document, entries);
    expect(validateShape?.({ kind: "circle", radius: 1 }).valid).toBe(true);
    expect(validateShape?.({ kind: "square", side: 2 }).valid).toBe(true);
    expect(validateShape?.({ label: "no kind" }).valid).toBe(true);
    expect(validateShape?.({ kind: "hexagon", label: "unmapped" }).valid).toBe(true);
    expect(validateShape?.({ kind: "Plain", label: "by its name" }).valid).toBe(true);
    // the default schema judges the object, its tag included
    expect(validateShape?.({}).errors?.map((e) => e.message)).toEqual(["must have required property 'label'"]);
    expect(validateShape?.({ kind: 7, label: "x" }).errors?.map((e) => e.message)).toEqual(["/kind must be string"]);
    // a mapped tag still selects its own branch, never the default
    expect(validateShape?.({ kind: "circle", label: "x" }).errors?.map((e) => e.message)).toEqual([
      "must have required property 'radius'",
    ]);
  });

  it("reaches a default schema that is none of the branches", async () => {
    const { validateEvent } = await validators(document, entries);
    expect(validateEvent?.({ kind: "circle", radius: 1 }).valid).toBe(true);
    expect(validateEvent?.({ raw: "?" }).valid).toBe(true);
    expect(validateEvent?.({ kind: "other", raw: "?" }).valid).toBe(true);
    expect(validateEvent?.({ kind: "other" }).errors?.map((e) => e.message)).toEqual([
      "must have required property 'raw'",
    ]);
  });
});

describe("OpenAPI 3.0 keywords", () => {
  it("lets nullable: true accept null in both OpenAPI dialects, as the generated types (T | null) do", async () => {
    for (const [version, dialect] of [
      ["3.0.3", "openapi-3.0"],
      ["3.1.0", "openapi-3.1"],
    ] as const) {
      const document = openApi(version, {
        Name: { type: "string", nullable: true, maxLength: 3 },
        Tag: { type: "string", nullable: true, enum: ["a"] },
        Either: { nullable: true, anyOf: [{ type: "string" }, { type: "integer" }] },
      });
      const v = await validators(
        document,
        [
          { name: "validateName", schema: { pointer: "#/components/schemas/Name" } },
          { name: "validateTag", schema: { pointer: "#/components/schemas/Tag" } },
          { name: "validateEither", schema: { pointer: "#/components/schemas/Either" } },
        ],
        dialect,
      );
      expect(v["validateName"]?.(null).valid).toBe(true);
      expect(v["validateName"]?.("abcd").valid).toBe(false);
      expect(v["validateTag"]?.(null).valid).toBe(true);
      expect(v["validateTag"]?.("b").valid).toBe(false);
      expect(v["validateEither"]?.(null).valid).toBe(true);
      expect(v["validateEither"]?.(1.5).valid).toBe(false);
    }
  });

  it("reads boolean exclusiveMinimum/exclusiveMaximum as modifiers", async () => {
    const document = openApi("3.0.3", {
      Ratio: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: false },
    });
    const { validateRatio } = await validators(
      document,
      [{ name: "validateRatio", schema: { pointer: "#/components/schemas/Ratio" } }],
      "openapi-3.0",
    );
    expect(validateRatio?.(0).valid).toBe(false);
    expect(validateRatio?.(0.5).valid).toBe(true);
    expect(validateRatio?.(1).valid).toBe(true);
  });

  it("ignores $ref siblings in 3.0 and applies them in 3.1", async () => {
    const schemas = {
      Short: { type: "string", maxLength: 10 },
      Field: { $ref: "#/components/schemas/Short", minLength: 5 },
    };
    const entries: ValidatorEntry[] = [{ name: "validateField", schema: { pointer: "#/components/schemas/Field" } }];
    const v30 = await validators(openApi("3.0.3", schemas), entries, "openapi-3.0");
    const v31 = await validators(openApi("3.1.0", schemas), entries, "openapi-3.1");
    expect(v30["validateField"]?.("abc").valid).toBe(true);
    expect(v31["validateField"]?.("abc").valid).toBe(false);
  });
});
