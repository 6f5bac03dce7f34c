import type { SchemaChecker } from "./mock-check.js";
import { mergeAllOf, resolveRefs } from "./mock-merge.js";
import { sampleArray, sampleNumber, sampleObject, sampleString } from "./mock-typed.js";
import { isPlainObject } from "./mock-keywords.js";

/** A built value (wrapped, as null and false are values too). */
export interface Sample {
  readonly value: unknown;
}

/** Builds samples of subschemas: what the per-type builders call back into. */
export interface SampleContext {
  readonly checker: SchemaChecker;
  /** a sample of a subschema, one level deeper; undefined when none can be built */
  sample(schema: unknown, depth: number): Sample | undefined;
  /** near the top: include optional properties and one array item; deeper: only what is required */
  full(depth: number): boolean;
}

/** Nesting deeper than this is not built: a schema that requires it gets no sample. */
const MAX_DEPTH = 10;
const TYPE_ORDER = ["object", "array", "string", "integer", "number", "boolean", "null"];

/**
 * Deterministic data for a schema, for the mock handlers: the schema's own examples, `default`,
 * `const` or first `enum` value when valid, else a value built keyword by keyword (all required
 * properties, optional ones near the top; the first workable oneOf/anyOf branch). Every result is
 * vouched for by the checker; what it cannot vouch for is not used.
 */
export class SampleBuilder implements SampleContext {
  private readonly cache = new Map<unknown, Map<boolean, Sample | undefined>>();
  private readonly active = new Set<unknown>();

  constructor(readonly checker: SchemaChecker) {}

  /** A sample of a top-level schema, or undefined. */
  build(schema: unknown): Sample | undefined {
    return this.sample(schema, 0);
  }

  full(depth: number): boolean {
    return depth <= 1;
  }

  sample(schema: unknown, depth: number): Sample | undefined {
    if (schema === true || (isPlainObject(schema) && Object.keys(schema).length === 0)) return { value: depth === 0 ? {} : null };
    if (!isPlainObject(schema) || depth > MAX_DEPTH || this.active.has(schema)) return undefined;
    const byMode = this.cache.get(schema) ?? new Map<boolean, Sample | undefined>();
    this.cache.set(schema, byMode);
    const mode = this.full(depth);
    if (byMode.has(mode)) return byMode.get(mode);
    this.active.add(schema);
    const built = this.fromExamples(schema) ?? this.construct(schema, depth);
    this.active.delete(schema);
    byMode.set(mode, built);
    return built;
  }

  private fromExamples(schema: Record<string, unknown>): Sample | undefined {
    const examples = Array.isArray(schema["examples"]) ? schema["examples"] : [];
    const values = schema["enum"];
    const candidates = [...examples, schema["example"], schema["default"], schema["const"], Array.isArray(values) ? values[0] : undefined];
    const found = candidates.find((candidate) => candidate !== undefined && this.checker.conforms(schema, candidate));
    return found === undefined ? undefined : { value: found };
  }

  /** A sample checked against `schema` (each way of building one ends with that check). */
  private construct(schema: Record<string, unknown>, depth: number): Sample | undefined {
    const resolved = resolveRefs(schema, this.checker);
    if (resolved === undefined) return undefined;
    if (resolved !== schema) return this.sample(resolved, depth);
    if (Array.isArray(schema["allOf"])) {
      const merged = this.sample(mergeAllOf(schema, this.checker), depth);
      return merged !== undefined && this.checker.conforms(schema, merged.value) ? merged : undefined;
    }
    const branches = this.branches(schema, depth);
    if (branches !== undefined) return this.firstBranch(schema, branches, depth);
    for (const type of this.types(schema, depth)) {
      const built = this.ofType(type, schema, depth);
      if (built !== undefined && this.checker.conforms(schema, built.value)) return built;
    }
    return undefined;
  }

  /** oneOf/anyOf alternatives, each merged with the schema's other keywords (tag set for a discriminator). */
  private branches(schema: Record<string, unknown>, depth: number): Record<string, unknown>[] | undefined {
    const keyword = Array.isArray(schema["oneOf"]) ? "oneOf" : Array.isArray(schema["anyOf"]) ? "anyOf" : undefined;
    if (keyword === undefined) return undefined;
    const { oneOf: _one, anyOf: _any, discriminator, ...rest } = schema;
    const tagName = isPlainObject(discriminator) && typeof discriminator["propertyName"] === "string" ? discriminator["propertyName"] : undefined;
    if (tagName !== undefined) {
      return [...this.checker.discriminatorCases(schema)].map(([tag, target]) => ({
        allOf: [rest, target, { properties: { [tagName]: { const: tag } }, required: [tagName] }],
      }));
    }
    const options = (schema[keyword] as unknown[]).map((branch) => ({ allOf: [rest, branch] }));
    return this.full(depth) ? options : options.sort((a, b) => rank(a, this.checker) - rank(b, this.checker));
  }

  private firstBranch(schema: Record<string, unknown>, branches: readonly Record<string, unknown>[], depth: number): Sample | undefined {
    for (const branch of branches) {
      const built = this.sample(branch, depth);
      if (built !== undefined && this.checker.conforms(schema, built.value)) return built;
    }
    return undefined;
  }

  private types(schema: Record<string, unknown>, depth: number): string[] {
    const raw = schema["type"];
    const declared = (Array.isArray(raw) ? raw : raw === undefined ? inferTypes(schema) : [raw]).filter((t): t is string => typeof t === "string");
    if (schema["nullable"] === true) declared.push("null");
    const ordered = TYPE_ORDER.filter((type) => declared.includes(type));
    return this.full(depth) ? ordered : ordered.reverse();
  }

  private ofType(type: string, schema: Record<string, unknown>, depth: number): Sample | undefined {
    switch (type) {
      case "null": return { value: null };
      case "boolean": return { value: true };
      case "integer": case "number": return sampleNumber(schema, type === "integer");
      case "string": return sampleString(schema, this.checker);
      case "array": return sampleArray(schema, depth, this);
      case "object": return sampleObject(schema, depth, this);
      default: return undefined;
    }
  }
}

function inferTypes(schema: Record<string, unknown>): string[] {
  if (schema["properties"] !== undefined || schema["required"] !== undefined || schema["additionalProperties"] !== undefined) return ["object"];
  if (schema["items"] !== undefined || schema["prefixItems"] !== undefined) return ["array"];
  if (schema["pattern"] !== undefined || schema["format"] !== undefined || schema["minLength"] !== undefined) return ["string"];
  if (schema["minimum"] !== undefined || schema["maximum"] !== undefined || schema["multipleOf"] !== undefined) return ["number"];
  return ["object", "null"];
}

/** How small a branch's data is likely to be: null first, objects last (deep in the data). */
function rank(branch: Record<string, unknown>, checker: SchemaChecker): number {
  const parts = branch["allOf"];
  const target = resolveRefs(Array.isArray(parts) ? parts[1] : branch, checker);
  const type = isPlainObject(target) ? target["type"] : undefined;
  const first = Array.isArray(type) ? type[0] : type;
  const order = ["null", "boolean", "integer", "number", "string", "array", "object"];
  return typeof first === "string" && order.includes(first) ? order.indexOf(first) : order.length;
}
