import type { SchemaChecker } from "./mock-check.js";
import { formatSample } from "./mock-formats.js";
import { codePoints, isPlainObject } from "./mock-keywords.js";
import { samplePattern } from "./mock-pattern.js";
import type { Sample, SampleContext } from "./mock-sample.js";

type Schema = Record<string, unknown>;

const STRING_SEEDS = ["string", "example", "a", "A", "0", "abc123", "x-1", "Example"];

const numberAt = (schema: Schema, key: string): number | undefined => (typeof schema[key] === "number" ? (schema[key] as number) : undefined);

/** The number nearest 0 (or 1 for a multipleOf) within the bounds. */
export function sampleNumber(schema: Schema, integer: boolean): Sample | undefined {
  const step = numberAt(schema, "multipleOf") ?? (integer ? 1 : 0.5);
  let low = numberAt(schema, "minimum") ?? -Infinity;
  let high = numberAt(schema, "maximum") ?? Infinity;
  if (schema["exclusiveMinimum"] === true) low += step;
  if (schema["exclusiveMaximum"] === true) high -= step;
  const exclusiveLow = numberAt(schema, "exclusiveMinimum");
  const exclusiveHigh = numberAt(schema, "exclusiveMaximum");
  if (exclusiveLow !== undefined) low = Math.max(low, exclusiveLow + step);
  if (exclusiveHigh !== undefined) high = Math.min(high, exclusiveHigh - step);
  const start = Math.min(Math.max(schema["multipleOf"] === undefined ? 0 : step, low), high);
  const value = Math.ceil(start / step) * step;
  return Number.isFinite(value) && value <= high ? { value: integer ? Math.ceil(value) : value } : undefined;
}

/** A format sample or a plain seed, fitted to the length bounds, that passes the schema's checks. */
export function sampleString(schema: Schema, checker: SchemaChecker): Sample | undefined {
  const min = numberAt(schema, "minLength") ?? 0;
  const max = numberAt(schema, "maxLength") ?? Infinity;
  const pattern = typeof schema["pattern"] === "string" ? samplePattern(schema["pattern"]) : undefined;
  const seeds = [pattern, formatSample(schema["format"]), ...STRING_SEEDS].filter((seed): seed is string => seed !== undefined);
  for (const seed of seeds) {
    const fitted = fitLength(seed, min, max);
    if (fitted !== undefined && checker.conforms(schema, fitted)) return { value: fitted };
  }
  return undefined;
}

function fitLength(seed: string, min: number, max: number): string | undefined {
  if (min > max || min > 10_000) return undefined;
  const length = codePoints(seed);
  if (length > max) return [...seed].slice(0, max).join("");
  return length >= min ? seed : seed + "a".repeat(min - length);
}

/** Near the top one item (or minItems), deeper minItems; each item built from its schema. */
export function sampleArray(schema: Schema, depth: number, context: SampleContext): Sample | undefined {
  const prefix = Array.isArray(schema["prefixItems"]) ? (schema["prefixItems"] as unknown[]) : [];
  const min = numberAt(schema, "minItems") ?? 0;
  const max = numberAt(schema, "maxItems") ?? Infinity;
  const wanted = Math.min(Math.max(min, context.full(depth) ? 1 : 0, schema["contains"] === undefined ? 0 : 1), max);
  const items: unknown[] = [];
  for (let i = 0; i < wanted; i++) {
    const itemSchema = i < prefix.length ? prefix[i] : schema["contains"] !== undefined && i === 0 ? schema["contains"] : schema["items"] ?? true;
    const built = context.sample(itemSchema, depth + 1);
    if (built === undefined) return items.length >= min ? { value: items } : undefined;
    items.push(built.value);
  }
  return { value: items };
}

/** Every required property, and near the top the optional ones too; writeOnly ones never. */
export function sampleObject(schema: Schema, depth: number, context: SampleContext): Sample | undefined {
  const properties = isPlainObject(schema["properties"]) ? schema["properties"] : {};
  const required = (Array.isArray(schema["required"]) ? schema["required"] : []).filter((name): name is string => typeof name === "string");
  const names = context.full(depth) ? [...new Set([...required, ...Object.keys(properties)])] : required;
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const propertySchema = Object.hasOwn(properties, name) ? properties[name] : schema["additionalProperties"] ?? true;
    if (context.checker.isWriteOnly(propertySchema)) continue;
    const built = name === "__proto__" ? undefined : context.sample(propertySchema, depth + 1);
    if (built === undefined && required.includes(name)) return undefined;
    if (built !== undefined) out[name] = built.value;
  }
  return addMinimumProperties(schema, out, depth, context);
}

function addMinimumProperties(schema: Schema, out: Record<string, unknown>, depth: number, context: SampleContext): Sample | undefined {
  const min = numberAt(schema, "minProperties") ?? 0;
  const extra = schema["additionalProperties"] ?? true;
  for (let i = 1; Object.keys(out).length < min && i <= min; i++) {
    const built = context.sample(extra, depth + 1);
    if (built === undefined) return undefined;
    out[`property${i}`] = built.value;
  }
  return { value: out };
}
