import { createRequire } from "node:module";
import type { LineCounter, Node } from "yaml";
import { pointerSegments } from "../json-pointer.js";
import type { SourceLocation } from "../diagnostics/diagnostic.js";

/** Maps a JSON pointer to the line and column where that value starts in the source text. */
export type Locate = (pointer: string) => SourceLocation;

/**
 * A locator over YAML or JSON text. The text is parsed with source ranges only when the first
 * location is asked for: loading uses a fast parser, and ranges are needed only for diagnostics.
 */
export function createLocator(file: string, text: string): Locate {
  let parsed: { root: Node | null; lines: LineCounter } | undefined;
  return (pointer) => {
    parsed ??= parseWithRanges(text);
    const offset = findOffset(parsed.root, pointerSegments(pointer));
    if (offset === undefined) return { file, pointer };
    const { line, col } = parsed.lines.linePos(offset);
    return { file, pointer, line, column: col };
  };
}

type YamlModule = typeof import("yaml");

/** `yaml` is loaded only when a diagnostic needs a position: a run without problems never pays for it. */
function loadYaml(): YamlModule {
  return createRequire(import.meta.url)("yaml") as YamlModule;
}

function parseWithRanges(text: string): { root: Node | null; lines: LineCounter } {
  const { LineCounter, parseDocument } = loadYaml();
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: false, strict: false });
  return { root: (document.contents as Node | null) ?? null, lines };
}

/** Offset of the deepest node on the pointer's path (the key, for a mapping entry). */
function findOffset(root: Node | null, segments: string[]): number | undefined {
  const { isMap, isSeq } = loadYaml();
  let node: unknown = root;
  let offset = root?.range?.[0];
  for (const segment of segments) {
    if (isMap(node)) {
      const pair = node.items.find((item) => keyText(item.key) === segment);
      if (pair === undefined) break;
      offset = (pair.key as Node | null)?.range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node)) {
      node = node.items[Number(segment)];
      if (node === undefined) break;
      offset = (node as Node).range?.[0] ?? offset;
    } else {
      break;
    }
  }
  return offset;
}

function keyText(key: unknown): string | undefined {
  return loadYaml().isScalar(key) ? String((key as { value: unknown }).value) : undefined;
}
