import fc from "fast-check";

/**
 * A small JSON Schema → fast-check converter for differential tests: it produces mostly
 * valid-looking instances (respecting types, required, enums, lengths, ranges, formats and
 * patterns where it can) and, through `withMutations`, invalid ones.
 */
export interface ArbitraryContext {
  readonly document: unknown;
  /** sample strings per format (valid and invalid ones, e.g. from the test suite) */
  readonly formatSamples: Readonly<Record<string, readonly string[]>>;
  readonly maxDepth: number;
  /** built arbitraries by schema node and depth; arbitraries for subschemas are built lazily */
  readonly cache: Map<unknown, Map<number, fc.Arbitrary<unknown>>>;
}

type Schema = Record<string, unknown>;
const anyJson = fc.jsonValue({ maxDepth: 2 });
const TYPES = ["string", "number", "integer", "boolean", "null", "array", "object"];

/** An arbitrary for instances of `schema`. */
export function schemaArbitrary(schema: unknown, context: ArbitraryContext, depth = 0): fc.Arbitrary<unknown> {
  const byDepth = context.cache.get(schema) ?? new Map<number, fc.Arbitrary<unknown>>();
  context.cache.set(schema, byDepth);
  let arbitrary = byDepth.get(depth);
  if (arbitrary === undefined) {
    arbitrary = build(schema, context, depth);
    byDepth.set(depth, arbitrary);
  }
  return arbitrary;
}

/** Defers building a subschema's arbitrary until a sample needs it. */
function lazy(schema: unknown, context: ArbitraryContext, depth: number): fc.Arbitrary<unknown> {
  return fc.constant(undefined).chain(() => schemaArbitrary(schema, context, depth));
}

function build(schema: unknown, context: ArbitraryContext, depth: number): fc.Arbitrary<unknown> {
  const resolved = resolve(schema, context.document);
  if (typeof resolved !== "object" || resolved === null || depth > context.maxDepth) return anyJson;
  const node = resolved as Schema;
  if ("const" in node) return fc.constant(node["const"]);
  if (Array.isArray(node["enum"]) && node["enum"].length > 0) return fc.constantFrom(...(node["enum"] as unknown[]));
  const branches = (node["oneOf"] ?? node["anyOf"]) as unknown[] | undefined;
  if (Array.isArray(branches) && branches.length > 0)
    return fc.oneof(...branches.map((branch) => lazy(branch, context, depth + 1)));
  const merged = Array.isArray(node["allOf"]) ? mergeAllOf(node, context.document) : node;
  return fc.oneof(...typesOf(merged).map((type) => typeArbitrary(type, merged, context, depth)));
}

function resolve(schema: unknown, document: unknown): unknown {
  let current = schema;
  for (let hops = 0; hops < 16 && typeof current === "object" && current !== null; hops++) {
    const ref = (current as Schema)["$ref"];
    if (typeof ref !== "string" || !ref.startsWith("#")) return current;
    current = pointer(document, ref.slice(1));
  }
  return current;
}

function pointer(document: unknown, ptr: string): unknown {
  let node = document;
  for (const raw of ptr.split("/").slice(1)) {
    const token = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    node = typeof node === "object" && node !== null ? (node as Schema)[token] : undefined;
  }
  return node;
}

function mergeAllOf(node: Schema, document: unknown): Schema {
  const merged: Schema = {
    ...node,
    properties: { ...(node["properties"] as Schema | undefined) },
    required: [...((node["required"] as string[] | undefined) ?? [])],
  };
  for (const part of node["allOf"] as unknown[]) {
    const branch = resolve(part, document);
    if (typeof branch !== "object" || branch === null) continue;
    const schema = Array.isArray((branch as Schema)["allOf"])
      ? mergeAllOf(branch as Schema, document)
      : (branch as Schema);
    Object.assign(merged["properties"] as Schema, schema["properties"] ?? {});
    (merged["required"] as string[]).push(...((schema["required"] as string[] | undefined) ?? []));
    merged["type"] ??= schema["type"];
  }
  return merged;
}

function typesOf(node: Schema): string[] {
  const declared = node["type"];
  const types =
    typeof declared === "string" ? [declared] : Array.isArray(declared) ? (declared as string[]) : inferTypes(node);
  return node["nullable"] === true && !types.includes("null")
    ? [...types, "null"]
    : types.filter((type) => TYPES.includes(type));
}

