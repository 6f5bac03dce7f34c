/**
 * The literal printer decides each level's layout from a one-line form it gives up on as soon as
 * it passes the width; the output must be exactly what printing every level in full would give.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CodeRef, toCodeLiteral } from "../../../../src/emit/literal.js";

/** The layout rule, printed the direct way: each level's full one-line form, then the width test. */
function reference(value: unknown, indent = ""): string {
  const inline = oneLine(value);
  if (indent.length + inline.length <= 100 || value === null || typeof value !== "object" || value instanceof CodeRef)
    return inline;
  const inner = `${indent}  `;
  if (Array.isArray(value))
    return `[\n${value.map((item) => `${inner}${reference(item, inner)},`).join("\n")}\n${indent}]`;
  return `{\n${Object.entries(value)
    .map(([name, item]) => `${inner}${key(name)}: ${reference(item, inner)},`)
    .join("\n")}\n${indent}}`;
}

function key(name: string): string {
  if (name === "__proto__") return '["__proto__"]';
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

function oneLine(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value instanceof CodeRef) return value.code;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(oneLine).join(", ")}]`;
  const members = Object.entries(value).map(([name, item]) => `${key(name)}: ${oneLine(item)}`);
  return members.length === 0 ? "{}" : `{ ${members.join(", ")} }`;
}

describe("toCodeLiteral", () => {
  it("prints the spec and the fixtures exactly as the direct layout does", () => {
    for (const file of [
      "spec/openapi.yaml",
      "test/fixtures/discriminator/openapi.yaml",
      "test/fixtures/parameters/openapi.yaml",
    ]) {
      const document: unknown = parse(readFileSync(file, "utf8"));
      expect(toCodeLiteral(document)).toBe(reference(document));
      expect(toCodeLiteral(document, "      ")).toBe(reference(document, "      "));
    }
  });

  it("keeps a value on one line up to the width exactly, and breaks it one character past", () => {
    for (let length = 80; length <= 100; length++) {
      const value = { key: "x".repeat(length - 11) }; // `{ key: "…" }` is `length` characters
      expect(toCodeLiteral(value)).toBe(reference(value));
      expect(toCodeLiteral([value, [], {}, null, 1, true, new CodeRef("V.check")], "  ")).toBe(
        reference([value, [], {}, null, 1, true, new CodeRef("V.check")], "  "),
      );
    }
    expect(toCodeLiteral({ key: "x".repeat(89) })).toBe(`{ key: "${"x".repeat(89)}" }`);
    expect(toCodeLiteral({ key: "x".repeat(90) })).toBe(`{\n  key: "${"x".repeat(90)}",\n}`);
  });

  it("quotes keys that are not identifiers and strings that could end the literal", () => {
    const value: unknown = JSON.parse('{ "a-b": "\\"}; process.exit(1); //", "__proto__": [], "\\u2028": "\\u2029" }');
    expect(toCodeLiteral(value)).toBe(reference(value));
  });

  it("makes `__proto__` an own property of the printed object, not its prototype", () => {
    const value: unknown = JSON.parse(
      '{ "__proto__": { "polluted": true }, "properties": { "__proto__": { "type": "string" } } }',
    );
    for (const indent of ["", " ".repeat(90)]) {
      const printed = new Function(`return ${toCodeLiteral(value, indent)};`)() as Record<string, unknown>;
      expect(Object.getPrototypeOf(printed)).toBe(Object.prototype);
      expect(printed).toEqual(value);
      expect(Object.keys(printed["properties"] as object)).toEqual(["__proto__"]);
    }
  });
});
