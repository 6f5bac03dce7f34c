/**
 * A schema normalised one level deep: `$ref`s followed, `allOf` members merged, nullability in
 * one form, boolean schemas read as "anything" and "nothing". Child schemas stay as they are in
 * the document and are normalised when the comparison reaches them, so recursion costs nothing.
 */
import { type DialectRules, dialectRules, type OpenApiVersion, openApiDialect } from "../../schema/dialect.js";
import type { SchemaKeyword, VOCABULARY } from "../../schema/vocabulary.js";

/** The JSON types a schema can name, apart from "null" (which a Shape keeps as `nullable`). */
export type JsonType = "string" | "number" | "integer" | "boolean" | "object" | "array";

/** A bundled document, the OpenAPI version that decides how its schemas read, and what was worked out about them. */
export interface SchemaDoc {
  readonly document: unknown;
  readonly version: OpenApiVersion;
  /** the rules its schemas are read by (src/schema/dialect.ts) */
  readonly rules: DialectRules;
  readonly memo: SchemaMemo;
}

/** Shapes and digests of one document's schemas, each worked out once. */
export interface SchemaMemo {
  /** by the pointers of the parts */
  readonly shapes: Map<string, Shape>;
  /** by kind of digest and $ref target */
  readonly digests: Map<string, string>;
}

/** A schema document with nothing worked out yet. */
export function createSchemaDoc(document: unknown, version: OpenApiVersion): SchemaDoc {
  return {
    document,
    version,
    rules: dialectRules(openApiDialect(version)),
    memo: { shapes: new Map(), digests: new Map() },
  };
}

/** A schema as found in a document: its value and where it stands. */
export interface SchemaNode<T = unknown> {
  readonly value: T;
  readonly pointer: string;
}

/** Schemas that all apply at once: the members of an allOf, a $ref and its siblings, ... */
export type SchemaParts = readonly SchemaNode[];

/** A keyword's value and the pointer of the schema it was written in. */
export interface Keyword {
  readonly value: unknown;
  readonly pointer: string;
}

/** The branches of a oneOf or anyOf (null branches taken out into `nullable`). */
export interface Branching {
  readonly keyword: "oneOf" | "anyOf";
  readonly pointer: string;
  readonly branches: readonly SchemaParts[];
}

/** The keywords that hold a schema or a map of schemas to apply (src/schema/vocabulary.ts), `then` and `else` left to `if`. */
type HoldingSubschemas = {
  [K in SchemaKeyword]: (typeof VOCABULARY)[K] extends {
    readonly holds: "schema" | "schema-map";
    readonly role: "applicator" | "annotation";
  }
    ? (typeof VOCABULARY)[K] extends { readonly with: readonly ["if"] }
      ? never
      : K
    : never;
}[SchemaKeyword];

/**
 * The applicators that take a subschema and apply it in place: each restricts the instance while
 * it is there (absent, it accepts anything), except `not`, which refuses what its schema accepts.
 * They are every keyword holding subschemas but those a Shape reads into fields of its own
 * (`properties`, `additional`, `items`, `conditionals`).
 */
export type SubschemaKeyword = Exclude<HoldingSubschemas, "properties" | "additionalProperties" | "items" | "if">;

/** A subschema of one level: its keyword, its key within the keyword, and its schema. */
export interface Subschema {
  readonly keyword: SubschemaKeyword;
  /** the pattern of patternProperties, the property of dependentSchemas; "" for the others */
  readonly key: string;
  readonly pointer: string;
  /** every part applies (the same keyword and key written in several allOf members) */
  readonly parts: SchemaParts;
}

/** if/then/else: `then` applies where `if` holds, `else` where it does not (a missing one accepts anything). */
export interface Conditional {
  readonly pointer: string;
  readonly condition: SchemaParts;
  readonly thenBranch?: SchemaParts;
  readonly elseBranch?: SchemaParts;
}

