import { code } from "./code.js";
import type { HelperDefinition } from "./runtime.js";

/** Names of the coercion helpers. */
export type CoerceHelperName = "coerce" | "coerceArray" | "withOwn";

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
  coerceArray: {
    deps: ["coerce"],
    source: code`function $coerceArray(v: unknown, flags: number): unknown {
  if (typeof v === "string") return [$coerce(v, flags)];
  if (!Array.isArray(v)) return v;
  let out: unknown[] | null = null;
  for (let i = 0; i < v.length; i++) {
    const c = $coerce(v[i], flags);
    if (c !== v[i]) { if (out === null) out = v.slice(); out[i] = c; }
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
