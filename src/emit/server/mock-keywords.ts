import { checkFormat } from "./mock-formats.js";

/** Checks a value against a subschema (the checker, one level deeper). */
export type Recurse = (schema: unknown, value: unknown) => boolean;

/** What the string keywords need from the checker: compiled patterns. */
export interface PatternSource {
  pattern(source: string): RegExp | undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** JSON equality: same type and value, objects compared by own keys (1 and 1.0 are equal). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
}

/** The length of a string in Unicode code points, as JSON Schema counts it. */
export function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

const number = (schema: Record<string, unknown>, key: string): number | undefined => (typeof schema[key] === "number" ? (schema[key] as number) : undefined);

export function checkString(schema: Record<string, unknown>, value: unknown, patterns: PatternSource): boolean {
  if (typeof value !== "string") return true;
  const length = codePoints(value);
  if (length < (number(schema, "minLength") ?? 0) || length > (number(schema, "maxLength") ?? Infinity)) return false;
  const pattern = schema["pattern"];
  if (pattern !== undefined && (typeof pattern !== "string" || patterns.pattern(pattern)?.test(value) !== true)) return false;
  return typeof schema["format"] !== "string" || checkFormat(schema["format"], value);
}

export function checkNumber(schema: Record<string, unknown>, value: unknown): boolean {
  if (typeof value !== "number") return true;
  const minimum = number(schema, "minimum");
  const maximum = number(schema, "maximum");
  if (minimum !== undefined && (value < minimum || (schema["exclusiveMinimum"] === true && value === minimum))) return false;
  if (maximum !== undefined && (value > maximum || (schema["exclusiveMaximum"] === true && value === maximum))) return false;
  const exclusiveMinimum = number(schema, "exclusiveMinimum");
  const exclusiveMaximum = number(schema, "exclusiveMaximum");
  if ((exclusiveMinimum !== undefined && value <= exclusiveMinimum) || (exclusiveMaximum !== undefined && value >= exclusiveMaximum)) return false;
  const multipleOf = number(schema, "multipleOf");
  if (multipleOf !== undefined && (multipleOf <= 0 || !Number.isInteger(value / multipleOf))) return false;
  const format = schema["format"];
  if (format === "int32") return Number.isInteger(value) && Math.abs(value) < 2 ** 31;
  if (format === "int64") return Number.isSafeInteger(value);
  return true;
}

export function checkArray(schema: Record<string, unknown>, value: unknown, recurse: Recurse): boolean {
  if (!Array.isArray(value)) return true;
  if (value.length < (number(schema, "minItems") ?? 0) || value.length > (number(schema, "maxItems") ?? Infinity)) return false;
  const prefix = Array.isArray(schema["prefixItems"]) ? (schema["prefixItems"] as unknown[]) : [];
  const items = schema["items"];
  if (Array.isArray(items)) return false;
  const itemsValid = value.every((item, i) => recurse(i < prefix.length ? prefix[i] : items ?? true, item));
  if (!itemsValid) return false;
  if (schema["uniqueItems"] === true && value.some((item, i) => value.findIndex((other) => sameJson(item, other)) !== i)) return false;
  return checkContains(schema, value, recurse);
}

function checkContains(schema: Record<string, unknown>, value: readonly unknown[], recurse: Recurse): boolean {
  if (schema["contains"] === undefined) return true;
  const count = value.filter((item) => recurse(schema["contains"], item)).length;
  return count >= (number(schema, "minContains") ?? 1) && count <= (number(schema, "maxContains") ?? Infinity);
}

/** What the object keywords need from the checker. */
export interface ObjectContext extends PatternSource {
  isWriteOnly(schema: unknown): boolean;
}

export function checkObject(schema: Record<string, unknown>, value: unknown, recurse: Recurse, context: ObjectContext): boolean {
  if (!isPlainObject(value)) return true;
  const keys = Object.keys(value);
  if (keys.includes("__proto__")) return false;
  if (keys.length < (number(schema, "minProperties") ?? 0) || keys.length > (number(schema, "maxProperties") ?? Infinity)) return false;
  const properties = isPlainObject(schema["properties"]) ? schema["properties"] : {};
  const required = Array.isArray(schema["required"]) ? schema["required"] : [];
  if (!required.every((name) => typeof name === "string" && (Object.hasOwn(value, name) || context.isWriteOnly(properties[name])))) return false;
  if (!checkDependentRequired(schema, value)) return false;
  const patterns = (isPlainObject(schema["patternProperties"]) ? Object.entries(schema["patternProperties"]) : [])
    .map(([source, sub]) => [context.pattern(source), sub] as const);
  if (patterns.some(([pattern]) => pattern === undefined)) return false;
  return keys.every((key) => {
    if (schema["propertyNames"] !== undefined && !recurse(schema["propertyNames"], key)) return false;
    const matching = patterns.filter(([pattern]) => pattern?.test(key) === true);
    if (matching.some(([, sub]) => !recurse(sub, value[key]))) return false;
    if (Object.hasOwn(properties, key)) return recurse(properties[key], value[key]);
    return matching.length > 0 || recurse(schema["additionalProperties"] ?? true, value[key]);
  });
}

function checkDependentRequired(schema: Record<string, unknown>, value: Record<string, unknown>): boolean {
  const dependent = schema["dependentRequired"];
  if (!isPlainObject(dependent)) return dependent === undefined;
  return Object.entries(dependent).every(([name, needs]) => !Object.hasOwn(value, name)
    || (Array.isArray(needs) && needs.every((need) => typeof need === "string" && Object.hasOwn(value, need))));
}
