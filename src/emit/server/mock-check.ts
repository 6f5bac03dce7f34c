import { resolvePointer } from "../../json-pointer.js";
import { checkArray, checkNumber, checkObject, checkString, isPlainObject, sameJson, type Recurse } from "./mock-keywords.js";

/** Keywords whose meaning this checker does not reproduce: a schema using them is never vouched for. */
const UNSUPPORTED = ["$dynamicRef", "$recursiveRef", "dependentSchemas", "dependencies", "additionalItems"];

/**
 * A conservative JSON Schema check of mock data at generation time, as the generated validators
 * judge a response (writeOnly values are not allowed, required writeOnly properties are not
 * required). It answers true only when it is sure: a keyword it cannot check, a `$ref` it cannot
 * resolve or a pattern it cannot compile make it answer false, so the value is replaced by one it
 * can vouch for.
 */
export class SchemaChecker {
  private readonly patterns = new Map<string, RegExp | undefined>();
  private readonly discriminators = new WeakMap<object, ReadonlyMap<string, unknown>>();

  constructor(
    private readonly document: unknown,
    private readonly openApi30: boolean,
  ) {}

  /** Whether `value` is certainly valid against `schema`. */
  conforms(schema: unknown, value: unknown): boolean {
    return this.check(schema, value, 0);
  }

  /** The schema a `$ref` points at, if it is a local pointer that resolves. */
  deref(ref: string): unknown {
    return ref.startsWith("#") ? resolvePointer(this.document, ref) : undefined;
  }

  /** A compiled `pattern` (ECMA-262 with the u flag, searching), or undefined when it does not compile. */
  pattern(source: string): RegExp | undefined {
    if (!this.patterns.has(source)) this.patterns.set(source, compilePattern(source));
    return this.patterns.get(source);
  }

  private check(schema: unknown, value: unknown, depth: number): boolean {
    if (schema === true) return true;
    if (!isPlainObject(schema) || depth > 100) return false;
    if (UNSUPPORTED.some((keyword) => schema[keyword] !== undefined) || schema["writeOnly"] === true) return false;
    if (schema["unevaluatedProperties"] !== undefined && schema["unevaluatedProperties"] !== true) return false;
    if (schema["unevaluatedItems"] !== undefined && schema["unevaluatedItems"] !== true) return false;
    const recurse: Recurse = (sub, item) => this.check(sub, item, depth + 1);
    const ref = schema["$ref"];
    if (ref !== undefined && (typeof ref !== "string" || !recurse(this.deref(ref), value))) return false;
    return this.checkType(schema, value) && this.checkValues(schema, value) && this.checkComposition(schema, value, recurse)
      && checkString(schema, value, this) && checkNumber(schema, value) && checkArray(schema, value, recurse)
      && checkObject(schema, value, recurse, this);
  }

  private checkType(schema: Record<string, unknown>, value: unknown): boolean {
    const raw = schema["type"];
    if (raw === undefined) return true;
    const types = Array.isArray(raw) ? raw : [raw];
    if (this.openApi30 && schema["nullable"] === true && value === null) return true;
    return types.some((type) => hasType(type, value));
  }

  private checkValues(schema: Record<string, unknown>, value: unknown): boolean {
    if (schema["const"] !== undefined && !sameJson(schema["const"], value)) return false;
    const values = schema["enum"];
    if (values === undefined) return true;
    return Array.isArray(values) && values.some((candidate) => sameJson(candidate, value));
  }

  private checkComposition(schema: Record<string, unknown>, value: unknown, recurse: Recurse): boolean {
    const list = (keyword: string): unknown[] | undefined => (Array.isArray(schema[keyword]) ? (schema[keyword] as unknown[]) : undefined);
    const allOf = list("allOf");
    if (allOf !== undefined && !allOf.every((sub) => recurse(sub, value))) return false;
    if (schema["not"] !== undefined && !this.refutes(schema["not"], value, 0)) return false;
    if (schema["if"] !== undefined && !this.checkCondition(schema, value, recurse)) return false;
    const target = this.discriminated(schema, value);
    if (target !== undefined) return target !== null && recurse(target, value);
    const anyOf = list("anyOf");
    if (anyOf !== undefined && !anyOf.some((sub) => recurse(sub, value))) return false;
    const oneOf = list("oneOf");
    if (oneOf === undefined) return true;
    const passing = oneOf.filter((sub) => recurse(sub, value));
    return passing.length === 1 && oneOf.every((sub) => passing.includes(sub) || this.refutes(sub, value, 0));
  }

  /** if/then/else, when the `if` verdict is certain either way. */
  private checkCondition(schema: Record<string, unknown>, value: unknown, recurse: Recurse): boolean {
    if (recurse(schema["if"], value)) return recurse(schema["then"] ?? true, value);
    return this.refutes(schema["if"], value, 0) && recurse(schema["else"] ?? true, value);
  }

