/**
 * The schema keywords the project knows, each listed once with what its readers need to know of
 * it: the JSON Schema 2020-12 keywords, `definitions` (the spelling of `$defs` before 2019-09),
 * and OpenAPI's own (`nullable`, `discriminator`, `xml`, `externalDocs`, `example`). The
 * compiler's `$vocabulary` support, the registry's walk over subschemas, `spec:diff`'s
 * classification of bounds, restrictions, encodings and documentation, the mock's merging of
 * bounds and the type it builds a schema without `type` as, and the keywords holding data or
 * schema maps (types emitter, legacy pattern scan) come from here, so a keyword added once
 * reaches each of them; test/unit/src/schema/vocabulary.test.ts fails, naming the file to change, where a
 * reader ignores an entry. The validators' checks themselves are code, one function per keyword
 * family in src/compiler/keywords/.
 *
 * The order of the entries is the order the registry visits a schema's subschemas in (by kind:
 * single schemas, then maps, then arrays) and the order `spec:diff` reports constraints in.
 */

/** The instance type a keyword says something of; "any" for a keyword that reads every value. */
export type InstanceType = "string" | "number" | "array" | "object" | "any";

/**
 * What a keyword does: asserts (a value can fail it), applies subschemas, annotates a value for the
 * tools that read it (`default`, `readOnly`, `format` unless formats are asserted), only documents
 * (`title`, `examples`: a change of it accepts no other value), or is the schema's own plumbing
 * (`$id`, `$ref`, `$defs`).
 */
export type KeywordRole = "assertion" | "applicator" | "annotation" | "documentation" | "core";

/** Where a keyword comes from: a 2020-12 vocabulary (§8–§10 of its specifications), OpenAPI, or an earlier draft. */
export type VocabularyName =
  | "core"
  | "applicator"
  | "unevaluated"
  | "validation"
  | "meta-data"
  | "format"
  | "content"
  | "openapi"
  | "draft";

/** A numeric limit: which side it bounds, and whether the limit itself is excluded. */
export interface Bound {
  /** "lower": the larger value is the stricter (minLength, minimum); "upper": the smaller (maxItems) */
  readonly side: "lower" | "upper";
  readonly exclusive: boolean;
}

/** What the project's readers know of one keyword. */
export interface KeywordEntry {
  readonly vocabulary: VocabularyName;
  readonly role: KeywordRole;
  readonly instance: InstanceType;
  /** a keyword whose value is a schema, an array of schemas, a map of names to schemas, or data (not a schema) */
  readonly holds?: "schema" | "schema-array" | "schema-map" | "data";
  /** a numeric limit (minLength, exclusiveMaximum, minContains) */
  readonly bound?: Bound;
  /**
   * A single-valued assertion other than a bound whose value, compared whole, restricts the valid
   * values: added or changed, fewer may be valid (pattern, multipleOf, uniqueItems).
   */
  readonly restriction?: true;
  /** says how a string is to be read (format, contentMediaType, contentEncoding) */
  readonly encoding?: true;
  /** the value that restricts nothing, being what the keyword means when left out (minLength 0, minContains 1) */
  readonly neutral?: number | boolean;
  /**
   * The keywords beside it that it works with: it does nothing without them (then, minContains),
   * modifies them (OpenAPI 3.0's boolean exclusiveMinimum) or reads what they evaluated
   * (additionalProperties; unevaluated* read the in-place applicators' too).
   */
  readonly with?: readonly string[];
  /**
   * How many of what it applies its schemas to (or of its schemas) must pass, for a keyword that
   * holds schemas: "some" (anyOf, contains), "one" (oneOf), "none" (not). Left out, every one must
   * (allOf, properties, propertyNames, ...), so the keyword written in two parts of an allOf applies
   * both parts' schemas to the same values, as one keyword holding their allOf would.
   */
  readonly applies?: "some" | "one" | "none";
}

const lower = { side: "lower", exclusive: false } as const;
const upper = { side: "upper", exclusive: false } as const;

