import { code } from "./code.js";
import type { HelperDefinition } from "./runtime.js";

/** Names of the coercion helpers. */
export type CoerceHelperName = "coerce" | "coercePlan" | "withOwn";

/**
 * Parameter coercion: flags 1 integer, 2 number, 4 boolean, 8 null, 16 string (string allowed:
 * keep as is). Values that do not convert stay strings and fail the type check.
 */
export const COERCE_HELPERS: Record<CoerceHelperName, HelperDefinition> = {
  coerce: {
    deps: [],
    source: code`const $NUMERIC = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
function $coerce(v: unknown, flags: number): unknown {
  if (typeof v !== "string" || (flags & 16) !== 0) return v;
  if ((flags & 3) !== 0 && $NUMERIC.test(v)) {
    const n = Number(v);
    if ((flags & 2) !== 0 || Number.isInteger(n)) return n;
  }
  if ((flags & 4) !== 0 && (v === "true" || v === "false")) return v === "true";
  if ((flags & 8) !== 0 && v === "null") return null;
  return v;
}`,
  },
  coercePlan: {
    deps: ["coerce", "withOwn"],
    source: code`/** A conversion plan: type flags for a value, [1, items] for an array, [0, properties, rest] for an object. */
type $Plan = number | readonly [1, $Plan] | readonly [0, Readonly<Record<string, $Plan>>, $Plan];
function $coercePlan(v: unknown, plan: $Plan): unknown {
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
}`,
  },
  withOwn: {
    deps: [],
    source: code`function $withOwn(src: Record<string, unknown>, out: Record<string, unknown> | null, key: string, value: unknown): Record<string, unknown> {
  const target = out === null ? { ...src } : out;
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  return target;
}`,
  },
};
