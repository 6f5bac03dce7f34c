/** The compiler's Standard Schema section: written only when asked for, with each key once. */
import { describe, expect, it } from "vitest";
import { compileSchema, compileValidatorModule } from "../../../../src/compiler/index.js";

const document = { type: "object", properties: { name: { type: "string" } } };

describe("the schemas section of a compiled module", () => {
  it("is left out when no entry asks for a Standard Schema", () => {
    const source = compileSchema(document);
    expect(source).not.toContain("~standard");
    expect(source).not.toContain("StandardSchemaV1");
  });

  it("offers each entry under each of its keys, quoting a key that is no identifier", () => {
    const source = compileValidatorModule({
      document,
      dialect: "json-schema-2020-12",
      entries: [{ name: "validateThing", schema: { pointer: "#" }, standardSchemaKeys: ["Thing", "thing-body"] }],
    });
    expect(source).toContain(
      'export const schemas = {\n  Thing: /* @__PURE__ */ $standard(validateThing),\n  "thing-body": /* @__PURE__ */ $standard(validateThing),\n} as const;',
    );
    expect(source).toContain('vendor: "workforce-scheduling-api"');
  });

  it("refuses a key given twice", () => {
    const entries = [
      { name: "validateA", schema: { pointer: "#" }, standardSchemaKeys: ["Same"] },
      { name: "validateB", schema: { pointer: "#" }, standardSchemaKeys: ["Same"] },
    ];
    expect(() => compileValidatorModule({ document, dialect: "json-schema-2020-12", entries })).toThrow(
      'Standard Schema key "Same" is used twice',
    );
  });
});