/** One level of a normalised schema. */
export interface Shape {
  /** where the schema stands (the $ref site, not its target) */
  readonly pointer: string;
  /** the schemas this level was made of */
  readonly parts: SchemaParts;
  /** the component key, when the schema is a $ref to "#/components/schemas/<key>" */
  readonly component?: string;
  /** the resolved targets of the $refs followed at this level */
  readonly refs: readonly string[];
  /** accepts nothing (`false`, or types that exclude each other) */
  readonly never: boolean;
  /** accepted types other than null; undefined when any type is */
  readonly types?: ReadonlySet<JsonType>;
  readonly nullable: boolean;
  /** enum or const values as canonical JSON, null left out; undefined when unrestricted */
  readonly enumValues?: readonly string[];
  readonly properties: ReadonlyMap<string, SchemaParts>;
  readonly required: ReadonlySet<string>;
  /** properties not listed: any, none, or those valid against the schemas */
  readonly additional: "open" | "closed" | SchemaParts;
  /** whether the generated type has an index signature (additionalProperties true or a schema) */
  readonly indexSignature: boolean;
  readonly items?: SchemaParts;
  /** the schemas of the first items, by position (prefixItems); `items` applies to those after them */
  readonly prefixItems: readonly SchemaParts[];
  /** subschemas by keyword and key: "contains", "patternProperties ^x-", "not" (a second `not` of the level: "not 2") */
  readonly subschemas: ReadonlyMap<string, Subschema>;
  readonly conditionals: readonly Conditional[];
  /** dependentRequired: per property, the properties its presence requires */
  readonly dependentRequired: ReadonlyMap<string, ReadonlySet<string>>;
  /** constraints, format, content encoding and default, as merged from every part */
  readonly keywords: ReadonlyMap<string, Keyword>;
  readonly branchings: readonly Branching[];
  readonly readOnly: boolean;
  readonly writeOnly: boolean;
  readonly deprecated: boolean;
  /** descriptions, titles, examples, extensions: documentation only */
  readonly docs: ReadonlyMap<string, Keyword>;
  /** keywords this comparison does not classify (discriminator, $dynamicRef, ...) */
  readonly other: ReadonlyMap<string, Keyword>;
}

const ALL_TYPES: readonly JsonType[] = ["string", "number", "integer", "boolean", "object", "array"];

/** Whether a set of types (undefined: any) accepts values of type `type`. */
export function acceptsType(types: ReadonlySet<JsonType> | undefined, type: JsonType): boolean {
  if (types === undefined) return true;
  return types.has(type) || (type === "integer" && types.has("number"));
}

/** Whether every value `narrow` accepts, `wide` accepts too. */
export function coversTypes(
  wide: ReadonlySet<JsonType> | undefined,
  narrow: ReadonlySet<JsonType> | undefined,
): boolean {
  if (wide === undefined) return true;
  if (narrow === undefined) return false;
  return [...narrow].every((type) => acceptsType(wide, type));
}

/** The types both sets accept; "number" absorbs "integer". */
export function intersectTypes(
  a: ReadonlySet<JsonType> | undefined,
  b: ReadonlySet<JsonType> | undefined,
): ReadonlySet<JsonType> | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return tidyTypes(ALL_TYPES.filter((type) => acceptsType(a, type) && acceptsType(b, type)));
}

/** A type set with "integer" left out where "number" covers it. */
export function tidyTypes(types: Iterable<JsonType>): ReadonlySet<JsonType> {
  const set = new Set(types);
  if (set.has("number")) set.delete("integer");
  return set;
}

/** Whether values of `type` can reach keywords that apply to it on both sides. */
export function bothAccept(base: Shape, head: Shape, type: JsonType): boolean {
  return acceptsType(base.types, type) && acceptsType(head.types, type);
}

/**
 * Whether a level holds no object or array structure and no subschema: no properties (listed or
 * required), other properties open, no items, no applicator, condition or dependency.
 */
export function holdsNoStructure(shape: Shape): boolean {
  return (
    shape.properties.size === 0 &&
    shape.required.size === 0 &&
    shape.additional === "open" &&
    shape.items === undefined &&
    shape.prefixItems.length === 0 &&
    shape.subschemas.size === 0 &&
    shape.conditionals.length === 0 &&
    shape.dependentRequired.size === 0
  );
}

/** "string", "integer | string", "any", "nothing": how a report shows a shape's types. */
export function describeTypes(shape: Shape): string {
  if (shape.never) return "nothing (false)";
  const names = shape.types === undefined ? ["any"] : [...shape.types].sort();
  if (names.length === 0) return shape.nullable ? "null" : "nothing";
  return shape.nullable && shape.types !== undefined ? [...names, "null"].join(" | ") : names.join(" | ");
}
