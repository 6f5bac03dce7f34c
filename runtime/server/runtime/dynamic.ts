/**
 * Values built from a JSON Schema at run time, for `Prefer: dynamic=true` (as Prism answers it):
 * every keyword that shapes data is read (`type`, `enum`, `const`, `properties` and `required`,
 * `items` and the item counts, the string formats and lengths, the number bounds and `multipleOf`,
 * `allOf`, `oneOf`/`anyOf` with a discriminator's tag or its default, OpenAPI 3.0's `nullable`),
 * and each choice is drawn from a seeded generator, so the same seed builds the same value. It
 * checks nothing: the caller judges a value with the operation's generated validator and asks
 * again with another seed.
 */

/** Numbers in [0, 1), the same sequence for the same seed. */
export type Random = () => number;

/** A generator seeded by `seed`'s text (FNV-1a into mulberry32). */
export function seededRandom(seed: string): Random {
  let state = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) state = Math.imul(state ^ seed.charCodeAt(i), 0x01000193);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Schema = Readonly<Record<string, unknown>>;

/** Deeper than this, only what is required, and past twice it nothing: recursive schemas end. */
const FULL_DEPTH = 3;
const MAX_DEPTH = 8;
const WORDS = ["harbor", "summit", "maple", "river", "cedar", "aurora", "delta", "meadow", "orbit", "lumen"];

/** A value of `schema` (local `$ref`s resolved in `document`), or undefined when none can be built. */
export function dynamicValue(document: unknown, schema: unknown, random: Random): unknown {
  return new Builder(document, random).value(schema, 0);
}

class Builder {
  readonly #document: unknown;
  readonly #random: Random;

  constructor(document: unknown, random: Random) {
    this.#document = document;
    this.#random = random;
  }