function inferTypes(node: Schema): string[] {
  if ("properties" in node || "additionalProperties" in node || "required" in node) return ["object"];
  if ("items" in node || "prefixItems" in node) return ["array"];
  if ("maxLength" in node || "minLength" in node || "pattern" in node || "format" in node) return ["string"];
  if ("minimum" in node || "maximum" in node || "multipleOf" in node) return ["number"];
  return TYPES;
}

function typeArbitrary(type: string, node: Schema, context: ArbitraryContext, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case "string":
      return stringArbitrary(node, context);
    case "integer":
      return numberArbitrary(node, true);
    case "number":
      return numberArbitrary(node, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return arrayArbitrary(node, context, depth);
    default:
      return objectArbitrary(node, context, depth);
  }
}

function stringArbitrary(node: Schema, context: ArbitraryContext): fc.Arbitrary<unknown> {
  const format = node["format"];
  const samples = typeof format === "string" ? context.formatSamples[format] : undefined;
  if (samples !== undefined && samples.length > 0) return fc.constantFrom(...samples);
  // negated classes make fast-check filter characters one by one, which is very slow
  if (typeof node["pattern"] === "string" && !node["pattern"].includes("[^")) {
    const cached = context.cache.get(node["pattern"])?.get(-1);
    if (cached !== undefined) return cached;
    try {
      const matching = fc.stringMatching(new RegExp(node["pattern"], "u"));
      context.cache.set(node["pattern"], new Map([[-1, matching]]));
      return matching;
    } catch {
      // fast-check cannot build strings for every regex; plain strings then
    }
  }
  const minLength = typeof node["minLength"] === "number" ? node["minLength"] : 0;
  const maxLength = Math.min(typeof node["maxLength"] === "number" ? node["maxLength"] : 12, minLength + 12);
  return fc.string({ minLength, maxLength, unit: fc.constantFrom("a", "Z", "0", "-", " ", "é", "😀", "\u2028") });
}

function numberArbitrary(node: Schema, integer: boolean): fc.Arbitrary<unknown> {
  const min = typeof node["minimum"] === "number" ? node["minimum"] : -1000;
  const max = typeof node["maximum"] === "number" ? node["maximum"] : 1000;
  const step = typeof node["multipleOf"] === "number" ? node["multipleOf"] : undefined;
  if (step !== undefined) return fc.integer({ min: -50, max: 50 }).map((k) => k * step);
  const low = Math.ceil(Math.max(min, -1e9));
  const high = Math.floor(Math.min(max, 1e9));
  if (low > high) return fc.constantFrom(min, max);
  if (integer) return fc.integer({ min: low, max: high });
  return fc.oneof(fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), fc.integer({ min: low, max: high }));
}

function arrayArbitrary(node: Schema, context: ArbitraryContext, depth: number): fc.Arbitrary<unknown> {
  const items = node["items"] === undefined ? anyJson : lazy(node["items"], context, depth + 1);
  const minLength = typeof node["minItems"] === "number" ? Math.min(node["minItems"], 4) : 0;
  return fc.array(items, { minLength, maxLength: minLength + 3 });
}

function objectArbitrary(node: Schema, context: ArbitraryContext, depth: number): fc.Arbitrary<unknown> {
  const properties = (
    typeof node["properties"] === "object" && node["properties"] !== null ? node["properties"] : {}
  ) as Schema;
  const required = new Set(Array.isArray(node["required"]) ? (node["required"] as string[]) : []);
  const names = [...new Set([...Object.keys(properties), ...required])];
  const parts = names.map((name) => {
    const value = name in properties ? lazy(properties[name], context, depth + 1) : anyJson;
    return required.has(name) ? value : fc.option(value, { nil: undefined, freq: 2 });
  });
  const extras =
    node["additionalProperties"] === false
      ? fc.constant({})
      : fc.dictionary(fc.string({ maxLength: 4 }), anyJson, { maxKeys: 1 });
  return fc.tuple(fc.tuple(...parts), extras).map(([values, extra]) => {
    const out: Schema = {};
    for (const [key, value] of Object.entries(extra as Schema)) if (!names.includes(key)) define(out, key, value);
    values.forEach((value, index) => {
      if (value !== undefined) define(out, names[index] as string, value);
    });
    return out;
  });
}

/** Sets an own data property (also for keys like "__proto__"). */
export function define(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
