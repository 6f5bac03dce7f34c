/**
 * The fast position scan agrees with the full YAML parse (source ranges) wherever it places a
 * pointer, and places nearly all of them, on the real spec, the fixtures and the corpus.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { appendPointer } from "../../../../src/json-pointer.js";
import { scanPositions } from "../../../../src/load/position-scan.js";
import { findPositions } from "../../../../src/load/positions.js";
import { corpusAbsentMessage, corpusAvailable, corpusDir, repoRoot } from "../../../support/paths.js";

/** Pointers to mapping entries and sequence items, breadth first, at most `limit`. */
function samplePointers(document: unknown, limit: number): string[] {
  const pointers: string[] = [];
  const queue: [unknown, string][] = [[document, "#"]];
  while (queue.length > 0 && pointers.length < limit) {
    const [node, pointer] = queue.shift() as [unknown, string];
    if (node === null || typeof node !== "object") continue;
    for (const [key, child] of Object.entries(node)) {
      const childPointer = appendPointer(pointer, key);
      pointers.push(childPointer);
      queue.push([child, childPointer]);
    }
  }
  return pointers;
}

const corpus = corpusAvailable("position-scan rows of the corpus documents");
const documents = [
  join(repoRoot, "spec/openapi.yaml"),
  ...readdirSync(join(repoRoot, "test/fixtures")).flatMap((name) =>
    // swagger-parser, the full parse compared with, reads no OpenAPI 3.2; real-documents holds several
    name === "invalid" ||
    name === "lint" ||
    name === "generality" ||
    name === "openapi-3.2" ||
    name === "real-documents"
      ? []
      : [join(repoRoot, "test/fixtures", name, "openapi.yaml")].filter((file) => existsSync(file)),
  ),
  ...(corpus
    ? readdirSync(join(corpusDir, "openapi"))
        .filter((f) => /\.(ya?ml|json)$/.test(f))
        .map((f) => join(corpusDir, "openapi", f))
    : []),
];

describe("position scan", () => {
  if (!corpus) it.skip(`on the corpus documents: ${corpusAbsentMessage}`, () => undefined);
  it.each(documents)("agrees with the full parse on %s", async (file) => {
    const text = readFileSync(file, "utf8");
    // the tree the pointers are drawn from comes from the generator's parser (the positions are found by two others)
    const tree: unknown = await SwaggerParser.parse(file);
    const pointers = samplePointers(tree, 4000);
    const exact = findPositions(text, pointers);
    const scanned = scanPositions(text, pointers);
    for (const [pointer, position] of Object.entries(scanned)) expect(position, pointer).toEqual(exact[pointer]);
    // Large documents are where the scan saves time: it must place nearly everything there.
    // (Pointers inside flow collections, common in small hand-written specs, are left to the parser.)
    const placed = Object.keys(scanned).length / pointers.length;
    if (text.length > 200_000)
      expect(placed, `${Object.keys(scanned).length} of ${pointers.length} placed`).toBeGreaterThan(
        file.endsWith(".json") ? 0.999 : 0.95,
      );
  });

  it("places JSON keys, array items and values exactly", () => {
    const text = '{\n  "a": [1, {"b": "x\\"y"}],\n  "c~d/e": {"f": null}\n}\n';
    expect(scanPositions(text, ["#/a", "#/a/1", "#/a/1/b", "#/c~0d~1e/f"])).toEqual({
      "#/a": { line: 2, column: 3 },
      "#/a/1": { line: 2, column: 12 },
      "#/a/1/b": { line: 2, column: 13 },
      "#/c~0d~1e/f": { line: 3, column: 13 },
    });
  });

  it("follows block YAML: compact sequences, items with mappings, block and multi-line scalars", () => {
    const text = [
      "a:",
      "  description: |",
      "    text: not a key",
      "  tags:",
      "  - x",
      "  - name: y",
      "    in: path",
      "b: 'q: r'",
      "c:",
      "  a plain scalar",
      "  on two lines",
      "d: [1, 2]",
    ].join("\n");
    const pointers = ["#/a/tags/1", "#/a/tags/1/in", "#/b", "#/c", "#/d", "#/a/description/text"];
    const expected = {
      "#/a/tags/1": { line: 6, column: 5 },
      "#/a/tags/1/in": { line: 7, column: 5 },
      "#/b": { line: 8, column: 1 },
      "#/c": { line: 9, column: 1 },
      "#/d": { line: 12, column: 1 },
    };
    expect(scanPositions(text, pointers)).toEqual(expected);
    expect(findPositions(text, pointers)).toMatchObject(expected);
  });
});
