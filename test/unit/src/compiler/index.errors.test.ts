import { describe, expect, it } from "vitest";
import { compileSchema, compileValidatorModule, SchemaCompileError } from "../../../../src/compiler/index.js";
import { validatorFor } from "./support/compile-helpers.js";

const venue = {
  type: "object",
  required: ["name", "address", "city", "zip"],
  additionalProperties: false,
  properties: {
    name: { type: "string", maxLength: 150 },
    address: { type: "string", maxLength: 150 },
    city: { type: "string", maxLength: 75 },
    zip: { type: "string", maxLength: 10 },
    saved: { type: "integer", minimum: 0, maximum: 1 },
  },
};

describe("validation errors", () => {
  it("stops at the first error by default and collects all with allErrors", async () => {
    const validate = await validatorFor(venue);
    const input = { name: "x".repeat(151), address: 5, zip: "12345678901", saved: 3, extra: true };
    expect(validate(input).errors).toHaveLength(1);
    const all = validate(input, { allErrors: true }).errors ?? [];
    expect(all.map((error) => error.keyword).sort()).toEqual(
      ["additionalProperties", "maxLength", "maxLength", "maximum", "required", "type"].sort(),
    );
  });

  it("uses the Ajv error shape with readable messages that carry the location", async () => {
    const validate = await validatorFor(venue);
    expect(validate({ name: "x".repeat(151), address: "a", city: "c", zip: "1" }).errors?.[0]).toEqual({
      instancePath: "/name",
      schemaPath: "#/properties/name/maxLength",
      keyword: "maxLength",
      params: { limit: 150 },
      message: "/name must be at most 150 characters",
    });
    expect(validate({ name: "n", address: "a", zip: "1" }).errors?.[0]?.message).toBe(
      "must have required property 'city'",
    );
    expect(validate({ name: "n", address: "a", city: "c", zip: "1", saved: 1.5 }).errors?.[0]?.message).toBe(
      "/saved must be integer",
    );
  });

  it("reports nothing on success and returns the value", async () => {
    const validate = await validatorFor(venue);
    const input = { name: "n", address: "a", city: "c", zip: "1" };
    expect(validate(input)).toEqual({ valid: true, value: input });
  });

  it("describes anyOf and oneOf failures", async () => {
    const validate = await validatorFor({ anyOf: [{ type: "string" }, { type: "number" }] });
    const errors = validate(true).errors ?? [];
    expect(errors.at(-1)?.message).toBe("must match at least one schema in anyOf");
    const oneOf = await validatorFor({ oneOf: [{ type: "number" }, { type: "integer" }] });
    expect(oneOf(1).errors?.[0]?.params).toEqual({ passingSchemas: [0, 1] });
  });
});

describe("invalid schemas raise SchemaCompileError", () => {
  function compileError(run: () => unknown): SchemaCompileError {
    try {
      run();
    } catch (error) {
      if (error instanceof SchemaCompileError) return error;
      throw error;
    }
    throw new Error("expected a SchemaCompileError");
  }

  it("names an unknown type and where it is", () => {
    const error = compileError(() => compileSchema({ properties: { a: { type: "strnig" } } }));
    expect(error.pointer).toBe("#/properties/a/type");
    expect(error.message).toContain('unknown type "strnig"');
    expect(error.message).toContain("use one of string");
  });

  it("says a null among the type names is a null value, to be quoted, and which item it is", () => {
    const error = compileError(() => compileSchema({ properties: { a: { type: ["object", null] } } }));
    expect(error.pointer).toBe("#/properties/a/type/1");
    expect(error.message).toMatch(/: unknown type null: this is a null value, not the type name "null" \(YAML reads/);
    expect(error.message).toContain('write the name as a string, quoted in YAML: "null"');
  });

  it("names a $ref that does not resolve", () => {
    const document = { openapi: "3.1.0", components: { schemas: { A: { $ref: "#/components/schemas/Missing" } } } };
    const error = compileError(() =>
      compileValidatorModule({
        document,
        entries: [{ name: "validateA", schema: { pointer: "#/components/schemas/A" } }],
      }),
    );
    expect(error.pointer).toBe("#/components/schemas/A/$ref");
    expect(error.message).toContain("does not resolve");
  });

  it("names an invalid regular expression", () => {
    const error = compileError(() => compileSchema({ type: "string", pattern: "([a-z" }));
    expect(error.pointer).toBe("#/pattern");
    expect(error.message).toContain("invalid regular expression");
  });

  it("rejects malformed keyword values", () => {
    expect(compileError(() => compileSchema({ maxLength: -1 })).pointer).toBe("#/maxLength");
    expect(compileError(() => compileSchema({ required: "name" })).pointer).toBe("#/required");
    expect(compileError(() => compileSchema({ multipleOf: 0 })).pointer).toBe("#/multipleOf");
    expect(compileError(() => compileSchema({ properties: { a: 5 } })).pointer).toBe("#/properties/a");
    expect(compileError(() => compileSchema({ items: [{}] })).message).toContain("prefixItems");
  });

  it("names an entry pointer that leads nowhere", () => {
    const error = compileError(() =>
      compileValidatorModule({ document: {}, entries: [{ name: "v", schema: { pointer: "#/nope" } }] }),
    );
    expect(error.pointer).toBe("#/nope");
  });

  it("rejects entry names that are not identifiers", () => {
    expect(() =>
      compileValidatorModule({ document: {}, entries: [{ name: "not valid", schema: { inline: {} } }] }),
    ).toThrow(TypeError);
    expect(() => compileValidatorModule({ document: {}, entries: [{ name: "$x", schema: { inline: {} } }] })).toThrow(
      TypeError,
    );
  });
});

describe("compile errors for references", () => {
  it("names a file the document does not hold as the author wrote it, not by an internal address", () => {
    const document = { openapi: "3.0.3", components: { schemas: { A: { $ref: "./schemas/a.yaml" } } } };
    const compile = (): string =>
      compileValidatorModule({
        document,
        entries: [{ name: "validateA", schema: { pointer: "#/components/schemas/A" } }],
      });
    expect(compile).toThrow(SchemaCompileError);
    expect(compile).toThrow(
      '#/components/schemas/A/$ref: $ref "./schemas/a.yaml" does not resolve: no schema or document is known as "schemas/a.yaml" (relative to the document).',
    );
  });
});

describe("compile errors for vocabularies", () => {
  it("refuses a meta-schema that requires a vocabulary the validators do not implement", () => {
    const meta = {
      $id: "https://example.com/meta",
      $vocabulary: {
        "https://json-schema.org/draft/2020-12/vocab/core": true,
        "https://example.com/vocab/units": true,
      },
    };
    const compile = (): string =>
      compileValidatorModule({
        document: { $schema: "https://example.com/meta", type: "number" },
        resources: { "https://example.com/meta": meta },
        entries: [{ name: "validate", schema: { pointer: "#" } }],
        dialect: "json-schema-2020-12",
      });
    expect(compile).toThrow(
      '#/$schema: the meta-schema "https://example.com/meta" requires the vocabulary "https://example.com/vocab/units", which the validators do not implement',
    );
  });
});
