/**
 * Vocabularies (`$vocabulary`, JSON Schema 2020-12 §8.1.2): a schema whose `$schema` names a
 * meta-schema that lists its vocabularies is checked with the keywords of those vocabularies only
 * (a meta-schema without the validation vocabulary makes `minimum` an annotation). A vocabulary
 * the meta-schema requires (`true`) that this compiler does not know is an error, since the
 * schema's meaning would be lost; an optional one (`false`) is ignored. A `$schema` naming the
 * standard meta-schema, or one not known to the module, keeps every keyword.
 */
import { isRecord, type JsonObject } from "../../json-value.js";
import { keywordsWhere, type VocabularyName } from "../../schema/vocabulary.js";
import { SchemaCompileError } from "./errors.js";
import { childLocation, locationKey, type SchemaLocation } from "./location.js";
import { META_SCHEMA_PREFIX } from "./meta-schemas.js";
import type { SchemaRegistry } from "./registry.js";
import { resolveUri, splitFragment } from "./uri.js";

const VOCAB = `${META_SCHEMA_PREFIX}vocab/`;

/** The 2020-12 vocabularies by URI, each with the name its keywords carry in the keyword vocabulary. */
const VOCABULARY_NAMES: Readonly<Record<string, VocabularyName>> = {
  [`${VOCAB}core`]: "core",
  [`${VOCAB}applicator`]: "applicator",
  [`${VOCAB}unevaluated`]: "unevaluated",
  [`${VOCAB}validation`]: "validation",
  [`${VOCAB}meta-data`]: "meta-data",
  [`${VOCAB}format-annotation`]: "format",
  [`${VOCAB}format-assertion`]: "format",
  [`${VOCAB}content`]: "content",
};

/**
 * The keywords each known vocabulary asserts or applies (src/schema/vocabulary.ts): core,
 * meta-data and content assert nothing on their own, so a meta-schema leaving them out leaves
 * nothing out.
 */
const VOCABULARY_KEYWORDS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(VOCABULARY_NAMES).map(([uri, name]) => [
    uri,
    keywordsWhere(
      (entry) =>
        entry.vocabulary === name && (entry.role === "assertion" || entry.role === "applicator" || name === "format"),
    ),
  ]),
);

/** Meta-schemas that keep every keyword: the standard one, and those of earlier drafts. */
const EVERY_KEYWORD = `${META_SCHEMA_PREFIX}schema`;

/** Keywords a schema's vocabularies leave out (undefined: none left out). */
export type InactiveKeywords = ReadonlySet<string> | undefined;

const cache = new WeakMap<SchemaRegistry, Map<string, InactiveKeywords>>();

/** The keywords inactive at a location, by the `$schema` of the nearest schema above (or at) it that has one. */
export function inactiveKeywords(registry: SchemaRegistry, location: SchemaLocation): InactiveKeywords {
  if (!registry.customMetaSchemas) return undefined;
  let known = cache.get(registry);
  if (known === undefined) {
    known = new Map();
    cache.set(registry, known);
  }
  const key = locationKey(location);
  if (known.has(key)) return known.get(key);
  const schema = registry.schemaAt(location);
  const declared = isRecord(schema) ? schema["$schema"] : undefined;
  let result: InactiveKeywords;
  if (typeof declared === "string") result = fromMetaSchema(registry, declared, location);
  else if (location.ptr === "") result = undefined;
  else
    result = inactiveKeywords(registry, {
      doc: location.doc,
      ptr: location.ptr.slice(0, location.ptr.lastIndexOf("/")),
    });
  known.set(key, result);
  return result;
}

/** The schema as its vocabularies let it be checked (itself when they keep every keyword). */
export function activeKeywords(schema: JsonObject, inactive: InactiveKeywords): JsonObject {
  if (inactive === undefined || !Object.keys(schema).some((keyword) => inactive.has(keyword))) return schema;
  const kept: JsonObject = {};
  for (const keyword of Object.keys(schema)) if (!inactive.has(keyword)) kept[keyword] = schema[keyword];
  return kept;
}

function fromMetaSchema(registry: SchemaRegistry, declared: string, at: SchemaLocation): InactiveKeywords {
  const uri = splitFragment(resolveUri(declared, registry.baseOf(at)) ?? declared)[0];
  if (uri === EVERY_KEYWORD) return undefined;
  const meta = registry.resource(uri);
  const vocabularies = meta === undefined ? undefined : registry.schemaAt(meta);
  const listed = isRecord(vocabularies) ? vocabularies["$vocabulary"] : undefined;
  if (!isRecord(listed)) return undefined;
  const active = new Set<string>();
  for (const [vocabulary, required] of Object.entries(listed)) {
    const keywords = VOCABULARY_KEYWORDS[vocabulary];
    if (keywords !== undefined) for (const keyword of keywords) active.add(keyword);
    else if (required === true) {
      throw new SchemaCompileError(
        registry.pointer(childLocation(at, "$schema")),
        `the meta-schema ${JSON.stringify(declared)} requires the vocabulary ${JSON.stringify(vocabulary)}, which the validators do not implement; mark it optional (false) in the meta-schema's $vocabulary or remove it`,
      );
    }
  }
  const inactive = new Set<string>();
  for (const keywords of Object.values(VOCABULARY_KEYWORDS))
    for (const keyword of keywords) if (!active.has(keyword)) inactive.add(keyword);
  return inactive;
}
