/**
 * Whether every string one `pattern` accepts, another accepts too, for the shapes patterns
 * commonly take: a run of one character class (`^[a-z]+$`, `^\d{3,5}$`, `.+`, `^[A-Z]`), and an
 * alternation of literals (`^(draft|final)$`). Any other pattern is not read, and a change to or
 * from it stays "changed" (whether one accepts all the other does is not worked out). Patterns are
 * searched for, not matched whole (JSON Schema), so an unanchored run asks only that the string
 * hold one such run somewhere.
 */

/** Sorted, disjoint, inclusive ranges of code points. */
type CharSet = readonly (readonly [number, number])[];

/** The strings a pattern accepts, in a form inclusion can be decided on. */
type Language =
  | { readonly kind: "literals"; readonly strings: readonly string[] }
  | {
      readonly kind: "run";
      readonly set: CharSet;
      readonly min: number;
      readonly max: number;
      /** `^` and `$`: the run is the whole string, its start, its end, or somewhere in it */
      readonly start: boolean;
      readonly end: boolean;
    };

const MAX_CODE_POINT = 0x10ffff;
const DIGITS: CharSet = [[0x30, 0x39]];
const WORD: CharSet = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
/** `.`: every code point but the line terminators (\n, \r, U+2028, U+2029). */
const DOT: CharSet = complement([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
]);
const SYNTAX = new Set([..."^$\\.*+?()[]{}|/-"]);
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { n: 0x0a, r: 0x0d, t: 0x09, f: 0x0c, v: 0x0b };

/** How the strings `after` accepts stand to those `before` accepted; undefined when not worked out. */
export function comparePatterns(before: string, after: string): "same" | "fewer" | "more" | undefined {
  const [was, is] = [readPattern(before), readPattern(after)];
  if (was === undefined || is === undefined) return undefined;
  const [inside, around] = [isIncluded(is, was, before), isIncluded(was, is, after)];
  if (inside && around) return "same";
  return inside ? "fewer" : around ? "more" : undefined;
}

/** Whether every string of `narrow` is one of `wide` (false where that is not shown). */
function isIncluded(narrow: Language, wide: Language, wideText: string): boolean {
  if (narrow.kind === "literals") return narrow.strings.every((text) => searches(wideText, text));
  if (wide.kind === "literals") return false;
  if (!within(narrow.set, wide.set) || narrow.min < wide.min) return false;
  if (wide.start && wide.end) return narrow.start && narrow.end && narrow.max <= wide.max;
  if (wide.start) return narrow.start;
  if (wide.end) return narrow.end;
  return true;
}

function searches(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, "u").test(text);
  } catch {
    return false;
  }
}

/** A pattern read as a language, or undefined when it has another shape. */
function readPattern(pattern: string): Language | undefined {
  const start = pattern.startsWith("^");
  const end = pattern.endsWith("$") && !pattern.endsWith("\\$") && pattern.length > (start ? 1 : 0);
  const body = pattern.slice(start ? 1 : 0, end ? -1 : undefined);
  if (start && end) {
    const literals = readLiterals(body);
    if (literals !== undefined) return { kind: "literals", strings: literals };
  }
  const atom = readAtom(body, 0);
  if (atom === undefined) return undefined;
  const quantifier = readQuantifier(body.slice(atom.next));
  return quantifier === undefined ? undefined : { kind: "run", set: atom.set, ...quantifier, start, end };
}

/** `draft`, `(draft|final)`, `(?:a|b)`: the strings, or undefined. */
function readLiterals(body: string): string[] | undefined {
  const group = /^\((?:\?:)?(.*)\)$/su.exec(body);
  const options = group !== null ? (group[1] ?? "").split("|") : [body];
  const strings = options.map(readLiteral);
  return strings.every((text): text is string => text !== undefined) ? strings : undefined;
}

function readLiteral(text: string): string | undefined {
  let result = "";
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (char === "\\") {
      const escaped = text[index + 1];
      if (escaped === undefined || !SYNTAX.has(escaped)) return undefined;
      result += escaped;
      index++;
    } else if (SYNTAX.has(char) && char !== "-" && char !== "/") return undefined;
    else result += char;
  }
  return result;
}

