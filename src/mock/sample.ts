import { isRecord } from "../json-value.js";
import { isNullable } from "../schema/dialect.js";
import { keywordsWhere } from "../schema/vocabulary.js";
import type { Choices } from "./choices.js";
import type { Sample, SampleContext } from "./context.js";
import { mergeAllOf } from "./merge.js";
import type { SchemaSource } from "./schema.js";
import { sampleArray, sampleNumber, sampleObject, sampleString } from "./typed.js";

/** Nesting deeper than this is not built: a schema that requires it gets no sample. */
const MAX_DEPTH = 10;
const TYPE_ORDER = ["object", "array", "string", "integer", "number", "boolean", "null"];

/**
 * Candidate data for a schema, for the mock handlers, built keyword by keyword: examples, `const`,
 * `enum` or `default` where the schema has them, else every required property (optional ones near
 * the top), a oneOf/anyOf branch (the discriminator's tag set, or, last, its `defaultMapping`'s
 * schema as that schema has the tag; each variant the next branch), a pattern or format sample. It
 * checks nothing: at each point with alternatives it takes the one `choices` says, and the
 * generated validator, judging the result, tells `choices` where to try another.
 */
export class SampleBuilder implements SampleContext {
  readonly source: SchemaSource;
  readonly choices: Choices;
  readonly #active = new Set<unknown>();

  constructor(source: SchemaSource, choices: Choices) {
    this.source = source;
    this.choices = choices;
  }

  /** A candidate for a top-level schema, or undefined. */
  build(schema: unknown): Sample | undefined {
    this.choices.start();
    return this.sample(schema, "", 0);
  }

  full(depth: number): boolean {
    return depth <= 1;
  }

  sample(schema: unknown, path: string, depth: number, variant = 0): Sample | undefined {
    if (schema === true || (isRecord(schema) && Object.keys(schema).length === 0))
      return { value: depth === 0 ? {} : null };
    if (!isRecord(schema) || depth > MAX_DEPTH || this.#active.has(schema)) return undefined;
    this.#active.add(schema);
    try {
      return this.#fromValues(schema, path, variant) ?? this.#construct(schema, path, depth, variant);
    } finally {
      this.#active.delete(schema);
    }
  }

  /**
   * `const`, one of `enum`, or one of the examples and `default` (or none of them: construct);
   * each variant takes the next.
   */
  #fromValues(schema: Record<string, unknown>, path: string, variant: number): Sample | undefined {
    if (schema["const"] !== undefined) return { value: schema["const"] };
    if (Array.isArray(schema["enum"]) && schema["enum"].length > 0) {
      const values = schema["enum"];
      return { value: values[(this.choices.pick(path, values.length) + variant) % values.length] };
    }
    const examples = Array.isArray(schema["examples"]) ? schema["examples"] : [];
    const candidates = [...examples, schema["example"], schema["default"]].filter((value) => value !== undefined);
    const chosen = (this.choices.pick(path, candidates.length + 1) + variant) % (candidates.length + 1);
    return chosen < candidates.length ? { value: candidates[chosen] } : undefined;
  }

