import { isRecord, type JsonObject } from "../../json-value.js";
import type { DialectRules } from "../../schema/dialect.js";
import { SchemaCompileError } from "./errors.js";
import { childLocation, type SchemaLocation } from "./location.js";
import { appliedSubschemas, definitionSubschemas } from "./subschemas.js";
import { resolveUri, splitFragment } from "./uri.js";

/** The `$schema` of the standard 2020-12 meta-schema, which keeps every keyword. */
const STANDARD_META_SCHEMA = "https://json-schema.org/draft/2020-12/schema";

/** OpenAPI keys whose values are never schemas nor contain any. */
const OPENAPI_SKIPPED = new Set(["example", "examples", "externalDocs", "xml", "security", "servers", "info", "tags"]);

/**
 * What indexing reads of the registry and writes into it (registry.ts's SchemaRegistry is one):
 * the registry indexes the meta-schemas it adds, so the indexer names it by this alone rather
 * than by importing it back.
 */
export interface IndexedRegistry {
  readonly rules: DialectRules;
  customMetaSchemas: boolean;
  document(index: number): { readonly root: unknown; readonly retrievalUri: string; readonly openApi: boolean };
  pointer(location: SchemaLocation): string;
  addResource(uri: string, location: SchemaLocation): void;
  addAnchor(uri: string, location: SchemaLocation): void;
  addDynamicAnchor(resource: string, name: string, location: SchemaLocation): void;
}

/** Registers every `$id`, `$anchor` and `$dynamicAnchor` of a document with the registry. */
export function indexDocument(registry: IndexedRegistry, doc: number): void {
  const document = registry.document(doc);
  const root: SchemaLocation = { doc, ptr: "" };
  if (document.openApi) indexOpenApi(registry, document.root, root, document.retrievalUri, "");
  else indexSchema(registry, document.root, root, document.retrievalUri);
}

function indexOpenApi(registry: IndexedRegistry, node: unknown, at: SchemaLocation, base: string, key: string): void {
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) indexOpenApi(registry, item, childLocation(at, index), base, "");
    return;
  }
  if (!isRecord(node)) return;
  for (const name of Object.keys(node)) {
    if (name.startsWith("x-") || OPENAPI_SKIPPED.has(name)) continue;
    const child = childLocation(at, name);
    if (name === "schema") indexSchema(registry, node[name], child, base);
    else if (name === "schemas" && key === "components") indexSchemaMap(registry, node[name], child, base);
    else indexOpenApi(registry, node[name], child, base, name);
  }
}

function indexSchemaMap(registry: IndexedRegistry, map: unknown, at: SchemaLocation, base: string): void {
  if (!isRecord(map)) return;
  for (const name of Object.keys(map)) indexSchema(registry, map[name], childLocation(at, name), base);
}

function indexSchema(registry: IndexedRegistry, schema: unknown, at: SchemaLocation, base: string): void {
  if (!isRecord(schema)) return;
  const own = registry.rules.ids ? ownBase(registry, schema, at, base) : base;
  const meta = schema["$schema"];
  if (typeof meta === "string" && meta !== STANDARD_META_SCHEMA) registry.customMetaSchemas = true;
  registerAnchor(registry, schema, "$anchor", own, at);
  registerAnchor(registry, schema, "$dynamicAnchor", own, at);
  for (const sub of [...appliedSubschemas(schema), ...definitionSubschemas(schema)]) {
    indexSchema(registry, sub.schema, childLocation(at, ...sub.tokens), own);
  }
}

function ownBase(registry: IndexedRegistry, schema: JsonObject, at: SchemaLocation, base: string): string {
  const id = schema["$id"];
  if (typeof id !== "string") return base;
  const absolute = resolveUri(id, base);
  if (absolute === undefined) {
    throw new SchemaCompileError(
      `${registry.pointer(at)}/$id`,
      `$id ${JSON.stringify(id)} is not a valid URI reference; use an absolute URI such as "https://example.com/schemas/name.json"`,
    );
  }
  const [uri] = splitFragment(absolute);
  registry.addResource(uri, at);
  return uri;
}

function registerAnchor(
  registry: IndexedRegistry,
  schema: JsonObject,
  keyword: string,
  base: string,
  at: SchemaLocation,
): void {
  const name = schema[keyword];
  if (typeof name !== "string") return;
  registry.addAnchor(`${base}#${name}`, at);
  if (keyword === "$dynamicAnchor") registry.addDynamicAnchor(base, name, at);
}