/** Every keyword, once. */
export const VOCABULARY = {
  $schema: { vocabulary: "core", role: "core", instance: "any" },
  $vocabulary: { vocabulary: "core", role: "core", instance: "any" },
  $id: { vocabulary: "core", role: "core", instance: "any" },
  $anchor: { vocabulary: "core", role: "core", instance: "any" },
  $dynamicAnchor: { vocabulary: "core", role: "core", instance: "any" },
  $ref: { vocabulary: "core", role: "core", instance: "any" },
  $dynamicRef: { vocabulary: "core", role: "core", instance: "any" },
  $defs: { vocabulary: "core", role: "core", instance: "any", holds: "schema-map" },
  definitions: { vocabulary: "draft", role: "core", instance: "any", holds: "schema-map" },
  $comment: { vocabulary: "core", role: "documentation", instance: "any" },

  properties: { vocabulary: "applicator", role: "applicator", instance: "object", holds: "schema-map" },
  patternProperties: { vocabulary: "applicator", role: "applicator", instance: "object", holds: "schema-map" },
  additionalProperties: {
    vocabulary: "applicator",
    role: "applicator",
    instance: "object",
    holds: "schema",
    with: ["properties", "patternProperties"],
  },
  propertyNames: { vocabulary: "applicator", role: "applicator", instance: "object", holds: "schema" },
  dependentSchemas: { vocabulary: "applicator", role: "applicator", instance: "object", holds: "schema-map" },
  allOf: { vocabulary: "applicator", role: "applicator", instance: "any", holds: "schema-array" },
  anyOf: { vocabulary: "applicator", role: "applicator", instance: "any", holds: "schema-array", applies: "some" },
  oneOf: { vocabulary: "applicator", role: "applicator", instance: "any", holds: "schema-array", applies: "one" },
  prefixItems: { vocabulary: "applicator", role: "applicator", instance: "array", holds: "schema-array" },
  items: { vocabulary: "applicator", role: "applicator", instance: "array", holds: "schema", with: ["prefixItems"] },
  contains: { vocabulary: "applicator", role: "applicator", instance: "array", holds: "schema", applies: "some" },
  not: { vocabulary: "applicator", role: "applicator", instance: "any", holds: "schema", applies: "none" },
  if: { vocabulary: "applicator", role: "applicator", instance: "any", holds: "schema" },
  // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword here
  then: { vocabulary: "applicator", role: "applicator", instance: "any", holds: "schema", with: ["if"] },
  else: { vocabulary: "applicator", role: "applicator", instance: "any", holds: "schema", with: ["if"] },
  unevaluatedProperties: {
    vocabulary: "unevaluated",
    role: "applicator",
    instance: "object",
    holds: "schema",
    with: ["properties", "patternProperties", "additionalProperties"],
  },
  unevaluatedItems: {
    vocabulary: "unevaluated",
    role: "applicator",
    instance: "array",
    holds: "schema",
    with: ["prefixItems", "items", "contains"],
  },

  type: { vocabulary: "validation", role: "assertion", instance: "any" },
  enum: { vocabulary: "validation", role: "assertion", instance: "any", holds: "data" },
  const: { vocabulary: "validation", role: "assertion", instance: "any", holds: "data" },
  multipleOf: { vocabulary: "validation", role: "assertion", instance: "number", restriction: true },
  minimum: { vocabulary: "validation", role: "assertion", instance: "number", bound: lower },
  exclusiveMinimum: {
    vocabulary: "validation",
    role: "assertion",
    instance: "number",
    bound: { side: "lower", exclusive: true },
    with: ["minimum"],
  },
  maximum: { vocabulary: "validation", role: "assertion", instance: "number", bound: upper },
  exclusiveMaximum: {
    vocabulary: "validation",
    role: "assertion",
    instance: "number",
    bound: { side: "upper", exclusive: true },
    with: ["maximum"],
  },
  minLength: { vocabulary: "validation", role: "assertion", instance: "string", bound: lower, neutral: 0 },
  maxLength: { vocabulary: "validation", role: "assertion", instance: "string", bound: upper },
  pattern: { vocabulary: "validation", role: "assertion", instance: "string", restriction: true },
  minItems: { vocabulary: "validation", role: "assertion", instance: "array", bound: lower, neutral: 0 },
  maxItems: { vocabulary: "validation", role: "assertion", instance: "array", bound: upper },
  uniqueItems: { vocabulary: "validation", role: "assertion", instance: "array", restriction: true, neutral: false },
  minContains: {
    vocabulary: "validation",
    role: "assertion",
    instance: "array",
    bound: lower,
    neutral: 1,
    with: ["contains"],
  },
  maxContains: { vocabulary: "validation", role: "assertion", instance: "array", bound: upper, with: ["contains"] },
  minProperties: { vocabulary: "validation", role: "assertion", instance: "object", bound: lower, neutral: 0 },
  maxProperties: { vocabulary: "validation", role: "assertion", instance: "object", bound: upper },
  required: { vocabulary: "validation", role: "assertion", instance: "object" },
  dependentRequired: { vocabulary: "validation", role: "assertion", instance: "object" },

  format: { vocabulary: "format", role: "annotation", instance: "any", encoding: true },
  contentMediaType: { vocabulary: "content", role: "annotation", instance: "string", encoding: true },
  contentEncoding: { vocabulary: "content", role: "annotation", instance: "string", encoding: true },
  contentSchema: {
    vocabulary: "content",
    role: "annotation",
    instance: "string",
    holds: "schema",
    with: ["contentMediaType"],
  },

  title: { vocabulary: "meta-data", role: "documentation", instance: "any" },
  description: { vocabulary: "meta-data", role: "documentation", instance: "any" },
  default: { vocabulary: "meta-data", role: "annotation", instance: "any", holds: "data" },
  deprecated: { vocabulary: "meta-data", role: "annotation", instance: "any" },
  readOnly: { vocabulary: "meta-data", role: "annotation", instance: "any" },
  writeOnly: { vocabulary: "meta-data", role: "annotation", instance: "any" },
  examples: { vocabulary: "meta-data", role: "documentation", instance: "any", holds: "data" },

  nullable: { vocabulary: "openapi", role: "assertion", instance: "any" },
  discriminator: { vocabulary: "openapi", role: "annotation", instance: "object", with: ["oneOf", "anyOf"] },
  example: { vocabulary: "openapi", role: "documentation", instance: "any", holds: "data" },
  externalDocs: { vocabulary: "openapi", role: "documentation", instance: "any" },
  xml: { vocabulary: "openapi", role: "documentation", instance: "any" },
} as const satisfies Readonly<Record<string, KeywordEntry>>;

