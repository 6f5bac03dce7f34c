/**
 * A string matching a simple `pattern`, for mock data: literal characters, escapes (\d \w \s and
 * escaped punctuation), character classes, "." and the quantifiers ? * + {n} {n,m}, with anchors.
 * Each atom is repeated its minimum number of times (once for + and {0,}). Groups, alternation and
 * look-arounds are not attempted: undefined. The result is only a candidate: the caller checks it.
 */
export function samplePattern(source: string): string | undefined {
  let out = "";
  let i = source.startsWith("^") ? 1 : 0;
  while (i < source.length) {
    if (source[i] === "$" && i === source.length - 1) break;
    const atom = readAtom(source, i);
    if (atom === undefined) return undefined;
    const quantifier = readQuantifier(source, atom.end);
    if (quantifier === undefined) return undefined;
    out += atom.char.repeat(quantifier.count);
    i = quantifier.end;
  }
  return out;
}

interface Atom {
  readonly char: string;
  readonly end: number;
}

const ESCAPES: Readonly<Record<string, string>> = { d: "0", w: "a", s: " ", D: "a", W: "-", S: "a", n: "\n", t: "\t" };

function readAtom(source: string, at: number): Atom | undefined {
  const char = source[at];
  if (char === undefined || "()|".includes(char)) return undefined;
  if (char === "\\") {
    const next = source[at + 1];
    if (next === undefined) return undefined;
    if (Object.hasOwn(ESCAPES, next)) return { char: ESCAPES[next] ?? "", end: at + 2 };
    return /[A-Za-z0-9]/.test(next) ? undefined : { char: next, end: at + 2 };
  }
  if (char === "[") return readClass(source, at);
  if (char === ".") return { char: "a", end: at + 1 };
  if ("*+?{}^$".includes(char)) return undefined;
  return { char, end: at + 1 };
}

const CLASS_CANDIDATES = ["a", "0", "A", "x", "_", "-", ".", " "];

/** A character the class matches (tried from a few common ones): "[A-Za-z]" → "a", "[^/]" → "a". */
function readClass(source: string, at: number): Atom | undefined {
  let close = at + 1;
  while (close < source.length && source[close] !== "]") close += source[close] === "\\" ? 2 : 1;
  if (close >= source.length || close === at + 1) return undefined;
  const char = CLASS_CANDIDATES.find((candidate) => matchesClass(source.slice(at, close + 1), candidate));
  return char === undefined ? undefined : { char, end: close + 1 };
}

function matchesClass(characterClass: string, candidate: string): boolean {
  try {
    return new RegExp(`^${characterClass}$`, "u").test(candidate);
  } catch {
    return false;
  }
}

interface Quantifier {
  readonly count: number;
  readonly end: number;
}

function readQuantifier(source: string, at: number): Quantifier | undefined {
  const char = source[at];
  if (char === "?" || char === "*") return { count: 0, end: lazy(source, at + 1) };
  if (char === "+") return { count: 1, end: lazy(source, at + 1) };
  if (char !== "{") return { count: 1, end: at };
  const match = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(at));
  if (match === null) return undefined;
  const min = Number(match[1]);
  return min > 1000
    ? undefined
    : { count: min === 0 && match[2] !== undefined ? 1 : min, end: lazy(source, at + match[0].length) };
}

function lazy(source: string, at: number): number {
  return source[at] === "?" ? at + 1 : at;
}
