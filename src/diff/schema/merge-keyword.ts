import { boundKeywords, keywordsWhere } from "../../schema/vocabulary.js";
import { stableStringify } from "../findings/stable-json.js";
import type { Keyword } from "./shape.js";

/** Keywords whose smaller value is the stricter one. */
export const UPPER_BOUNDS: ReadonlySet<string> = boundKeywords("upper");
/** Keywords whose larger value is the stricter one. */
export const LOWER_BOUNDS: ReadonlySet<string> = boundKeywords("lower");
/** Other keywords the comparison classifies: a value added or changed restricts what is valid. */
export const RESTRICTIONS: ReadonlySet<string> = new Set(keywordsWhere((entry) => entry.restriction === true));

/** Keywords that say how a string is to be read, compared as `format` is. */
export const ENCODINGS: readonly string[] = keywordsWhere((entry) => entry.encoding === true);

/** Whether a keyword is classified by the constraint rules (or as an encoding or default). */
export function isClassifiedKeyword(key: string): boolean {
  return (
    UPPER_BOUNDS.has(key) ||
    LOWER_BOUNDS.has(key) ||
    RESTRICTIONS.has(key) ||
    ENCODINGS.includes(key) ||
    key === "default"
  );
}

/**
 * The value of a keyword written in several parts of one level (allOf members): the strictest
 * bound, `uniqueItems` if any part asks for it, and otherwise every distinct value, all of which apply.
 */
export function mergeKeyword(existing: Keyword | undefined, key: string, incoming: Keyword): Keyword {
  if (existing === undefined) return incoming;
  const [a, b] = [existing.value, incoming.value];
  if (typeof a === "number" && typeof b === "number" && UPPER_BOUNDS.has(key)) return a <= b ? existing : incoming;
  if (typeof a === "number" && typeof b === "number" && LOWER_BOUNDS.has(key)) return a >= b ? existing : incoming;
  if (key === "uniqueItems") return a === true ? existing : incoming;
  if (stableStringify(a) === stableStringify(b)) return existing;
  return { value: { allOf: [...mergedValues(a), b] }, pointer: existing.pointer };
}

/** The values of a keyword merged before: `{ allOf: [...] }`; a plain value is one. */
function mergedValues(value: unknown): unknown[] {
  const merged =
    value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 1
      ? (value as { allOf?: unknown }).allOf
      : undefined;
  return Array.isArray(merged) ? merged : [value];
}