  #construct(schema: Record<string, unknown>, path: string, depth: number, variant: number): Sample | undefined {
    const resolved = this.source.resolveRefs(schema);
    if (resolved === undefined) return undefined;
    if (resolved !== schema) return this.sample(resolved, path, depth, variant);
    if (Array.isArray(schema["allOf"])) return this.sample(mergeAllOf(schema, this.source), path, depth, variant);
    const branches = this.#branches(schema, depth);
    if (branches !== undefined)
      return branches.length === 0
        ? undefined
        : this.sample(
            branches[(this.choices.pick(path, branches.length) + variant) % branches.length],
            path,
            depth,
            variant,
          );
    const types = this.#types(schema, depth);
    return types.length === 0
      ? undefined
      : this.#ofType(types[this.choices.pick(path, types.length)] ?? "", schema, path, depth, variant);
  }

  /** oneOf/anyOf alternatives, each with the schema's other keywords (the tag set for a discriminator). */
  #branches(schema: Record<string, unknown>, depth: number): Record<string, unknown>[] | undefined {
    const keyword = Array.isArray(schema["oneOf"]) ? "oneOf" : Array.isArray(schema["anyOf"]) ? "anyOf" : undefined;
    if (keyword === undefined) return undefined;
    const { oneOf: _one, anyOf: _any, discriminator, ...rest } = schema;
    const tagName =
      isRecord(discriminator) && typeof discriminator["propertyName"] === "string"
        ? discriminator["propertyName"]
        : undefined;
    if (tagName !== undefined) {
      const { cases, fallback } = this.source.discriminatorCases(schema);
      const tagged = [...cases].map(([tag, target]) => ({
        allOf: [rest, target, { properties: { [tagName]: { const: tag } }, required: [tagName] }],
      }));
      // the default judges an object whose tag is absent or maps nothing: built as its schema has it
      return fallback === undefined ? tagged : [...tagged, { allOf: [rest, fallback] }];
    }
    const options = (schema[keyword] as unknown[]).map((branch) => ({ allOf: [rest, branch] }));
    return this.full(depth) ? options : options.sort((a, b) => this.#rank(a) - this.#rank(b));
  }

  #types(schema: Record<string, unknown>, depth: number): string[] {
    const raw = schema["type"];
    const declared = (Array.isArray(raw) ? raw : raw === undefined ? inferTypes(schema) : [raw]).filter(
      (t): t is string => typeof t === "string",
    );
    if (isNullable(this.source.rules, schema)) declared.push("null");
    const ordered = TYPE_ORDER.filter((type) => declared.includes(type));
    return this.full(depth) ? ordered : ordered.reverse();
  }

  #ofType(
    type: string,
    schema: Record<string, unknown>,
    path: string,
    depth: number,
    variant: number,
  ): Sample | undefined {
    switch (type) {
      case "null":
        return { value: null };
      case "boolean":
        return { value: variant % 2 === 0 };
      case "integer":
      case "number":
        return sampleNumber(schema, type === "integer", this.source.rules, variant);
      case "string":
        return sampleString(schema, path, this.choices, variant);
      case "array":
        return sampleArray(schema, path, depth, this, variant);
      case "object":
        return sampleObject(schema, path, depth, this, variant);
      default:
        return undefined;
    }
  }

  /** How small a branch's data is likely to be: null first, objects last (deep in the data). */
  #rank(branch: Record<string, unknown>): number {
    const parts = branch["allOf"];
    const target = this.source.resolveRefs(Array.isArray(parts) ? parts[1] : branch);
    const type = isRecord(target) ? target["type"] : undefined;
    const first = Array.isArray(type) ? type[0] : type;
    const order = ["null", "boolean", "integer", "number", "string", "array", "object"];
    return typeof first === "string" && order.includes(first) ? order.indexOf(first) : order.length;
  }
}

/**
 * The type a schema without `type` is built as: that of the first of its keywords that say
 * something of one type only (src/schema/vocabulary.ts), objects' first; `format` reads as a string's.
 */
const INFERRED_TYPES: readonly (readonly [string, ReadonlySet<string>])[] = (
  ["object", "array", "string", "number"] as const
).map((type) => [
  type,
  new Set([
    ...keywordsWhere((entry) => entry.instance === type && (entry.role === "assertion" || entry.role === "applicator")),
    ...(type === "string" ? ["format"] : []),
  ]),
]);

function inferTypes(schema: Record<string, unknown>): string[] {
  const keywords = Object.keys(schema).filter((keyword) => schema[keyword] !== undefined);
  const found = INFERRED_TYPES.find(([, typed]) => keywords.some((keyword) => typed.has(keyword)));
  return found === undefined ? ["object", "null"] : [found[0]];
}
