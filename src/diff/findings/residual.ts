import { appendPointer, resolvePointer } from "../../json-pointer.js";
import { isRecord } from "../../json-value.js";
import type { ChangeDirection } from "../report/types.js";
import type { Finding } from "./finding.js";
import { classifyKeyword } from "./keyword-change.js";
import { sameJson } from "./stable-json.js";

/** An object of the document on each side (after $refs), and how the report names it. */
export interface RawPair {
  readonly base: unknown;
  readonly head: unknown;
  readonly basePointer: string;
  readonly headPointer: string;
  /** "operation createVenue", "query parameter `q`" */
  readonly label: string;
  readonly direction?: ChangeDirection;
}

/** The raw pair of objects at two pointers of the two documents. */
export function rawPair(
  base: unknown,
  head: unknown,
  pointers: { base: string; head: string },
  label: string,
  direction?: ChangeDirection,
): RawPair {
  return {
    base: resolvePointer(base, pointers.base),
    head: resolvePointer(head, pointers.head),
    basePointer: pointers.base,
    headPointer: pointers.head,
    label,
    ...(direction !== undefined ? { direction } : {}),
  };
}

/**
 * Every key of an object that no rule looks at (`handled` lists those that one does): documentation
 * and examples are reported as such, `deprecated` as a deprecation, anything else as unclassified,
 * so that no change goes unreported.
 */
export function compareResidual(pair: RawPair, handled: ReadonlySet<string>): Finding[] {
  const base = isRecord(pair.base) ? pair.base : {};
  const head = isRecord(pair.head) ? pair.head : {};
  const keys = [...new Set([...Object.keys(base), ...Object.keys(head)])].filter((key) => !handled.has(key)).sort();
  return keys
    .filter((key) => !sameJson(base[key], head[key]))
    .map((key) => keyFinding(pair, key, base[key], head[key]));
}

function keyFinding(pair: RawPair, key: string, before: unknown, after: unknown): Finding {
  const { rule, what } = classifyKeyword(key, before, after);
  const pointer = after !== undefined ? appendPointer(pair.headPointer, key) : appendPointer(pair.basePointer, key);
  return {
    rule,
    pointer,
    at: after !== undefined ? pointer : pair.headPointer,
    ...(pair.direction !== undefined ? { direction: pair.direction } : {}),
    ...(before !== undefined ? { before } : {}),
    ...(after !== undefined ? { after } : {}),
    message: `${pair.label}: ${what}`,
  };
}
