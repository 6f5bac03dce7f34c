/**
 * The schema keywords are listed once, in the keyword vocabulary (src/schema/vocabulary.ts), and
 * every reader takes its keywords from there (`keywordsWhere`, a trait of the entries), so a
 * keyword added once reaches them all. This test reads every module of `src/` with TypeScript's
 * parser and fails on a list kept by hand: an array (or a Set's array) of string literals, or a
 * union of string literal types, naming three keywords or more, most of its names keywords. The
 * few lists below name the keywords one piece of code handles each in its own way (the three
 * compositions, the conditional's three keywords), which no trait of the vocabulary says; each is
 * named with why, and a new one fails.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { keywordEntry } from "../../../src/schema/vocabulary.js";
import { modulesUnder } from "../../support/imports.js";
import { repoRoot } from "../../support/paths.js";

/** The lists of keywords kept by hand that stay, by module and their names in order, with why. */
const KEPT: Readonly<Record<string, string>> = {
  "src/compiler/registry/annotations.ts: if, then, else": "the conditional's schemas, each analysed at its place",
  "src/emit/query/invalidation-map.ts: allOf, anyOf, oneOf": "the compositions whose parts a schema is made of",
  "src/schema/discriminator.ts: allOf, anyOf, oneOf": "the compositions whose parts a node is made of",
  "src/load/validate-document.ts: oneOf, anyOf, if, then, else":
    "Ajv's summary errors, which the document's checker leaves out for the branches' own",
  "src/diff/schema/fold.ts: $ref, allOf, nullable": "what flattening reads before a level is folded",
  "src/diff/schema/shape.ts: properties, additionalProperties, items, if":
    "the keywords holding subschemas that a Shape reads into fields of its own",
};

/** The module the vocabulary is; the one place keywords are listed. */
const VOCABULARY_MODULE = "src/schema/vocabulary.ts";

/** The string literals of a list, when it is an array literal (spreads aside) or a union of literal types. */
function namesOf(node: ts.Node): string[] | undefined {
  if (ts.isArrayLiteralExpression(node))
    return node.elements.flatMap((element) => (ts.isStringLiteral(element) ? [element.text] : []));
  if (ts.isUnionTypeNode(node))
    return node.types.flatMap((type) =>
      ts.isLiteralTypeNode(type) && ts.isStringLiteral(type.literal) ? [type.literal.text] : [],
    );
  return undefined;
}

/** The hand-kept keyword lists of a module's text, each as "<module>: <names>" with its line. */
function keywordLists(module: string, text: string): { key: string; line: number }[] {
  const file = ts.createSourceFile(module, text, ts.ScriptTarget.Latest, true);
  const found: { key: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    const names = namesOf(node);
    if (names !== undefined) {
      const keywords = names.filter((name) => keywordEntry(name) !== undefined);
      if (keywords.length >= 3 && keywords.length * 2 > names.length)
        found.push({
          key: `${module}: ${names.join(", ")}`,
          line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1,
        });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("the keyword lists", () => {
  const found = modulesUnder("src")
    .filter((module) => module !== VOCABULARY_MODULE)
    .flatMap((module) => keywordLists(module, readFileSync(join(repoRoot, module), "utf8")));

  it("are taken from the keyword vocabulary, but for the few kept on purpose", () => {
    const kept = found.filter(({ key }) => !Object.hasOwn(KEPT, key));
    expect(
      kept.map(
        ({ key, line }) =>
          `${key.replace(":", `:${line}:`)} is a list of keywords kept by hand: take it from src/schema/vocabulary.ts (keywordsWhere over the entries' traits, a new trait if none says it)`,
      ),
    ).toEqual([]);
  });

  it("keeps on purpose only lists that are still there", () => {
    const keys = new Set(found.map(({ key }) => key));
    expect(Object.keys(KEPT).filter((key) => !keys.has(key))).toEqual([]);
  });

  it("sees a list kept by hand, and lets a derived one or one of other names pass", () => {
    const text = [
      'const A = new Set(["minLength", "maxLength", "pattern"]);',
      'type B = "contains" | "not" | "propertyNames";',
      'const C = new Set([...keywordsWhere((entry) => entry.role === "documentation"), "summary"]);',
      'const D = ["string", "number", "object"];',
      'const E = ["example", "examples", "xml", "security", "servers", "info", "tags"];',
    ].join("\n");
    expect(keywordLists("src/x.ts", text)).toEqual([
      { key: "src/x.ts: minLength, maxLength, pattern", line: 1 },
      { key: "src/x.ts: contains, not, propertyNames", line: 2 },
    ]);
  });
});