  /**
   * Whether `value` is certainly invalid against `schema`: a wrong type, const or enum, a missing
   * required property, or such a failure in an allOf member or a present property.
   */
  private refutes(schema: unknown, value: unknown, depth: number): boolean {
    if (schema === false) return true;
    if (!isPlainObject(schema) || depth > 32) return false;
    const ref = schema["$ref"];
    if (typeof ref === "string" && this.refutes(this.deref(ref), value, depth + 1)) return true;
    if (!this.checkType(schema, value) || !this.checkValues(schema, value)) return true;
    const allOf = schema["allOf"];
    if (Array.isArray(allOf) && allOf.some((sub) => this.refutes(sub, value, depth + 1))) return true;
    if (!isPlainObject(value)) return false;
    const required = Array.isArray(schema["required"]) ? schema["required"] : [];
    const properties = isPlainObject(schema["properties"]) ? schema["properties"] : {};
    if (required.some((name) => typeof name === "string" && !Object.hasOwn(value, name) && !this.isWriteOnly(properties[name]))) return true;
    return Object.keys(value).some((name) => Object.hasOwn(properties, name) && this.refutes(properties[name], value[name], depth + 1));
  }

  /**
   * OpenAPI discriminator on oneOf/anyOf, for an object: the tag selects the one schema to check
   * (null: no schema, the value fails); undefined when the plain oneOf/anyOf rules apply.
   */
  private discriminated(schema: Record<string, unknown>, value: unknown): unknown {
    const discriminator = schema["discriminator"];
    if (!isPlainObject(discriminator) || !isPlainObject(value)) return undefined;
    if (!Array.isArray(schema["oneOf"]) && !Array.isArray(schema["anyOf"])) return undefined;
    const name = discriminator["propertyName"];
    const tag = typeof name === "string" && Object.hasOwn(value, name) ? value[name] : undefined;
    if (typeof tag !== "string") return null;
    const cases = this.discriminatorCases(schema);
    return cases.has(tag) ? (cases.get(tag) ?? null) : null;
  }

  /** Tag values and the schema each selects: the explicit mapping, then component names of $ref branches. */
  discriminatorCases(schema: Record<string, unknown>): ReadonlyMap<string, unknown> {
    const known = this.discriminators.get(schema);
    if (known !== undefined) return known;
    const cases = explicitCases(schema["discriminator"]);
    const mapped = new Set([...cases.values()].map((target) => (target as { $ref: string }).$ref));
    const branches = (Array.isArray(schema["oneOf"]) ? schema["oneOf"] : schema["anyOf"]) as unknown[];
    for (const branch of branches) {
      const ref = isPlainObject(branch) ? branch["$ref"] : undefined;
      if (typeof ref !== "string" || mapped.has(ref) || !ref.startsWith(COMPONENTS)) continue;
      const token = ref.slice(COMPONENTS.length);
      const tag = token.replace(/~1/g, "/").replace(/~0/g, "~");
      if (!token.includes("/") && !cases.has(tag)) cases.set(tag, branch);
    }
    this.discriminators.set(schema, cases);
    return cases;
  }

  /** Whether a property schema (following $refs) is writeOnly, so absent from responses. */
  isWriteOnly(schema: unknown): boolean {
    let current = schema;
    for (let hops = 0; hops < 32 && isPlainObject(current); hops++) {
      if (current["writeOnly"] === true) return true;
      const ref = current["$ref"];
      if (typeof ref !== "string") return false;
      current = this.deref(ref);
    }
    return false;
  }
}

const COMPONENTS = "#/components/schemas/";

/** The discriminator's mapping: tag → { $ref } (a bare name means a component schema). */
function explicitCases(discriminator: unknown): Map<string, unknown> {
  const mapping = isPlainObject(discriminator) && isPlainObject(discriminator["mapping"]) ? discriminator["mapping"] : {};
  const cases = new Map<string, unknown>();
  for (const [tag, target] of Object.entries(mapping)) {
    if (typeof target === "string") cases.set(tag, { $ref: target.includes("/") || target.includes("#") ? target : `${COMPONENTS}${target}` });
  }
  return cases;
}

function hasType(type: unknown, value: unknown): boolean {
  switch (type) {
    case "null": return value === null;
    case "boolean": return typeof value === "boolean";
    case "string": return typeof value === "string";
    case "integer": return typeof value === "number" && Number.isInteger(value);
    case "number": return typeof value === "number" && Number.isFinite(value);
    case "array": return Array.isArray(value);
    case "object": return isPlainObject(value);
    default: return false;
  }
}

function compilePattern(source: string): RegExp | undefined {
  try {
    return new RegExp(source, "u");
  } catch {
    return undefined;
  }
}
