/**
 * hasOwnProperty; module constants; the realm's Object.prototype and own-key sets (own-property
 * tests); value comparisons and measures: code-point length, deep equality, uniqueness, exact
 * multipleOf.
 */

// Module-level constants are built by calling function declarations ($json, $regex, $setOf):
// TypeScript's checker resolves each reference to a global such as `JSON` or `Object` by walking
// back over every earlier declaration of the module, and a large module has thousands of
// constants; a reference to a function declaration costs it nothing.

export const $hop = Object.prototype.hasOwnProperty;

export function $json(text: string): unknown {
  return JSON.parse(text);
}

export function $regex(pattern: string): RegExp {
  return new RegExp(pattern, "u");
}

export function $regexWithoutUnicode(pattern: string): RegExp {
  return new RegExp(pattern);
}

export function $setOf(values: readonly unknown[]): ReadonlySet<unknown> {
  return new Set(values);
}

export const $proto = Object.prototype;

export function $ownKeys(o: object): object {
  const keys: Record<string, true> = Object.create(null);
  for (const k of Object.getOwnPropertyNames(o)) keys[k] = true;
  return keys;
}

/** The code points of `s`: its UTF-16 units, less one for each surrogate pair (a lone surrogate counts as one). */
export function $cpLen(s: string): number {
  return s.length - (s.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g) ?? "").length;
}

/** Whether `s` is longer than `max` code points; more than twice `max` UTF-16 units surely is, uncounted. */
export function $tooLong(s: string, max: number): boolean {
  return s.length > max && (s.length > 2 * max || $cpLen(s) > max);
}

export function $equal(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
  const stack: unknown[] = [x, y];
  while (stack.length > 0) {
    const b = stack.pop();
    const a = stack.pop();
    if (a === b) continue;
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
    if (Array.isArray(a) || Array.isArray(b)) {
      if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) stack.push(a[i], b[i]);
      continue;
    }
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) {
      if (!$hop.call(b, k)) return false;
      stack.push((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]);
    }
  }
  return true;
}

export function $duplicate(items: readonly unknown[]): [number, number] | null {
  const n = items.length;
  if (n < 2) return null;
  let primitive = true;
  for (let j = 0; j < n && primitive; j++) { const v = items[j]; primitive = typeof v !== "object" || v === null; }
  if (primitive) {
    const seen = new Map<unknown, number>();
    for (let j = 0; j < n; j++) {
      const i = seen.get(items[j]);
      if (i !== undefined) return [i, j];
      seen.set(items[j], j);
    }
    return null;
  }
  for (let j = 1; j < n; j++) for (let i = 0; i < j; i++) if ($equal(items[i], items[j])) return [i, j];
  return null;
}

export function $multipleOf(x: number, m: number, k: number): boolean {
  const scale = 10 ** k;
  const r = Math.round(x * scale);
  if (Number.isSafeInteger(r) && r / scale === x) return r % m === 0;
  if (!Number.isFinite(x)) return false;
  const text = String(Math.abs(x));
  const at = text.indexOf("e");
  const mantissa = at < 0 ? text : text.slice(0, at);
  const exponent = at < 0 ? 0 : Number(text.slice(at + 1));
  const dot = mantissa.indexOf(".");
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const fraction = (dot < 0 ? 0 : mantissa.length - dot - 1) - exponent;
  if (fraction > k) return false;
  return (BigInt(digits) * BigInt(10) ** BigInt(k - fraction)) % BigInt(m) === BigInt(0);
}
