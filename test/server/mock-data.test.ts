/**
 * The mock data builder of the server emitter: every sample it builds, and every example its
 * checker vouches for, is valid by Ajv 2020 (the oracle); examples that are not valid are refused.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { SchemaChecker } from "../../src/emit/server/mock-check.js";
import { SampleBuilder } from "../../src/emit/server/mock-sample.js";

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

const schemas: Record<string, unknown> = {
  Pattern: { type: "string", pattern: "^/v1/items/[^/]+$", maxLength: 40 },
  Bounded: { type: "object", required: ["n", "s"], properties: { n: { type: "integer", exclusiveMinimum: 5, multipleOf: 3 }, s: { type: "string", minLength: 12, format: "email" } } },
  Dated: { type: "object", required: ["on", "at", "id"], properties: { on: { type: "string", format: "date" }, at: { type: "string", format: "date-time" }, id: { type: "string", format: "uuid" } } },
  Base: { type: "object", required: ["kind"], properties: { kind: { type: "string" }, secret: { type: "string", writeOnly: true } } },
  Extended: { allOf: [{ $ref: "#/components/schemas/Base" }, { type: "object", required: ["size"], properties: { size: { type: "number", minimum: 0.5, maximum: 0.75 } } }] },
  Cat: { type: "object", required: ["pet", "lives"], properties: { pet: { type: "string" }, lives: { type: "integer", minimum: 1 } } },
  Dog: { type: "object", required: ["pet", "bark"], properties: { pet: { type: "string" }, bark: { type: "boolean" } } },
  Pet: { oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }], discriminator: { propertyName: "pet" } },
  Tree: { type: "object", required: ["name"], properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/components/schemas/Tree" } } } },
  Either: { anyOf: [{ type: "null" }, { type: "array", minItems: 2, uniqueItems: false, items: { enum: ["a", "b"] } }] },
  Tuple: { type: "array", prefixItems: [{ const: "x" }, { type: "integer" }], items: false, minItems: 2 },
  Map: { type: "object", minProperties: 2, additionalProperties: { type: "integer", maximum: -3 } },
  Exclusive: { oneOf: [{ type: "object", required: ["a"] }, { type: "object", required: ["b"] }] },
};
const document = { openapi: "3.1.0", components: { schemas } };
const ref = (name: string): unknown => ({ $ref: `#/components/schemas/${name}` });

function oracle(): (name: string, value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addKeyword({ keyword: "discriminator" });
  ajv.addSchema({ ...document, $id: "doc.json" });
  return (name, value) => ajv.validate({ $ref: `doc.json#/components/schemas/${name}` }, value) as boolean;
}

describe("mock samples", () => {
  const checker = new SchemaChecker(document, false);
  const builder = new SampleBuilder(checker);
  const valid = oracle();

  for (const name of Object.keys(schemas)) {
    it(`${name}: the sample is valid`, () => {
      const sample = builder.build(ref(name));
      expect(sample).toBeDefined();
      expect(valid(name, sample?.value)).toBe(true);
    });
  }

  it("leaves writeOnly properties out and sets the discriminator tag", () => {
    expect(builder.build(ref("Extended"))?.value).not.toHaveProperty("secret");
    expect(["Cat", "Dog"]).toContain((builder.build(ref("Pet"))?.value as { pet?: unknown }).pet);
  });
});

describe("the example checker", () => {
  const checker = new SchemaChecker(document, false);
  const valid = oracle();
  const cases: [string, unknown][] = [
    ["Pattern", "/v1/items/1"], ["Pattern", "/v1/items/"], ["Bounded", { n: 9, s: "someone@example.com" }], ["Bounded", { n: 6, s: "someone@example.com" }],
    ["Dated", { on: "2024-02-29", at: "2024-02-29T10:00:00Z", id: "3fa85f64-5717-4562-b3fc-2c963f66afa6" }], ["Dated", { on: "2023-02-29", at: "x", id: "y" }],
    ["Pet", { pet: "Cat", lives: 3 }], ["Pet", { pet: "cat", lives: 3 }], ["Pet", { pet: "Dog", lives: 3 }],
    ["Exclusive", { a: 1 }], ["Exclusive", { a: 1, b: 2 }], ["Tuple", ["x", 1]], ["Tuple", ["x", 1, 2]], ["Map", { a: -3, b: -4 }], ["Map", { a: -2, b: -4 }],
    ["Extended", { kind: "k", size: 0.5, secret: "s" }], ["Tree", { name: "a", children: [{ name: "b" }, { name: 1 }] }],
  ];
  for (const [name, value] of cases) {
    it(`${name} ${JSON.stringify(value)}: vouched for only if valid`, () => {
      if (checker.conforms(ref(name), value)) expect(valid(name, value)).toBe(true);
    });
  }

  it("refuses invalid examples and writeOnly values in answers", () => {
    expect(checker.conforms(ref("Pet"), { pet: "Dog", lives: 3 })).toBe(false);
    expect(checker.conforms(ref("Exclusive"), { a: 1, b: 2 })).toBe(false);
    expect(checker.conforms(ref("Extended"), { kind: "k", size: 0.5, secret: "s" })).toBe(false);
    expect(checker.conforms(ref("Pattern"), "/v1/items/")).toBe(false);
    expect(checker.conforms({ type: "object" }, JSON.parse('{"__proto__":{}}'))).toBe(false);
  });
});