/** A keyword of the vocabulary. */
export type SchemaKeyword = keyof typeof VOCABULARY;

const ENTRIES = Object.entries(VOCABULARY) as readonly (readonly [SchemaKeyword, KeywordEntry])[];

/** What the vocabulary says of a keyword; undefined for one it does not list (an extension, a typo). */
export function keywordEntry(keyword: string): KeywordEntry | undefined {
  return Object.hasOwn(VOCABULARY, keyword) ? VOCABULARY[keyword as SchemaKeyword] : undefined;
}

/** The keywords whose entry passes `test`, in the vocabulary's order. */
export function keywordsWhere(test: (entry: KeywordEntry, keyword: SchemaKeyword) => boolean): SchemaKeyword[] {
  return ENTRIES.filter(([keyword, entry]) => test(entry, keyword)).map(([keyword]) => keyword);
}

/** The bounds of one side: `lower` ones are stricter the larger they are, `upper` ones the smaller. */
export function boundKeywords(side: Bound["side"]): ReadonlySet<string> {
  return new Set(keywordsWhere((entry) => entry.bound?.side === side));
}

/** Whether a keyword works with `partner` (minContains with contains, then with if). */
export function worksWith(entry: KeywordEntry, partner: string): boolean {
  return entry.with?.includes(partner) === true;
}
