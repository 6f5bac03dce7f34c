import { $equal } from "../../runtime/validators/helpers/values.js";
import { isRecord } from "../json-value.js";
import { type DialectRules, exclusiveFlag } from "../schema/dialect.js";
import type { Choices } from "./choices.js";
import { childPath, type Sample, type SampleContext } from "./context.js";
import { formatSample } from "./formats.js";
import { samplePattern } from "./pattern.js";

type Schema = Record<string, unknown>;

const STRING_SEEDS = ["string", "example", "a", "A", "0", "abc123", "x-1", "Example"];

const numberAt = (schema: Schema, key: string): number | undefined =>
  typeof schema[key] === "number" ? (schema[key] as number) : undefined;

/**
 * The number nearest 0 (or 1 for a multipleOf) within the bounds; for a variant n, n steps above
 * it (counted round within the bounds).
 */
export function sampleNumber(schema: Schema, integer: boolean, rules: DialectRules, variant = 0): Sample | undefined {
  const step = numberAt(schema, "multipleOf") ?? (integer ? 1 : 0.5);
  let low = numberAt(schema, "minimum") ?? -Infinity;
  let high = numberAt(schema, "maximum") ?? Infinity;
  if (exclusiveFlag(rules, schema, "exclusiveMinimum") === true) low += step;
  if (exclusiveFlag(rules, schema, "exclusiveMaximum") === true) high -= step;
  const exclusiveLow = numberAt(schema, "exclusiveMinimum");
  const exclusiveHigh = numberAt(schema, "exclusiveMaximum");
  if (exclusiveLow !== undefined) low = Math.max(low, exclusiveLow + step);
  if (exclusiveHigh !== undefined) high = Math.min(high, exclusiveHigh - step);
  const start = Math.min(Math.max(schema["multipleOf"] === undefined ? 0 : step, low), high);
  const plainest = Math.ceil(start / step) * step;
  const room = Math.floor((high - plainest) / step) + 1;
  const value = plainest + (room > 1 ? variant % room : 0) * step;
  return Number.isFinite(value) && value <= high ? { value: integer ? Math.ceil(value) : value } : undefined;
}

/**
 * One of: a pattern sample, a format sample, a plain seed; fitted to the length bounds. Each
 * variant gives other strings: the pattern's and the format's own, the seeds numbered.
 */
export function sampleString(schema: Schema, path: string, choices: Choices, variant = 0): Sample | undefined {
  const min = numberAt(schema, "minLength") ?? 0;
  const max = numberAt(schema, "maxLength") ?? Infinity;
  const pattern = typeof schema["pattern"] === "string" ? samplePattern(schema["pattern"], variant) : undefined;
  const plain = variant === 0 ? STRING_SEEDS : STRING_SEEDS.map((seed) => `${seed}${variant}`);
  const seeds = [pattern, formatSample(schema["format"], variant), ...plain]
    .filter((seed): seed is string => seed !== undefined)
    .map((seed) => fitLength(seed, min, max))
    .filter((seed): seed is string => seed !== undefined);
  return seeds.length === 0 ? undefined : { value: seeds[choices.pick(path, seeds.length)] };
}

/** A seed cut or padded to the bounds (counted in UTF-16 units; the validator counts code points and judges). */
function fitLength(seed: string, min: number, max: number): string | undefined {
  if (min > max || min > 10_000) return undefined;
  if (seed.length > max) return seed.slice(0, max);
  return seed.length >= min ? seed : seed + "a".repeat(min - seed.length);
}

/**
 * A builder of arrays or objects: a sample of `schema` at an instance path and depth, building its
 * parts through `context`; the `variant`-th (0, the plainest).
 */
type ContainerBuilder = (
  schema: Schema,
  path: string,
  depth: number,
  context: SampleContext,
  variant?: number,
) => Sample | undefined;

/**
 * Near the top one item (or minItems), deeper minItems, and at least minContains (1 by default)
 * items built from `contains`; each item built from its schema. Where items must be unique, each
 * is built as the next variant until it differs from those before it.
 */
export const sampleArray: ContainerBuilder = (schema, path, depth, context, variant = 0) => {
  const prefix = Array.isArray(schema["prefixItems"]) ? (schema["prefixItems"] as unknown[]) : [];
  const min = numberAt(schema, "minItems") ?? 0;
  const max = numberAt(schema, "maxItems") ?? Infinity;
  const containing = schema["contains"] === undefined ? 0 : (numberAt(schema, "minContains") ?? 1);
  const wanted = Math.min(Math.max(min, context.full(depth) ? 1 : 0, containing), max);
  const unique = schema["uniqueItems"] === true;
  const items: unknown[] = [];
  let next = variant;
  for (let i = 0; i < wanted; i++) {
    const itemSchema = i < prefix.length ? prefix[i] : i < containing ? schema["contains"] : (schema["items"] ?? true);
    const build = (itemVariant: number): Sample | undefined =>
      context.sample(itemSchema, childPath(path, i), depth + 1, itemVariant);
    let built = build(next);
    for (
      let tries = 0;
      unique && built !== undefined && tries < UNIQUE_TRIES && isRepeated(built.value, items);
      tries++
    )
      built = build(++next);
    if (built === undefined) return items.length >= min ? { value: items } : undefined;
    if (unique) next++;
    items.push(built.value);
  }
  return { value: items };
};

/** How many more variants an item of a `uniqueItems` array is built as before a repeated one is kept (the validator judges). */
const UNIQUE_TRIES = 32;

function isRepeated(value: unknown, items: readonly unknown[]): boolean {
  return items.some((item) => $equal(item, value));
}

/** Every required property, and near the top (unless told otherwise) the optional ones too; writeOnly ones never. */
export const sampleObject: ContainerBuilder = (schema, path, depth, context, variant = 0) => {
  const properties = isRecord(schema["properties"]) ? schema["properties"] : {};
  const required = (Array.isArray(schema["required"]) ? schema["required"] : []).filter(
    (name): name is string => typeof name === "string",
  );
  const withOptional = context.full(depth) && context.choices.pick(path, 2) === 0;
  const names = withOptional ? [...new Set([...required, ...Object.keys(properties)])] : required;
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const propertySchema = Object.hasOwn(properties, name)
      ? properties[name]
      : (schema["additionalProperties"] ?? true);
    if (context.source.isWriteOnly(propertySchema)) continue;
    const built =
      name === "__proto__" ? undefined : context.sample(propertySchema, childPath(path, name), depth + 1, variant);
    if (built === undefined && required.includes(name)) return undefined;
    if (built !== undefined) out[name] = built.value;
  }
  return addMinimumProperties(schema, out, path, depth, context, variant);
};

function addMinimumProperties(
  schema: Schema,
  out: Record<string, unknown>,
  path: string,
  depth: number,
  context: SampleContext,
  variant: number,
): Sample | undefined {
  const min = numberAt(schema, "minProperties") ?? 0;
  const extra = schema["additionalProperties"] ?? true;
  for (let i = 1; Object.keys(out).length < min && i <= min; i++) {
    const name = `property${i}`;
    const built = context.sample(extra, childPath(path, name), depth + 1, variant);
    if (built === undefined) return undefined;
    out[name] = built.value;
  }
  return { value: out };
}
