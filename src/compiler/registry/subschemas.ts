import { isRecord, type JsonObject } from "../../json-value.js";
import { type DialectRules, ownKeywordsApply } from "../../schema/dialect.js";
import { type KeywordEntry, keywordsWhere } from "../../schema/vocabulary.js";

/** The keywords holding subschemas of one form (src/schema/vocabulary.ts), applied during validation or (`core`) only reachable by reference. */
function holding(holds: KeywordEntry["holds"], applied: boolean): readonly string[] {
  return keywordsWhere((entry) => entry.holds === holds && (entry.role === "applicator") === applied);
}

/** Keywords whose value is one subschema applied during validation. */
export const SINGLE_SCHEMA_KEYWORDS = holding("schema", true);

/** Keywords whose value is a map of subschemas applied during validation. */
export const MAP_SCHEMA_KEYWORDS = holding("schema-map", true);

/** Keywords whose value is an array of subschemas applied during validation. */
export const ARRAY_SCHEMA_KEYWORDS = holding("schema-array", true);

/** Keywords holding subschemas that are only reachable by reference. */
export const DEFINITION_KEYWORDS = keywordsWhere((entry) => entry.holds === "schema-map" && entry.role === "core");

/** A subschema found under a keyword, with the pointer tokens that lead to it. */
export interface Subschema {
  readonly schema: unknown;
  readonly tokens: readonly (string | number)[];
}

/** Every applied subschema of `schema` (not definitions), in keyword order; with `rules`, none where its keywords do not apply. */
export function appliedSubschemas(schema: JsonObject, rules?: DialectRules): Subschema[] {
  if (rules !== undefined && !ownKeywordsApply(rules, schema)) return [];
  const found: Subschema[] = [];
  for (const keyword of SINGLE_SCHEMA_KEYWORDS) {
    if (Object.hasOwn(schema, keyword)) found.push({ schema: schema[keyword], tokens: [keyword] });
  }
  for (const keyword of MAP_SCHEMA_KEYWORDS) collectMap(schema[keyword], keyword, found);
  for (const keyword of ARRAY_SCHEMA_KEYWORDS) collectArray(schema[keyword], keyword, found);
  return found;
}

/** Every subschema under `$defs` / `definitions`. */
export function definitionSubschemas(schema: JsonObject): Subschema[] {
  const found: Subschema[] = [];
  for (const keyword of DEFINITION_KEYWORDS) collectMap(schema[keyword], keyword, found);
  return found;
}

function collectMap(value: unknown, keyword: string, found: Subschema[]): void {
  if (!isRecord(value)) return;
  for (const name of Object.keys(value)) found.push({ schema: value[name], tokens: [keyword, name] });
}

function collectArray(value: unknown, keyword: string, found: Subschema[]): void {
  if (!Array.isArray(value)) return;
  for (const [index, schema] of value.entries()) found.push({ schema, tokens: [keyword, index] });
}
