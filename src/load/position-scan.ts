import { escapePointerSegment } from "../json-pointer.js";
import { scanBlockYaml } from "./position-scan-yaml.js";
import type { Position } from "./positions.js";

/** Called for every mapping entry (at its key) and sequence item (at the item) the scan meets. */
export type RecordPlace = (pointer: string, offset: number) => void;

/**
 * Finds where JSON pointers start in a spec's text by scanning it once, without building a
 * document: exact for JSON, and for YAML written in block style (indented mappings and `-`
 * sequences), which is how specs are written. A mapping entry is placed at its key, a sequence
 * item at the item. Pointers the scan does not meet (inside flow collections, or after YAML it
 * does not follow) are left out; the caller places those with the full parser.
 */
export function scanPositions(text: string, pointers: readonly string[]): Record<string, Position> {
  const wanted = new Map(pointers.map((pointer) => [pointer.startsWith("#") ? pointer.slice(1) : pointer, pointer]));
  const offsets = new Map<string, number>();
  const record: RecordPlace = (pointer, offset) => {
    if (wanted.has(pointer) && !offsets.has(pointer)) offsets.set(pointer, offset);
  };
  if (/^\s*[{[]/.test(text)) scanJson(text, record);
  else scanBlockYaml(text, record);
  const lineStarts = lineStartsOf(text);
  const found: Record<string, Position> = {};
  for (const [pointer, offset] of offsets) found[wanted.get(pointer) as string] = positionOf(lineStarts, offset);
  return found;
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line and column of an offset (binary search over line starts). */
function positionOf(lineStarts: readonly number[], offset: number): Position {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((lineStarts[middle] as number) <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: low + 1, column: offset - (lineStarts[low] as number) + 1 };
}

interface JsonFrame {
  readonly array: boolean;
  readonly pointer: string;
  index: number;
  key: string | undefined;
  expectKey: boolean;
}

/** JSON: one pass over the characters, keeping the containers open at each point. */
function scanJson(text: string, record: RecordPlace): void {
  const frames: JsonFrame[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const top = frames[frames.length - 1];
    if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      if (top !== undefined && !top.array && top.expectKey) {
        top.key = JSON.parse(text.slice(i, end)) as string;
        top.expectKey = false;
        record(`${top.pointer}/${escapePointerSegment(top.key)}`, i);
      } else {
        placeItem(top, i, record);
      }
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      placeItem(top, i, record);
      frames.push({ array: c === 0x5b, pointer: childPointer(top), index: 0, key: undefined, expectKey: c === 0x7b });
      i++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      frames.pop();
      i++;
    } else if (c === 0x2c /* , */) {
      if (top?.array) top.index++;
      else if (top !== undefined) top.expectKey = true;
      i++;
    } else if (c === 0x3a /* : */ || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      i++;
    } else {
      placeItem(top, i, record);
      while (i < text.length && !/[,}\]\s]/.test(text[i] as string)) i++;
    }
  }
}

function placeItem(frame: JsonFrame | undefined, at: number, record: RecordPlace): void {
  if (frame?.array) record(`${frame.pointer}/${frame.index}`, at);
}

function childPointer(frame: JsonFrame | undefined): string {
  if (frame === undefined) return "";
  return `${frame.pointer}/${escapePointerSegment(frame.array ? frame.index : (frame.key ?? ""))}`;
}

/** The offset just after the closing quote of the string starting at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x22) return i + 1;
  }
  return text.length;
}
