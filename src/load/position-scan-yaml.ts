import { escapePointerSegment } from "../json-pointer.js";
import type { RecordPlace } from "./position-scan.js";

/**
 * One open node of block-style YAML. A `pending` node is a key (or `-`) whose value is on the
 * following lines: it becomes a mapping or a sequence at the column of the first of them.
 */
interface Frame {
  kind: "map" | "seq" | "pending";
  /** column of the entries (map keys or `-`); for pending, the column of its own key or `-` */
  column: number;
  readonly pointer: string;
  /** pending `-` items need deeper content; a pending key also takes `-` at its own column */
  readonly fromItem: boolean;
  items: number;
  /** a `-` with nothing after it: the item is placed where its content starts, on a later line */
  placeItem?: boolean;
}

type Line =
  | { kind: "item"; column: number; rest: number }
  | { kind: "entry"; column: number; key: string; value: string };

/**
 * Block-style YAML, line by line: mappings (`key: value`, plain or quoted keys) and sequences
 * (`- item`, also `- key: value` and `-` at the parent key's column). Values on their key's line
 * (scalars, block scalars, flow collections) and their continuation lines are skipped. At a line
 * it cannot follow (complex keys, multi-line flow collections at the margin, ...) it stops.
 */
export function scanBlockYaml(text: string, record: RecordPlace): void {
  const frames: Frame[] = [{ kind: "pending", column: -1, pointer: "", fromItem: true, items: 0 }];
  let skipDeeperThan = -1;
  let offset = 0;
  for (const raw of text.split("\n")) {
    const start = offset;
    offset += raw.length + 1;
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const column = line.search(/\S/);
    if (column === -1 || line[column] === "#") continue;
    if (skipDeeperThan >= 0 && column > skipDeeperThan) continue;
    if (column === 0 && /^(---|\.\.\.|%)/.test(line)) continue;
    const next = scanLine(line, column, start, frames, record);
    if (next === undefined) return;
    skipDeeperThan = next;
  }
}

/** Handles one line; returns the column deeper than which lines continue a value, or undefined to stop. */
function scanLine(
  line: string,
  column: number,
  start: number,
  frames: Frame[],
  record: RecordPlace,
): number | undefined {
  let at = column;
  for (let guard = 0; guard < 64; guard++) {
    const parsed = parseLine(line, at);
    if (parsed === undefined) return scalarValue(frames, at);
    const frame = containerFor(frames, parsed);
    if (frame === undefined) return undefined;
    if (frame.placeItem === true) {
      record(frame.pointer, start + parsed.column);
      frame.placeItem = false;
    }
    if (parsed.kind === "entry") return entry(frame, parsed, start, frames, record);
    const pointer = `${frame.pointer}/${frame.items++}`;
    const empty = parsed.rest >= line.length || line[parsed.rest] === "#";
    if (!empty) record(pointer, start + parsed.rest);
    frames.push({ kind: "pending", column: parsed.column, pointer, fromItem: true, items: 0, placeItem: empty });
    if (empty) return -1;
    at = parsed.rest;
  }
  return undefined;
}

/** A deeper line under a key with no value on its own line is that key's scalar value. */
function scalarValue(frames: Frame[], column: number): number | undefined {
  const top = frames[frames.length - 1];
  if (top === undefined || top.kind !== "pending" || column <= top.column) return undefined;
  frames.pop();
  return top.column;
}

function entry(
  frame: Frame,
  parsed: Extract<Line, { kind: "entry" }>,
  start: number,
  frames: Frame[],
  record: RecordPlace,
): number {
  const pointer = `${frame.pointer}/${escapePointerSegment(parsed.key)}`;
  record(pointer, start + parsed.column);
  if (parsed.value !== "") return parsed.column;
  frames.push({ kind: "pending", column: parsed.column, pointer, fromItem: false, items: 0 });
  return -1;
}

/** Closes the nodes the line is not inside, and gives the container it adds to. */
function containerFor(frames: Frame[], line: Line): Frame | undefined {
  const want = line.kind === "item" ? "seq" : "map";
  for (;;) {
    const top = frames[frames.length - 1];
    if (top === undefined) return undefined;
    if (top.kind === "pending") {
      const deepEnough = line.column > top.column || (want === "seq" && !top.fromItem && line.column === top.column);
      if (deepEnough) {
        top.kind = want;
        top.column = line.column;
        return top;
      }
    } else if (top.column === line.column && top.kind === want) {
      return top;
    } else if (top.column < line.column) {
      return undefined;
    }
    frames.pop();
  }
}

const QUOTED_KEY = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*')\s*:(?=\s|$)/;
const PLAIN_KEY = /^([^\s\-?:,[\]{}#&*!|>'"%@`]|[-?:](?=\S))(?:[^:#\n]|:(?=\S)|(?<=\S)#)*?\s*:(?=\s|$)/;

/** What stands at `at`: a sequence item, a mapping entry, or undefined for anything else. */
function parseLine(line: string, at: number): Line | undefined {
  const rest = line.slice(at);
  if (rest === "-" || rest.startsWith("- ") || rest.startsWith("-\t")) {
    const content = rest.slice(1).search(/\S/);
    return { kind: "item", column: at, rest: content === -1 ? line.length : at + 1 + content };
  }
  const match = QUOTED_KEY.exec(rest) ?? PLAIN_KEY.exec(rest);
  if (match === null) return undefined;
  const key = unquote(match[0].slice(0, match[0].lastIndexOf(":")).trimEnd());
  const value = rest
    .slice(match[0].length)
    .replace(/(^|\s)#.*$/, "")
    .trim()
    .replace(/^[&!][^\s]*\s*/, "");
  if (/^[[{]/.test(value) && !balanced(value)) return undefined;
  return { kind: "entry", column: at, key, value };
}

function unquote(raw: string): string {
  if (raw.startsWith('"')) return JSON.parse(raw) as string;
  if (raw.startsWith("'")) return raw.slice(1, -1).replace(/''/g, "'");
  return raw;
}

/** A flow collection (`[a, b]`, `{ $ref: "#/x" }`) that closes on its own line. */
function balanced(value: string): boolean {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quote !== undefined) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
  }
  return depth === 0;
}
