import { appendPointer, pointerSegments, resolvePointer } from "../../json-pointer.js";
import type { EmitInput, GeneratedFile } from "../emitter.js";
import { CodeRef, toCodeLiteral } from "../literal.js";

const COMPONENTS = "#/components/schemas/";
const DIALECT = "https://json-schema.org/draft/2020-12/schema";

/**
 * generated/json-schemas.ts: each component schema as a self-contained JSON Schema document, for
 * tools that want the schema itself rather than a validator. Every component is written once,
 * under a shared `$defs` whose `$ref`s to components point within it; each document is
 * `{ $ref: "#/$defs/<name>", $defs }`, so it resolves on its own and the module stays as large as
 * the spec's components (a copy per component would grow with their square). Any other reference
 * within the spec is copied in place. From an OpenAPI 3.1 document they are JSON Schema 2020-12
 * (and say so in `$schema`); from a 3.0 document they are OpenAPI 3.0 Schema Objects.
 */
export function emitJsonSchemas({ model, document }: EmitInput): GeneratedFile[] {
  const dialect = model.source.openapiVersion === "3.1" ? { $schema: DIALECT } : {};
  const defs = Object.fromEntries(model.schemas.map((schema) => [schema.name, rewrite(component(document, schema.name), document)]));
  const shared = new CodeRef("$defs");
  const documents = Object.fromEntries(model.schemas.map((schema) => [schema.name, { ...dialect, $ref: appendPointer("#/$defs", schema.name), $defs: shared }]));
  const content = [
    "/** Every component schema, once, with its references to other components pointing within these `$defs`. */",
    `const $defs = ${toCodeLiteral(defs)} as const;`,
    "",
    "/**",
    " * Every component schema of the spec as a self-contained JSON Schema document, by its name",
    " * under components/schemas: a `$ref` to it within the shared `$defs`.",
    " */",
    `export const jsonSchemas = ${toCodeLiteral(documents)} as const;`,
    "",
    "/** The name of a component schema. */",
    "export type JsonSchemaName = keyof typeof jsonSchemas;",
    "",
  ].join("\n");
  return [{ path: "json-schemas.ts", content }];
}

function component(document: unknown, name: string): unknown {
  return resolvePointer(document, appendPointer("#/components/schemas", name));
}

/** A schema whose references to components point into `$defs`; any other local reference is replaced by its target. */
function rewrite(node: unknown, document: unknown): unknown {
  if (Array.isArray(node)) return node.map((item) => rewrite(item, document));
  if (node === null || typeof node !== "object") return node;
  const { $ref: ref, ...rest } = node as Record<string, unknown>;
  const members = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, rewrite(value, document)]));
  if (typeof ref !== "string" || !ref.startsWith("#")) return ref === undefined ? members : { $ref: ref, ...members };
  if (!ref.startsWith(COMPONENTS)) return { ...(rewrite(resolvePointer(document, ref), document) as object), ...members };
  return { $ref: appendPointer("#/$defs", ...pointerSegments(ref).slice(2)), ...members };
}