/** One character class, escape, `.` or literal character at `index`, and where it ends. */
function readAtom(text: string, index: number): { set: CharSet; next: number } | undefined {
  const char = text[index];
  if (char === undefined) return undefined;
  if (char === ".") return { set: DOT, next: index + 1 };
  if (char === "[") return readClass(text, index + 1);
  if (char === "\\") {
    const set = escapeSet(text[index + 1]);
    return set === undefined ? undefined : { set, next: index + 2 };
  }
  if (SYNTAX.has(char) && char !== "-" && char !== "/") return undefined;
  const code = text.codePointAt(index) as number;
  return { set: [[code, code]], next: index + String.fromCodePoint(code).length };
}

/** `\d`, `\w`, a control escape or an escaped syntax character; undefined for others (`\s`, `\p`, ...). */
function escapeSet(escaped: string | undefined): CharSet | undefined {
  if (escaped === undefined) return undefined;
  if (escaped === "d") return DIGITS;
  if (escaped === "w") return WORD;
  const control = CONTROL_ESCAPES[escaped];
  if (control !== undefined) return [[control, control]];
  if (!SYNTAX.has(escaped)) return undefined;
  const code = escaped.codePointAt(0) as number;
  return [[code, code]];
}

/** A class `[...]` from just after its `[`: its set (complemented for `[^...]`) and where it ends. */
function readClass(text: string, from: number): { set: CharSet; next: number } | undefined {
  const negated = text[from] === "^";
  const ranges: (readonly [number, number])[] = [];
  let index = negated ? from + 1 : from;
  while (index < text.length && text[index] !== "]") {
    const low = classMember(text, index);
    if (low === undefined) return undefined;
    if (text[low.next] === "-" && text[low.next + 1] !== "]" && low.code !== undefined) {
      const high = classMember(text, low.next + 1);
      if (high?.code === undefined || high.code < low.code) return undefined;
      ranges.push([low.code, high.code]);
      index = high.next;
    } else {
      ranges.push(...low.set);
      index = low.next;
    }
  }
  if (text[index] !== "]" || ranges.length === 0) return undefined;
  const set = normalise(ranges);
  return { set: negated ? complement(set) : set, next: index + 1 };
}

/** One member of a class: a character (with its code, so it may start a range) or a class escape. */
function classMember(text: string, index: number): { set: CharSet; code?: number; next: number } | undefined {
  const char = text[index];
  if (char === undefined) return undefined;
  if (char !== "\\") {
    const code = text.codePointAt(index) as number;
    return { set: [[code, code]], code, next: index + String.fromCodePoint(code).length };
  }
  const set = escapeSet(text[index + 1]);
  if (set === undefined) return undefined;
  const single = set.length === 1 && set[0]?.[0] === set[0]?.[1] && text[index + 1] !== "d" && text[index + 1] !== "w";
  return single ? { set, code: set[0]?.[0] as number, next: index + 2 } : { set, next: index + 2 };
}

/** `+`, `*`, `?`, `{n}`, `{n,}`, `{n,m}` or nothing (once), ending the pattern's body. */
function readQuantifier(rest: string): { min: number; max: number } | undefined {
  if (rest === "") return { min: 1, max: 1 };
  if (rest === "+") return { min: 1, max: Number.POSITIVE_INFINITY };
  if (rest === "*") return { min: 0, max: Number.POSITIVE_INFINITY };
  if (rest === "?") return { min: 0, max: 1 };
  const braces = /^\{(\d+)(,(\d*))?\}$/u.exec(rest);
  if (braces === null) return undefined;
  const min = Number(braces[1]);
  const max = braces[2] === undefined ? min : braces[3] === "" ? Number.POSITIVE_INFINITY : Number(braces[3]);
  return max < min ? undefined : { min, max };
}

function normalise(ranges: readonly (readonly [number, number])[]): CharSet {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [low, high] of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && low <= last[1] + 1) last[1] = Math.max(last[1], high);
    else merged.push([low, high]);
  }
  return merged;
}

function complement(set: CharSet): CharSet {
  const result: [number, number][] = [];
  let next = 0;
  for (const [low, high] of normalise(set)) {
    if (low > next) result.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}

/** Whether every code point of `inner` is in `outer`. */
function within(inner: CharSet, outer: CharSet): boolean {
  return inner.every(([low, high]) => outer.some(([from, to]) => from <= low && high <= to));
}
