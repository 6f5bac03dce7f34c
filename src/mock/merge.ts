import { isRecord } from "../json-value.js";
import { boundKeywords } from "../schema/vocabulary.js";
import type { SchemaSource } from "./schema.js";

type Schema = Record<string, unknown>;

/** The bounds whose larger value is the stricter, and those whose smaller is (every bound of the keyword vocabulary). */
const LOWER_BOUNDS = boundKeywords("lower");
const UPPER_BOUNDS = boundKeywords("upper");

/**
 * allOf as one schema to build data from: properties and required names of every member together,
 * the strictest bounds, the types they share; the first member wins other conflicts (the data is
 * checked against the original schema by the generated validator, so a lost constraint only costs
 * that candidate).
 */
export function mergeAllOf(schema: Schema, source: SchemaSource): Schema {
  const merged: Schema = {};
  for (const part of flatten(schema, source, new Set())) {
    for (const [key, value] of Object.entries(part)) mergeKeyword(merged, key, value);
  }
  return merged;
}

function flatten(schema: unknown, source: SchemaSource, seen: Set<unknown>): Schema[] {
  const resolved = source.resolveRefs(schema);
  if (!isRecord(resolved) || seen.has(resolved)) return [];
  seen.add(resolved);
  const { allOf, ...own } = resolved;
  const members = Array.isArray(allOf) ? allOf.flatMap((member) => flatten(member, source, seen)) : [];
  return [own, ...members];
}

function mergeKeyword(merged: Schema, key: string, value: unknown): void {
  const previous = merged[key];
  if (previous === undefined) merged[key] = value;
  else if (key === "properties" && isRecord(previous) && isRecord(value))
    merged[key] = mergeProperties(previous, value);
  else if (key === "required" && Array.isArray(previous) && Array.isArray(value))
    merged[key] = [...new Set([...previous, ...value])];
  else if (key === "type") merged[key] = intersectTypes(previous, value);
  else if (typeof previous === "number" && typeof value === "number") {
    if (LOWER_BOUNDS.has(key)) merged[key] = Math.max(previous, value);
    if (UPPER_BOUNDS.has(key)) merged[key] = Math.min(previous, value);
  }
}

function mergeProperties(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a };
  for (const [name, schema] of Object.entries(b))
    out[name] = Object.hasOwn(out, name) ? { allOf: [out[name], schema] } : schema;
  return out;
}

function intersectTypes(a: unknown, b: unknown): unknown {
  const list = (t: unknown): unknown[] => (Array.isArray(t) ? t : [t]);
  const shared = list(a).filter((type) => list(b).includes(type) || (type === "integer" && list(b).includes("number")));
  if (shared.length === 0 && list(a).includes("number") && list(b).includes("integer")) return "integer";
  return shared.length === 1 ? shared[0] : shared.length === 0 ? a : shared;
}
