/**
 * A string matching a `pattern`, for mock data: literal characters, escapes (\d \w \s and escaped
 * punctuation), character classes, ".", groups (capturing, named or not) with alternatives, and the
 * quantifiers ? * + {n} {n,} {n,m}, with anchors. Variant 0 is the plainest string: the first
 * alternative of each group, a common character of each class, each atom repeated its minimum
 * number of times (once for + and {0,}); other variants take other alternatives, characters and
 * counts, so that several distinct strings can be made (the items of a `uniqueItems` array).
 * Look-arounds and backreferences are not attempted: undefined. A string the pattern itself does
 * not match is not returned either.
 */
export function samplePattern(source: string, variant = 0): string | undefined {
  let parsed = READ.get(source);
  if (!READ.has(source)) {
    parsed = new PatternReader(source).read();
    if (READ.size >= READ_KEPT) READ.clear();
    READ.set(source, parsed);
  }
  if (parsed === undefined) return undefined;
  const out = writeAlternatives(parsed, new Digits(variant));
  return out !== undefined && matches(source, out) ? out : undefined;
}

/** The patterns read so far (a document repeats its patterns), up to READ_KEPT of them. */
const READ = new Map<string, Alternatives | undefined>();
const READ_KEPT = 4096;

/** What a pattern is made of: alternatives, each a sequence of quantified atoms. */
type Alternatives = readonly Sequence[];
type Sequence = readonly Piece[];
interface Piece {
  readonly atom: Atom;
  /** the numbers of repetitions to choose among, the plainest first */
  readonly counts: readonly number[];
}
type Atom = { readonly chars: readonly string[] } | { readonly group: Alternatives };

/** The most repetitions beyond the minimum a variant takes. */
const EXTRA_REPEATS = 2;
/** The most characters of one class a variant chooses among. */
const CLASS_CHOICES = 12;

/** The digits of a variant, read in a mixed radix: each choice point takes its own. */
class Digits {
  #rest: number;

  constructor(variant: number) {
    this.#rest = variant;
  }

  pick(count: number): number {
    if (count <= 1) return 0;
    const chosen = this.#rest % count;
    this.#rest = Math.floor(this.#rest / count);
    return chosen;
  }
}

function writeAlternatives(alternatives: Alternatives, digits: Digits): string | undefined {
  const sequence = alternatives[digits.pick(alternatives.length)];
  if (sequence === undefined) return undefined;
  let out = "";
  for (const piece of sequence) {
    const count = piece.counts[digits.pick(piece.counts.length)] ?? 0;
    for (let i = 0; i < count; i++) {
      const written =
        "group" in piece.atom
          ? writeAlternatives(piece.atom.group, digits)
          : piece.atom.chars[digits.pick(piece.atom.chars.length)];
      if (written === undefined) return undefined;
      out += written;
    }
  }
  return out;
}

function matches(source: string, candidate: string): boolean {
  return compile(source)?.test(candidate) === true;
}

/** The pattern as the validators compile it: with the `u` flag, else (ECMA-262 5.1's identity escapes) without. */
function compile(source: string): RegExp | undefined {
  for (const flags of ["u", ""]) {
    try {
      return new RegExp(source, flags);
    } catch {
      // without the flag, or not at all
    }
  }
  return undefined;
}

/** Reads a pattern into alternatives; undefined where it uses what is not attempted. */
class PatternReader {
  #at = 0;

  constructor(readonly source: string) {}

  read(): Alternatives | undefined {
    const alternatives = this.#alternatives();
    return alternatives !== undefined && this.#at === this.source.length ? alternatives : undefined;
  }

