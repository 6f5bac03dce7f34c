import { createRequire } from "node:module";
import type { Node } from "yaml";
import { pointerSegments } from "../json-pointer.js";

/** A 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

type YamlModule = typeof import("yaml");

/** `yaml` is loaded only when a diagnostic needs a position: a run without problems never pays for it. */
function loadYaml(): YamlModule {
  return createRequire(import.meta.url)("yaml") as YamlModule;
}

/**
 * Where each JSON pointer's value starts in YAML or JSON text (the key, for a mapping entry; the
 * deepest existing node when the pointer goes further than the document). One parse with source
 * ranges for all pointers.
 */
export function findPositions(text: string, pointers: readonly string[]): Record<string, Position> {
  const yaml = loadYaml();
  const lines = new yaml.LineCounter();
  const root =
    (yaml.parseDocument(text, { lineCounter: lines, uniqueKeys: false, strict: false }).contents as Node | null) ??
    null;
  const found: Record<string, Position> = {};
  for (const pointer of pointers) {
    const offset = findOffset(yaml, root, pointerSegments(pointer));
    if (offset === undefined) continue;
    const { line, col } = lines.linePos(offset);
    found[pointer] = { line, column: col };
  }
  return found;
}

function findOffset(yaml: YamlModule, root: Node | null, segments: string[]): number | undefined {
  let node: unknown = root;
  let offset = root?.range?.[0];
  for (const segment of segments) {
    if (yaml.isMap(node)) {
      const pair = node.items.find((item) => yaml.isScalar(item.key) && String(item.key.value) === segment);
      if (pair === undefined) break;
      offset = (pair.key as Node | null)?.range?.[0] ?? offset;
      node = pair.value;
    } else if (yaml.isSeq(node)) {
      node = node.items[Number(segment)];
      if (node === undefined) break;
      offset = (node as Node).range?.[0] ?? offset;
    } else {
      break;
    }
  }
  return offset;
}
