import { isRecord } from "../json-value.js";
import { type DialectRules, ownKeywordsApply } from "../schema/dialect.js";
import { readDiscriminator } from "../schema/discriminator.js";
import { isMarked } from "../schema/read-write.js";
import { type DocumentPlace, documentTree, type SchemaTree } from "../schema/tree.js";
import { keywordsWhere } from "../schema/vocabulary.js";

type Schema = Record<string, unknown>;

/**
 * Keywords that only describe: a `$ref` with nothing else beside it is just its target. They are
 * the vocabulary's documentation holding no data (src/schema/vocabulary.ts; `example` and
 * `examples` are data the mock may answer with), `deprecated`, and what a Reference Object and the
 * mock's extension add beside a `$ref`.
 */
const ANNOTATIONS: ReadonlySet<string> = new Set([
  "$ref",
  "deprecated",
  ...keywordsWhere((entry) => entry.role === "documentation" && entry.holds !== "data"),
  "summary",
  "x-unbounded",
]);

/** A discriminator's tag values and what each selects, and what selects an object no tag maps. */
export interface DiscriminatorCases {
  readonly cases: ReadonlyMap<string, unknown>;
  /** the `defaultMapping`'s schema (OpenAPI 3.2), when there is one */
  readonly fallback?: unknown;
}

/**
 * What building sample data needs to know of the document's schemas (it checks nothing), read by
 * the OpenAPI schema rules (src/schema/) the validators are compiled by.
 */
export class SchemaSource {
  /** the bundled document */
  readonly document: unknown;
  readonly rules: DialectRules;
  readonly #tree: SchemaTree<DocumentPlace>;
  readonly #discriminators = new WeakMap<object, DiscriminatorCases>();

  constructor(document: unknown, rules: DialectRules) {
    this.document = document;
    this.rules = rules;
    this.#tree = documentTree(document);
  }

  /** The value a local `$ref` points at. */
  deref(ref: string): unknown {
    const place = this.#tree.follow(ref, { value: undefined }, { value: undefined });
    return place === undefined ? undefined : place.value;
  }

  /**
   * The schema a `$ref` stands for: its target, or its target together with the keywords beside
   * it (an allOf) where they apply (not in OpenAPI 3.0); the schema itself when it has no `$ref`;
   * undefined when the reference does not resolve.
   */
  resolveRefs(schema: unknown): unknown {
    if (!isRecord(schema) || typeof schema["$ref"] !== "string") return schema;
    const target = this.deref(schema["$ref"]);
    if (target === undefined) return undefined;
    const siblings = ownKeywordsApply(this.rules, schema)
      ? Object.fromEntries(Object.entries(schema).filter(([key]) => !ANNOTATIONS.has(key)))
      : {};
    return Object.keys(siblings).length === 0 ? target : { allOf: [target, siblings] };
  }

  /** Whether a property schema is writeOnly (itself, through `$ref`s or in an allOf part), so absent from responses. */
  isWriteOnly(schema: unknown): boolean {
    return isMarked(this.#tree, { value: schema }, "writeOnly");
  }

  /**
   * Tag values of an OpenAPI discriminator and the schema each selects, as the validators read
   * them (src/schema/discriminator.ts); a value several branches claim selects none of them. With
   * an OpenAPI 3.2 `defaultMapping`, `fallback` is the schema an object whose tag is absent or maps
   * nothing is judged by.
   */
  discriminatorCases(schema: Schema): DiscriminatorCases {
    const known = this.#discriminators.get(schema);
    if (known !== undefined) return known;
    const branches = (
      Array.isArray(schema["oneOf"]) ? schema["oneOf"] : Array.isArray(schema["anyOf"]) ? schema["anyOf"] : []
    ) as unknown[];
    const read = readDiscriminator(this.#tree, this.rules, schema, { value: schema });
    const selected = (target: number | { readonly location: DocumentPlace }): unknown =>
      typeof target === "number"
        ? branches[target]
        : target.location.pointer === undefined
          ? undefined
          : { $ref: target.location.pointer };
    const cases = new Map<string, unknown>();
    for (const [tag, target] of read?.cases ?? []) {
      const chosen = target === "ambiguous" ? undefined : selected(target);
      if (chosen !== undefined) cases.set(tag, chosen);
    }
    const fallback = read?.fallback === undefined ? undefined : selected(read.fallback);
    const found = { cases, ...(fallback === undefined ? {} : { fallback }) };
    this.#discriminators.set(schema, found);
    return found;
  }
}