  value(raw: unknown, depth: number): unknown {
    if (depth > MAX_DEPTH) return undefined;
    const schema = this.#schemaOf(raw);
    if (schema === undefined) return raw === false ? undefined : this.#word();
    if (schema["const"] !== undefined) return schema["const"];
    if (Array.isArray(schema["enum"]) && schema["enum"].length > 0) return this.#pick(schema["enum"]);
    if (Array.isArray(schema["allOf"])) return this.value(this.#merged(schema), depth);
    const branches = this.#branches(schema);
    if (branches !== undefined) return branches.length === 0 ? undefined : this.value(this.#pick(branches), depth);
    return this.#ofType(this.#typeOf(schema), schema, depth);
  }

  /** The schema with its `$ref`s followed; undefined for `true`, `{}` and what is not a schema. */
  #schemaOf(raw: unknown): Schema | undefined {
    let current = raw;
    for (let hops = 0; hops < 32 && isObject(current) && typeof current["$ref"] === "string"; hops++) {
      const { $ref: ref, ...siblings } = current;
      const target = resolvePointer(this.#document, ref as string);
      current = Object.keys(siblings).length === 0 ? target : { allOf: [siblings, target] };
    }
    return isObject(current) && Object.keys(current).length > 0 ? current : undefined;
  }

  #typeOf(schema: Schema): string {
    const declared = Array.isArray(schema["type"]) ? schema["type"] : [schema["type"]];
    const types = declared.filter((type): type is string => typeof type === "string");
    if (schema["nullable"] === true && this.#random() < 0.1) return "null";
    if (types.length > 0) return this.#pick(types.length > 1 ? types.filter((type) => type !== "null") : types);
    if (isObject(schema["properties"]) || Array.isArray(schema["required"])) return "object";
    return schema["items"] !== undefined ? "array" : "string";
  }

  #ofType(type: string, schema: Schema, depth: number): unknown {
    switch (type) {
      case "null":
        return null;
      case "boolean":
        return this.#random() < 0.5;
      case "integer":
      case "number":
        return this.#number(schema, type === "integer");
      case "array":
        return this.#array(schema, depth);
      case "object":
        return this.#object(schema, depth);
      default:
        return this.#string(schema);
    }
  }

  /** `allOf`'s parts (and the schema's own keywords) as one schema: properties merged, `required` joined. */
  #merged(schema: Schema): Schema {
    const { allOf, ...own } = schema;
    const parts = [own, ...(allOf as unknown[]).map((part) => this.#schemaOf(part) ?? {})];
    const merged: Record<string, unknown> = {};
    const properties: Record<string, unknown[]> = {};
    const required = new Set<unknown>();
    for (const part of parts) {
      const flat = Array.isArray(part["allOf"]) ? this.#merged(part) : part;
      for (const [key, value] of Object.entries(flat)) if (!(key in merged)) merged[key] = value;
      for (const name of listOf(flat["required"])) required.add(name);
      if (isObject(flat["properties"]))
        for (const [name, property] of Object.entries(flat["properties"]))
          properties[name] = [...(properties[name] ?? []), property];
    }
    merged["required"] = [...required];
    merged["properties"] = Object.fromEntries(
      Object.entries(properties).map(([name, list]) => [name, list.length === 1 ? list[0] : { allOf: list }]),
    );
    return merged;
  }

  /**
   * oneOf/anyOf alternatives with the schema's other keywords; a discriminator's tag set to each
   * one's (its `mapping` key, else its component's name). The schema `defaultMapping` (OpenAPI
   * 3.2) names judges an object whose tag is absent or maps nothing, so it is drawn with its tag
   * as its own schema has it, among the branches or beside them.
   */
  #branches(schema: Schema): Schema[] | undefined {
    const keyword = Array.isArray(schema["oneOf"]) ? "oneOf" : Array.isArray(schema["anyOf"]) ? "anyOf" : undefined;
    if (keyword === undefined) return undefined;
    const { oneOf: _one, anyOf: _any, discriminator, ...rest } = schema;
    const tag = isObject(discriminator) ? discriminator["propertyName"] : undefined;
    const mapping = isObject(discriminator) && isObject(discriminator["mapping"]) ? discriminator["mapping"] : {};
    const fallback = isObject(discriminator) ? mappedRef(discriminator["defaultMapping"]) : undefined;
    const branches = (schema[keyword] as unknown[]).map((branch) => {
      const ref = isObject(branch) && typeof branch["$ref"] === "string" ? branch["$ref"] : undefined;
      if (typeof tag !== "string" || ref === undefined || ref === fallback) return { allOf: [rest, branch] };
      const named = Object.entries(mapping).find(([, target]) => mappedRef(target) === ref)?.[0];
      const value = named ?? ref.slice(ref.lastIndexOf("/") + 1);
      return { allOf: [rest, branch, { properties: { [tag]: { const: value } }, required: [tag] }] };
    });
    const listed = (schema[keyword] as unknown[]).some((branch) => isObject(branch) && branch["$ref"] === fallback);
    return fallback === undefined || listed ? branches : [...branches, { allOf: [rest, { $ref: fallback }] }];
  }

  #number(schema: Schema, integer: boolean): number | undefined {
    const step = numberAt(schema, "multipleOf") ?? (integer ? 1 : 0.01);
    let low = numberAt(schema, "minimum") ?? -Infinity;
    let high = numberAt(schema, "maximum") ?? Infinity;
    const exclusiveLow = schema["exclusiveMinimum"];
    const exclusiveHigh = schema["exclusiveMaximum"];
    if (exclusiveLow === true) low += step;
    if (exclusiveHigh === true) high -= step;
    if (typeof exclusiveLow === "number") low = Math.max(low, exclusiveLow + step);
    if (typeof exclusiveHigh === "number") high = Math.min(high, exclusiveHigh - step);
    if (low === -Infinity) low = high === Infinity ? 0 : high - 1000;
    if (high === Infinity) high = low + 1000;
    const first = Math.ceil(low / step);
    const last = Math.floor(high / step);
    if (last < first) return undefined;
    const value = (first + Math.floor(this.#random() * (last - first + 1))) * step;
    return integer ? Math.round(value) : Number(value.toFixed(6));
  }

  #string(schema: Schema): string | undefined {
    const min = numberAt(schema, "minLength") ?? 0;
    const max = numberAt(schema, "maxLength") ?? Math.max(min, 40);
    if (min > max || min > 10_000) return undefined;
    const format = typeof schema["format"] === "string" ? this.#formatted(schema["format"]) : undefined;
    if (format !== undefined) return format;
    let text = this.#word();
    while (text.length < min) text += ` ${this.#word()}`;
    return text.length > max ? text.slice(0, max) : text;
  }

  /** A value of a string format, or undefined for a format not known here (built as text). */
  #formatted(format: string): string | undefined {
    const digits = (n: number): string => String(Math.floor(this.#random() * n));
    const two = (n: number): string => digits(n).padStart(2, "0");
    const from1 = (n: number): string => String(1 + Math.floor(this.#random() * n)).padStart(2, "0");
    const date = `${2000 + Math.floor(this.#random() * 31)}-${from1(12)}-${from1(28)}`;
    const time = `${two(24)}:${two(60)}:${two(60)}`;
    const hex = (n: number): string =>
      Array.from({ length: n }, () => Math.floor(this.#random() * 16).toString(16)).join("");
    switch (format) {
      case "date":
        return date;
      case "date-time":
        return `${date}T${time}Z`;
      case "time":
        return `${time}Z`;
      case "email":
        return `${this.#word()}.${this.#word()}@example.com`;
      case "uri":
      case "url":
      case "iri":
        return `https://example.com/${this.#word()}/${digits(1000)}`;
      case "uuid":
        return `${hex(8)}-${hex(4)}-4${hex(3)}-${this.#pick(["8", "9", "a", "b"])}${hex(3)}-${hex(12)}`;
      case "hostname":
        return `${this.#word()}.example.com`;
      case "ipv4":
        return `192.0.2.${digits(255)}`;
      case "ipv6":
        return `2001:db8::${hex(4)}`;
      default:
        return undefined;
    }
  }

  #array(schema: Schema, depth: number): unknown[] | undefined {
    const least = numberAt(schema, "minItems") ?? 0;
    const most = numberAt(schema, "maxItems") ?? Infinity;
    // near the top at least one item (as many as three), deeper only those required
    const min = depth < FULL_DEPTH ? Math.min(Math.max(least, 1), most) : least;
    const max = Math.min(most, min + (depth < FULL_DEPTH ? 2 : 0));
    if (max < min) return undefined;
    const count = min + Math.floor(this.#random() * (max - min + 1));
    const prefix = listOf(schema["prefixItems"]);
    const items: unknown[] = [];
    for (let i = 0; i < count; i++) {
      const item = this.value(i < prefix.length ? prefix[i] : (schema["items"] ?? true), depth + 1);
      if (item === undefined) return items.length >= least ? items : undefined;
      items.push(item);
    }
    return items;
  }

  /** Every required property, and near the top each optional one by a coin's toss; writeOnly ones never. */
  #object(schema: Schema, depth: number): Record<string, unknown> | undefined {
    const properties = isObject(schema["properties"]) ? schema["properties"] : {};
    const required = listOf(schema["required"]).filter((name): name is string => typeof name === "string");
    const out: Record<string, unknown> = {};
    for (const name of new Set([...required, ...Object.keys(properties)])) {
      const isRequired = required.includes(name);
      if (!isRequired && (depth >= FULL_DEPTH || this.#random() < 0.3)) continue;
      const property = Object.hasOwn(properties, name) ? properties[name] : schema["additionalProperties"];
      if (this.#schemaOf(property)?.["writeOnly"] === true || name === "__proto__") continue;
      const value = this.value(property, depth + 1);
      if (value === undefined && isRequired) return undefined;
      if (value !== undefined) out[name] = value;
    }
    return out;
  }

  #word(): string {
    return this.#pick(WORDS);
  }

  #pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.#random() * list.length)] as T;
  }
}

/** The value at a local `$ref` ("#/components/schemas/Event") of `document`; undefined for another reference. */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  return ref
    .slice(2)
    .split("/")
    .filter((segment) => segment !== "")
    .map((segment) => decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>(
      (node, segment) => (isObject(node) && Object.hasOwn(node, segment) ? node[segment] : undefined),
      document,
    );
}

/** A discriminator's mapping value as a reference: a bare name is the component schema of that name. */
function mappedRef(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  return value.includes("/") || value.includes("#") ? value : `#/components/schemas/${value.replace(/~/g, "~0")}`;
}

function numberAt(schema: Schema, key: string): number | undefined {
  return typeof schema[key] === "number" ? (schema[key] as number) : undefined;
}

/** `value` when it is an array, else an empty one. */
export function listOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Whether `value` is a JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
