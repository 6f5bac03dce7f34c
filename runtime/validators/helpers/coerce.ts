/**
 * Parameter coercion: flags 1 integer, 2 number, 4 boolean, 8 null, 16 string (string allowed:
 * keep as is). Values that do not convert stay strings and fail the type check.
 *
 * The text of an integer is canonical decimal: an optional "-", then "0" or digits not starting
 * with "0"; no "+", exponent, fraction or leading zeros, and not "-0". Its value must be a safe
 * integer (at most 2^53 - 1 in magnitude), so that no two texts convert to the same number and
 * no value is rounded. The text of a number is a JSON number whose value is finite.
 */
import type { ValidationError } from "../types.js";
import { $invalid } from "./errors.js";
import type { $Sink } from "./module.js";
import { $hop } from "./values.js";

/**
 * The integer a text writes, else the value as it is (the conversion of flags 1 alone). A safe
 * integer's own text is its canonical decimal, so the text is one exactly when it reads back as
 * itself ("-0", "07", "1e3", "+1", " 1" do not).
 */
export function $integerText(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const n = Number(v);
  return Number.isSafeInteger(n) && String(n) === v ? n : v;
}

const $NUMBER_TEXT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
export function $coerce(v: unknown, flags: number): unknown {
  if (typeof v !== "string" || (flags & 16) !== 0) return v;
  if ((flags & 2) !== 0) {
    if ($NUMBER_TEXT.test(v)) {
      const n = Number(v);
      if (Number.isFinite(n)) return n;
    }
  } else if ((flags & 1) !== 0) {
    const n = $integerText(v);
    if (n !== v) return n;
  }
  if ((flags & 4) !== 0 && (v === "true" || v === "false")) return v === "true";
  if ((flags & 8) !== 0 && v === "null") return null;
  return v;
}

const $INTEGER_FORM =
  'an integer is written in decimal digits with an optional "-" and no "+", exponent, fraction or leading zero, from -9007199254740991 to 9007199254740991';

/**
 * The invalid result (as for any text) of values whose every conversion is of an integer, by
 * property name (path and header parameters, most query parameters): a type failure of a text
 * as an integer says how an integer is written, and one of a list says the name was repeated.
 * Only a property's failures can be of a text (the whole is an object, and a property holding
 * other properties would convert them too), so the value failed is read by the property's name.
 */
export function $invalidIntegerText(r: $Sink): { valid: false; errors: ValidationError[] } {
  for (const x of r.errors ?? []) {
    const key = x.instancePath.slice(1).replace(/~1/g, "/").replace(/~0/g, "~");
    const v = x.keyword === "type" && x.instancePath.lastIndexOf("/") === 0 && $hop.call(r.value, key) ? (r.value as Record<string, unknown>)[key] : undefined;
    if (Array.isArray(v)) x.message += " (it was sent " + v.length + " times)";
    if (typeof v === "string" && x.params["type"] === "integer") x.message += " (" + $INTEGER_FORM + ")";
  }
  return $invalid(r);
}

const $TEXT_FORMS: Readonly<Record<string, string>> = {
  integer: $INTEGER_FORM,
  number: "a number is written as a JSON number",
  boolean: 'a boolean is written "true" or "false"',
  null: 'null is written "null"',
};
/**
 * $invalid for values that arrived as text (parameters, form fields): a type failure of a text
 * says which texts convert, and one of a list at the top level says the name was repeated.
 */
export function $invalidText(r: $Sink): { valid: false; errors: ValidationError[] } {
  const errors = r.errors ?? [];
  for (let i = 0; i < errors.length; i++) {
    const x = errors[i];
    if (x === undefined || x.keyword !== "type") continue;
    const v = $valueAt(r.value, x.instancePath);
    if (Array.isArray(v) && x.instancePath.lastIndexOf("/") === 0) x.message += " (it was sent " + v.length + " times)";
    if (typeof v !== "string") continue;
    const forms = String(x.params["type"]).split(",").filter((t) => $hop.call($TEXT_FORMS, t)).map((t) => $TEXT_FORMS[t]);
    if (forms.length > 0) x.message += " (" + forms.join("; ") + ")";
  }
  return $invalid(r);
}
function $valueAt(value: unknown, pointer: string): unknown {
  if (pointer === "") return value;
  let v = value;
  for (const part of pointer.slice(1).split("/")) {
    if (typeof v !== "object" || v === null) return undefined;
    const key = part.replace(/~1/g, "/").replace(/~0/g, "~");
    v = $hop.call(v, key) ? (v as Record<string, unknown>)[key] : undefined;
  }
  return v;
}

/** A conversion plan: type flags for a value, [1, items] for an array, [0, properties, rest] for an object. */
export type $Plan = number | readonly [1, $Plan] | readonly [0, Readonly<Record<string, $Plan>>, $Plan];
export function $coercePlan(v: unknown, plan: $Plan): unknown {
  if (typeof plan === "number") return $coerce(v, plan);
  if (plan[0] === 1) {
    const list = typeof v === "string" ? [v] : v;
    if (!Array.isArray(list)) return v;
    let out: unknown[] | null = null;
    for (let i = 0; i < list.length; i++) {
      const c = $coercePlan(list[i], plan[1]);
      if (c !== list[i]) { if (out === null) out = list.slice(); out[i] = c; }
    }
    return out === null ? list : out;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
  const src = v as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const k in src) {
    if (!$hop.call(src, k)) continue;
    const p = $hop.call(plan[1], k) ? plan[1][k] : plan[2];
    if (p === undefined || p === 0) continue;
    const c = $coercePlan(src[k], p);
    if (c !== src[k]) out = $withOwn(src, out, k, c);
  }
  return out === null ? v : out;
}

/**
 * The conversion of properties that are all integers, by name (path and header parameters, most
 * query parameters, form fields): each own text of `names` that writes a safe integer becomes it
 * (`$integerText`), in a copy whose keys keep their order (a computed key defines "__proto__" as
 * an own data property). (Its text names no other helper it does not call: a section takes every
 * helper its text names.)
 */
export function $integerProps(v: unknown, names: readonly string[]): unknown {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
  const src = v as Record<string, unknown>;
  let out = src;
  for (const k of names) {
    if (!$hop.call(src, k)) continue;
    const c = $integerText(src[k]);
    if (c !== src[k]) out = { ...out, [k]: c };
  }
  return out;
}

/**
 * The conversion of a plan of scalars by property name (`[0, properties, 0]` whose properties are
 * all flags, not all integers: most query parameters, form fields), each by `$coerce`, as the
 * general plan converts it.
 */
export function $coerceProps(v: unknown, plan: Readonly<Record<string, number>>): unknown {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
  const src = v as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const k in src) {
    if (!$hop.call(src, k) || !$hop.call(plan, k)) continue;
    const c = $coerce(src[k], plan[k] as number);
    if (c !== src[k]) out = $withOwn(src, out, k, c);
  }
  return out === null ? v : out;
}

/**
 * A copy of the object (the copy made so far, else `src`) with `key` set to `value` as an own data
 * property: a computed key in a literal defines one, "__proto__" too, where an assignment would
 * set the prototype; a key already there keeps its place.
 */
export function $withOwn(src: Record<string, unknown>, out: Record<string, unknown> | null, key: string, value: unknown): Record<string, unknown> {
  return { ...(out ?? src), [key]: value };
}
