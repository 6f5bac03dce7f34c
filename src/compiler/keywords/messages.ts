import { type Code, code, str } from "../code/code.js";

/**
 * Error messages, written at generation time so that reporting a failure costs no string
 * building. With the instance path in front (added when the validator reports) they read as
 * a sentence: "/name must be at most 150 characters"; at the root the path is left out
 * ("must have required property 'city'").
 */

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function listValues(values: readonly unknown[]): string {
  const shown = values
    .slice(0, 10)
    .map((value) => JSON.stringify(value))
    .join(", ");
  return values.length > 10 ? `${shown}, ... (${values.length} values)` : shown;
}

/** Static messages by keyword. */
export const messages = {
  type: (types: readonly string[]) => `must be ${types.join(" or ")}`,
  maxLength: (limit: number) => `must be at most ${count(limit, "character", "characters")}`,
  minLength: (limit: number) => `must be at least ${count(limit, "character", "characters")}`,
  pattern: (pattern: string) => `must match pattern ${JSON.stringify(pattern)}`,
  format: (format: string) => `must match format ${JSON.stringify(format)}`,
  limit: (comparison: string, limit: number) => `must be ${comparison} ${limit}`,
  multipleOf: (value: number) => `must be a multiple of ${value}`,
  enum: (values: readonly unknown[]) => `must be equal to one of: ${listValues(values)}`,
  const: (value: unknown) => `must be equal to constant ${listValues([value])}`,
  required: (name: string) => `must have required property '${name}'`,
  dependentRequired: (name: string, trigger: string) =>
    `must have property '${name}' when property '${trigger}' is present`,
  maxProperties: (limit: number) => `must have at most ${count(limit, "property", "properties")}`,
  minProperties: (limit: number) => `must have at least ${count(limit, "property", "properties")}`,
  maxItems: (limit: number) => `must have at most ${count(limit, "item", "items")}`,
  minItems: (limit: number) => `must have at least ${count(limit, "item", "items")}`,
  contains: (min: number) => `must contain at least ${count(min, "item", "items")} matching the "contains" schema`,
  maxContains: (max: number) => `must contain at most ${count(max, "item", "items")} matching the "contains" schema`,
  maxDepth: (limit: number) => `must not be nested more than ${limit} levels deep`,
  falseSchema: "is not allowed here (the schema is false)",
  not: 'must not be valid against the "not" schema',
  anyOf: "must match at least one schema in anyOf",
  readOnly: "is read-only and must not be sent in a request",
  writeOnly: "is write-only and must not appear in a response",
  discriminatorMissing: (name: string) => `must have required property '${name}' (discriminator)`,
  discriminatorType: "must be a string (discriminator)",
  discriminatorValue: (tags: readonly string[]) => `must be one of: ${listValues(tags)} (discriminator)`,
} as const;

/** Message expressions for failures whose wording needs values known only at run time. */
export const runtimeMessages = {
  additional: (key: Code) => code`${str("must not have additional property '")} + ${key} + "'"`,
  unevaluatedProperty: (key: Code) => code`${str("must not have unevaluated property '")} + ${key} + "'"`,
  unevaluatedItem: (index: Code) => code`${str("must not have unevaluated item at index ")} + ${index}`,
  propertyName: (key: Code) => code`${str("must have valid property names; invalid: '")} + ${key} + "'"`,
  uniqueItems: (pair: Code) =>
    code`"must not have duplicate items (items " + ${pair}[0] + " and " + ${pair}[1] + " are equal)"`,
  oneOf: (passed: Code) =>
    code`${passed} > 1 ? "must match exactly one schema in oneOf, but matches more than one" : "must match exactly one schema in oneOf"`,
} as const;
