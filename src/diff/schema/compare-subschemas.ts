import { keywordsWhere, VOCABULARY, worksWith } from "../../schema/vocabulary.js";
import type { Finding } from "../findings/finding.js";
import { schemaDigest } from "./canonical.js";
import { keywordChange } from "./compare-constraints.js";
import type { CompareSchemas } from "./compare-object.js";
import { intoSubschema, type SchemaContext, schemaFinding } from "./schema-context.js";
import {
  bothAccept,
  type JsonType,
  type SchemaDoc,
  type SchemaParts,
  type Shape,
  type Subschema,
  type SubschemaKeyword,
} from "./shape.js";

/** The type of value a keyword restricts: where a side accepts no such value, the keyword does nothing. */
function appliesTo(keyword: SubschemaKeyword): JsonType | undefined {
  const instance = VOCABULARY[keyword].instance;
  return instance === "any" ? undefined : instance;
}

/** The constraints compared beside each subschema keyword they work with, where both sides have it (minContains beside contains). */
const CONSTRAINTS_WITH: ReadonlyMap<string, readonly string[]> = new Map(
  keywordsWhere((entry) => entry.holds === "schema").map((keyword) => [
    keyword,
    keywordsWhere((entry) => worksWith(entry, keyword) && (entry.bound !== undefined || entry.restriction === true)),
  ]),
);

/** The keywords whose subschemas the generated types show (as an index signature). */
const TYPED: ReadonlySet<SubschemaKeyword> = new Set(["patternProperties"]);

/** A subschema that applies to the value in place, on each side (missing where the side has none), and how to read it. */
export interface SubschemaPair {
  /** how the report names it: "not", "then", 'patternProperties "^x-"' */
  readonly label: string;
  readonly before?: SchemaParts;
  readonly after?: SchemaParts;
  /** `not`: the value must not match it, so the comparison inside is read the other way round */
  readonly negate?: boolean;
  /** whether the generated types show it */
  readonly typed?: boolean;
  /** whether a schema that accepts anything still restricts (`contains` asks for an item) */
  readonly restrictsWhenTrivial?: boolean;
}

/**
 * The subschemas of one level (contains, propertyNames, patternProperties, dependentSchemas,
 * unevaluatedItems/Properties, contentSchema, not), matched by keyword and key. One on both sides
 * is compared inside, read as the place reads it (the other way round inside `not`); one added
 * restricts the value further, one removed restricts it less.
 */
export function compareSubschemas(ctx: SchemaContext, base: Shape, head: Shape, compare: CompareSchemas): Finding[] {
  if (base.never || head.never) return [];
  const names = [...new Set([...base.subschemas.keys(), ...head.subschemas.keys()])].sort();
  return names.flatMap((name) => {
    const [before, after] = [effective(base, name), effective(head, name)];
    if (before === undefined && after === undefined) return [];
    const keyword = (after ?? (before as Subschema)).keyword;
    const type = appliesTo(keyword);
    if (type !== undefined && !bothAccept(base, head, type)) return [];
    const pair: SubschemaPair = {
      label: labelOf(name, after ?? (before as Subschema)),
      ...(before !== undefined ? { before: before.parts } : {}),
      ...(after !== undefined ? { after: after.parts } : {}),
      negate: keyword === "not",
      typed: TYPED.has(keyword),
      restrictsWhenTrivial: keyword === "contains",
    };
    const bounds =
      before !== undefined && after !== undefined
        ? (CONSTRAINTS_WITH.get(keyword) ?? []).flatMap((bound) => keywordChange(ctx, bound, base, head))
        : [];
    return [...compareSubschemaPair(ctx, pair, head, compare), ...bounds];
  });
}

/**
 * A subschema of a level where it has an effect: `unevaluatedItems` does nothing where `items`
 * reaches every item, nor `unevaluatedProperties` where additionalProperties reaches every property.
 */
function effective(shape: Shape, name: string): Subschema | undefined {
  const subschema = shape.subschemas.get(name);
  if (subschema?.keyword === "unevaluatedItems" && shape.items !== undefined) return undefined;
  if (subschema?.keyword === "unevaluatedProperties" && (shape.additional !== "open" || shape.indexSignature))
    return undefined;
  return subschema;
}

/** "contains", "not 2", 'patternProperties "^x-"', 'dependentSchemas "name"'. */
function labelOf(name: string, subschema: Subschema): string {
  return subschema.key === "" ? name : `${subschema.keyword} ${JSON.stringify(subschema.key)}`;
}

/** A subschema on both sides compared inside; added or removed, one finding for the whole of it. */
export function compareSubschemaPair(
  ctx: SchemaContext,
  pair: SubschemaPair,
  head: Shape,
  compare: CompareSchemas,
): Finding[] {
  const { before, after } = pair;
  if (before !== undefined && after !== undefined)
    return compare(
      intoSubschema(ctx, pair.label, { negate: pair.negate === true, typed: pair.typed === true }),
      before,
      after,
    );
  const only = after ?? before;
  if (only === undefined || !restricts(after === undefined ? ctx.base : ctx.head, only, pair)) return [];
  const pointer = only[0]?.pointer ?? head.pointer;
  const added = after !== undefined;
  const what = `${pair.label} ${added ? "added" : "removed"}`;
  return [
    schemaFinding(ctx, added ? "constraint-tightened" : "constraint-loosened", {
      pointer,
      at: added ? pointer : head.pointer,
      what,
      typed: false,
    }),
  ];
}

/** Whether a subschema restricts the value at all: `not` unless its schema accepts nothing, the others unless theirs accepts anything. */
function restricts(doc: SchemaDoc, parts: SchemaParts, pair: SubschemaPair): boolean {
  const meaning = schemaDigest(doc, parts, "meaning");
  const pointer = parts[0]?.pointer ?? "#";
  if (pair.negate === true) return meaning !== schemaDigest(doc, [{ value: false, pointer }], "meaning");
  return pair.restrictsWhenTrivial === true || meaning !== schemaDigest(doc, [{ value: true, pointer }], "meaning");
}
