import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { corpusAvailable } from "../../../../support/paths.js";
import { CORPUS_DIR, REPO_ROOT } from "./suite-corpus.js";

/** A bundled OpenAPI document ready for comparison. */
export interface LoadedDocument {
  readonly name: string;
  readonly document: Record<string, unknown>;
  readonly schemas: Readonly<Record<string, unknown>>;
  readonly dialect: "openapi-3.0" | "openapi-3.1";
  readonly schemaNames: readonly string[];
}

/** The project's own contract plus the corpus documents that exist. */
export function documentPaths(): { name: string; path: string }[] {
  const paths: { name: string; path: string }[] = [];
  const own = join(REPO_ROOT, "spec", "openapi.yaml");
  if (existsSync(own)) paths.push({ name: "spec/openapi.yaml", path: own });
  const dir = join(CORPUS_DIR, "openapi");
  if (corpusAvailable("corpus documents of the differential test") && existsSync(dir)) {
    for (const file of readdirSync(dir)
      .filter((name) => /\.(ya?ml|json)$/.test(name))
      .sort())
      paths.push({ name: file, path: join(dir, file) });
  }
  return paths;
}

/**
 * Reads a document (no validation: the comparison needs only its schemas). One that refers to
 * other files is bundled into one; one whose `$ref`s all point into itself is taken as read, since
 * both validators resolve those themselves, and bundling walks every `$ref` (for the corpus's
 * largest documents, ten times the time of reading them, for a document equal to the one read).
 */
export async function loadDocument(name: string, path: string): Promise<LoadedDocument> {
  const read = (await SwaggerParser.parse(path)) as unknown as Record<string, unknown>;
  const document = refersOutside(read)
    ? ((await SwaggerParser.bundle(path)) as unknown as Record<string, unknown>)
    : read;
  const version = String(document["openapi"] ?? "");
  const components = document["components"] as { schemas?: Record<string, unknown> } | undefined;
  const schemas = components?.schemas ?? {};
  return {
    name,
    document,
    schemas,
    dialect: version.startsWith("3.0") ? "openapi-3.0" : "openapi-3.1",
    schemaNames: Object.keys(schemas),
  };
}

/** Whether a `$ref` of the value points into another file. */
function refersOutside(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(refersOutside);
  if (typeof value !== "object" || value === null) return false;
  return Object.entries(value).some(([key, child]) =>
    key === "$ref" && typeof child === "string" ? !child.startsWith("#") : refersOutside(child),
  );
}

/** The pointer of a component schema. */
export function componentPointer(name: string): string {
  return `#/components/schemas/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

/**
 * The document as Ajv 2020 can take it, with the same meaning: OpenAPI 3.0 ignores keywords
 * next to `$ref`; boolean exclusiveMinimum/Maximum become the numeric form; `nullable: true`
 * (null is valid, whatever else the schema says) becomes `anyOf: [{ type: "null" }, <rest>]`,
 * which Ajv's own `nullable` (type only) does not express; the 2019-09
 * keywords `$recursiveRef`/`$recursiveAnchor`, which 2020-12 does not have (it replaced them
 * with `$dynamicRef`) but Ajv 2020 still honours, are dropped.
 */
export function documentForAjv(loaded: LoadedDocument): unknown {
  const copy = JSON.parse(JSON.stringify(loaded.document)) as unknown;
  visit(copy, (node) => {
    if (loaded.dialect === "openapi-3.0" && typeof node["$ref"] === "string") {
      for (const key of Object.keys(node)) if (key !== "$ref") delete node[key];
      return;
    }
    translateExclusive(node, "exclusiveMinimum", "minimum");
    translateExclusive(node, "exclusiveMaximum", "maximum");
    translateNullable(node);
    delete node["$recursiveRef"];
    delete node["$recursiveAnchor"];
  });
  return copy;
}

function translateNullable(node: Record<string, unknown>): void {
  if (node["nullable"] === undefined) return;
  const nullable = node["nullable"] === true;
  delete node["nullable"];
  if (!nullable) return;
  const rest = { ...node };
  for (const key of Object.keys(node)) delete node[key];
  node["anyOf"] = [{ type: "null" }, rest];
}

function translateExclusive(node: Record<string, unknown>, exclusive: string, inclusive: string): void {
  if (typeof node[exclusive] !== "boolean") return;
  if (node[exclusive] === true && typeof node[inclusive] === "number") {
    node[exclusive] = node[inclusive];
    delete node[inclusive];
  } else {
    delete node[exclusive];
  }
}

function visit(value: unknown, action: (node: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) visit(item, action);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  const node = value as Record<string, unknown>;
  action(node);
  for (const key of Object.keys(node))
    if (key !== "example" && key !== "examples" && key !== "enum" && key !== "const") visit(node[key], action);
}
