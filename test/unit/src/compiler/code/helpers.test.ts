/**
 * How a generated module takes the validator helpers' text from their source files
 * (runtime/validators/helpers/): the paragraphs that declare something, without the `export`
 * of their "$" names, with the helpers they use, in the files' order.
 */
import { describe, expect, it } from "vitest";
import * as helpers from "../../../../../runtime/validators/helpers/index.js";
import { helperTexts, readSections } from "../../../../../src/compiler/code/helpers.js";

describe("readSections", () => {
  it("takes the paragraphs that declare something, as the module's own", () => {
    const source =
      '/** The file. */\nimport { $b } from "./b.js";\n\n// a note\n\nexport const $A = 1;\nexport function $a(): number {\n  return $b() + $A;\n}\n\n/** Kept: it is the declaration\'s. */\nexport interface Public { a: 1 }\n';
    expect(readSections(source).map(({ text, declares }) => ({ text, declares }))).toEqual([
      { text: "const $A = 1;\nfunction $a(): number {\n  return $b() + $A;\n}", declares: ["$A", "$a"] },
      { text: "/** Kept: it is the declaration's. */\nexport interface Public { a: 1 }", declares: [] },
    ]);
  });
});

describe("helperTexts", () => {
  const texts = helperTexts();

  it("gives a helper with the helpers it uses, in the files' order", () => {
    expect(texts.sections(new Set(["duplicate"])).map((text) => text.split("\n")[0])).toEqual([
      "const $hop = Object.prototype.hasOwnProperty;",
      "function $equal(x: unknown, y: unknown): boolean {",
      "function $duplicate(items: readonly unknown[]): [number, number] | null {",
    ]);
  });

  it("has a section for every function the helper modules export, each of them declared once", () => {
    const names = Object.keys(helpers).filter(
      (name) => name.startsWith("$") && !["$standard", "$issue"].includes(name),
    );
    for (const name of names) {
      const sections = texts.sections(new Set([name.slice(1) as never]));
      expect(sections.filter((text) => new RegExp(`^(const|function) \\${name}\\b`, "m").test(text))).toHaveLength(1);
    }
  });

  it("gives what every module declares, and the Standard Schema section whole", () => {
    expect(texts.module).toBe(
      "interface $Sink { valid: boolean; value?: unknown; errors?: ValidationError[] }\ntype $Errors = $Sink | null;",
    );
    expect(texts.standardSchema).toMatch(/^\/\*\* The Standard Schema v1 interface[\s\S]*\nfunction \$issue\(/);
    expect(texts.standardSchema).not.toMatch(/^export (function|const) \$/m);
  });
});