  #alternatives(): Alternatives | undefined {
    const alternatives: Sequence[] = [];
    for (;;) {
      const sequence = this.#sequence();
      if (sequence === undefined) return undefined;
      alternatives.push(sequence);
      if (this.source[this.#at] !== "|") return alternatives;
      this.#at++;
    }
  }

  #sequence(): Sequence | undefined {
    const pieces: Piece[] = [];
    for (;;) {
      const char = this.source[this.#at];
      if (char === undefined || char === "|" || char === ")") return pieces;
      // anchors match no character
      if (char === "^" || char === "$") {
        this.#at++;
        continue;
      }
      const atom = this.#atom();
      if (atom === undefined) return undefined;
      const counts = this.#quantifier();
      if (counts === undefined) return undefined;
      pieces.push({ atom, counts });
    }
  }

  #atom(): Atom | undefined {
    const { source } = this;
    const char = source[this.#at];
    if (char === undefined) return undefined;
    if (char === "(") return this.#group();
    if (char === "\\") {
      const next = source[this.#at + 1];
      if (next === undefined) return undefined;
      this.#at += 2;
      if ("dwsDWS".includes(next)) return classAtom(`[\\${next}]`);
      if (next === "n" || next === "t") return { chars: [next === "n" ? "\n" : "\t"] };
      return /[A-Za-z0-9]/.test(next) ? undefined : { chars: [next] };
    }
    if (char === "[") {
      let close = this.#at + 1;
      if (source[close] === "^") close++;
      if (source[close] === "]") close++;
      while (close < source.length && source[close] !== "]") close += source[close] === "\\" ? 2 : 1;
      if (close >= source.length) return undefined;
      const atom = classAtom(source.slice(this.#at, close + 1));
      this.#at = close + 1;
      return atom;
    }
    this.#at++;
    if (char === ".") return classAtom("[^\\n\\r]");
    return "*+?{}".includes(char) ? undefined : { chars: [char] };
  }

  /** A group: "(…)", "(?:…)" or "(?<name>…)"; look-arounds are not attempted. */
  #group(): Atom | undefined {
    const { source } = this;
    this.#at++;
    if (source[this.#at] === "?") {
      const named = /^\?<[A-Za-z_$][\w$]*>/.exec(source.slice(this.#at));
      if (source[this.#at + 1] === ":") this.#at += 2;
      else if (named !== null) this.#at += named[0].length;
      else return undefined;
    }
    const group = this.#alternatives();
    if (group === undefined || source[this.#at] !== ")") return undefined;
    this.#at++;
    return { group };
  }

  /** The repetition counts a quantifier allows (one count where there is none), the plainest first. */
  #quantifier(): readonly number[] | undefined {
    const { source } = this;
    const char = source[this.#at];
    let min: number;
    let max: number;
    if (char === "?" || char === "*" || char === "+") {
      this.#at++;
      [min, max] = char === "?" ? [0, 1] : [char === "*" ? 0 : 1, Infinity];
    } else if (char === "{") {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(this.#at));
      if (match === null) return undefined;
      this.#at += match[0].length;
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === "" || match[3] === undefined ? Infinity : Number(match[3]);
    } else {
      return [1];
    }
    if (source[this.#at] === "?") this.#at++;
    if (min > 1000 || max < min) return undefined;
    // "+" and "{0,…}" once, "?" and "*" not at all
    const plainest = min === 0 && char === "{" && max >= 1 ? 1 : min;
    const counts = [plainest];
    for (let count = min; count <= Math.min(max, min + EXTRA_REPEATS); count++)
      if (count !== plainest) counts.push(count);
    return counts;
  }
}

/** Characters tried for a class, common ones first: the first that matches is the plainest. */
const CLASS_CANDIDATES = [
  ..."a0Ax_-. ",
  ..."123456789",
  ..."bcdefghijklmnopqrstuvwyz",
  ..."BCDEFGHIJKLMNOPQRSTUVWXYZ",
  ..."!\"#$%&'()*+,/:;<=>?@[\\]^`{|}~",
];

/** The characters of a class (up to CLASS_CHOICES of them) that the candidates offer. */
function classAtom(characterClass: string): Atom | undefined {
  const test = compile(`^${characterClass}$`);
  if (test === undefined) return undefined;
  const chars = CLASS_CANDIDATES.filter((candidate) => test.test(candidate)).slice(0, CLASS_CHOICES);
  return chars.length === 0 ? undefined : { chars };
}
