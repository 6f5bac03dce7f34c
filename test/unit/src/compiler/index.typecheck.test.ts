import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { compileSchema, compileValidatorModule, type ValidatorEntry } from "../../../../src/compiler/index.js";
import { REPO_ROOT } from "./support/suite-corpus.js";
import { typecheck } from "./support/typecheck.js";

/** A schema touching every keyword family, so every helper and code shape gets typechecked. */
const EVERYTHING = {
  $defs: { node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } } } },
  type: "object",
  required: ["a"],
  properties: {
    a: { type: ["string", "null"], minLength: 2, maxLength: 5, pattern: "x", format: "date" },
    b: { enum: [1, "two", null, { x: 1 }, [1, 2], 3, 4, 5, 6, 7, 8, 9] },
    c: { const: { k: [1] } },
    d: { type: "number", multipleOf: 0.01, exclusiveMinimum: 0, maximum: 10 },
    e: {
      type: "array",
      prefixItems: [{ type: "integer" }],
      items: { type: "string" },
      contains: { const: "x" },
      minContains: 1,
      maxContains: 2,
      uniqueItems: true,
      minItems: 1,
      maxItems: 9,
    },
    f: { anyOf: [{ type: "string" }, { type: "number" }] },
    g: { oneOf: [{ type: "string" }, { type: "number" }] },
    h: { not: { type: "null" } },
    // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword here
    i: { if: { type: "string" }, then: { minLength: 1 }, else: { type: "number" } },
    j: { $ref: "#/$defs/node" },
    k: {
      type: "object",
      propertyNames: { maxLength: 3, const: 5 },
      patternProperties: { "^x": { type: "string" } },
      additionalProperties: { type: "boolean" },
      minProperties: 1,
      maxProperties: 4,
      dependentRequired: { a: ["b"] },
      dependentSchemas: { a: { required: ["c"], type: "null", enum: ["q"] } },
    },
    l: {
      allOf: [{ properties: { x: true } }],
      anyOf: [{ properties: { y: true } }, { properties: { z: true } }],
      unevaluatedProperties: false,
    },
    m: { prefixItems: [true], contains: { type: "string" }, unevaluatedItems: false },
    n: false,
    o: { type: "integer", format: "int32" },
    p: { type: "string", format: "email" },
    q: { type: "string", format: "hostname" },
    r: { type: "string", format: "uri" },
    s: { type: "string", format: "date-time" },
    t: { type: "string", format: "time" },
    u: { type: "string", format: "ipv6" },
    v: { type: "string", format: "uuid" },
    w: { oneOf: [{ properties: { p: true } }, { properties: { q: true } }], unevaluatedProperties: false },
  },
};

function componentEntries(document: Record<string, unknown>): ValidatorEntry[] {
  const schemas = (document["components"] as { schemas?: Record<string, unknown> } | undefined)?.schemas ?? {};
  return Object.keys(schemas).flatMap((name, index) => {
    const pointer = `#/components/schemas/${name}`;
    return [
      { name: `validate${index}`, guardName: `is${index}`, schema: { pointer } },
      { name: `validateRequest${index}`, schema: { pointer }, direction: "request", coerceStrings: true },
      { name: `validateResponse${index}`, schema: { pointer }, direction: "response" },
    ] satisfies ValidatorEntry[];
  });
}

describe("generated modules typecheck under strict and noUncheckedIndexedAccess", () => {
  it("for a schema using every keyword", () => {
    expect(typecheck(compileSchema(EVERYTHING))).toEqual([]);
  });

  it("for an OpenAPI 3.0 document with discriminators, nullable and coercion", () => {
    const document = {
      openapi: "3.0.3",
      components: {
        schemas: {
          Pet: {
            type: "object",
            required: ["kind", "id"],
            properties: {
              kind: { type: "string" },
              id: { type: "integer", readOnly: true },
              secret: { type: "string", writeOnly: true },
            },
          },
          Dog: {
            allOf: [
              { $ref: "#/components/schemas/Pet" },
              { type: "object", properties: { bark: { type: "boolean", nullable: true } } },
            ],
          },
          Any: {
            oneOf: [{ $ref: "#/components/schemas/Dog" }, { $ref: "#/components/schemas/Pet" }],
            discriminator: { propertyName: "kind", mapping: { dog: "Dog" } },
          },
          Query: {
            type: "object",
            properties: { ids: { type: "array", items: { type: "integer" } }, flag: { type: "boolean" } },
          },
        },
      },
    };
    expect(
      typecheck(compileValidatorModule({ document, dialect: "openapi-3.0", entries: componentEntries(document) })),
    ).toEqual([]);
  });

  const spec = join(REPO_ROOT, "spec", "openapi.yaml");
  it.skipIf(!existsSync(spec))("for the contract spec/openapi.yaml", () => {
    const document = YAML.parse(readFileSync(spec, "utf8")) as Record<string, unknown>;
    expect(typecheck(compileValidatorModule({ document, entries: componentEntries(document) }))).toEqual([]);
  });
});
