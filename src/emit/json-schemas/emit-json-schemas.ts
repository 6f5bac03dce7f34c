import { appendPointer, pointerSegments, resolvePointer } from "../../json-pointer.js";
import type { EmitInput, GeneratedFile } from "../emitter.js";
import { toCodeLiteral } from "../literal.js";

const COMPONENTS = "#/components/schemas/";
const DIALECT = "https://json-schema.org/draft/2020-12/schema";

/**
 * generated/json-schemas.ts: each component schema as a self-contained JSON Schema document, for
 * tools that want the schema itself rather than a validator. A component's `$ref`s to other
 * components point into its own `$defs` (which holds every component it reaches), a `$ref` to
 * itself points to its root, and any other reference within the document is copied in place.
 * From an OpenAPI 3.1 document they are JSON Schema 2020-12 (and say so in `$schema`); from a
 * 3.0 document they are OpenAPI 3.0 Schema Objects.
 */
export function emitJsonSchemas({ model, document }: EmitInput): GeneratedFile[] {
  const dialect = model.source.openapiVersion === "3.1" ? { $schema: DIALECT } : {};
  const schemas = Object.fromEntries(model.schemas.map((schema) => [schema.name, standalone(document, schema.name, dialect)]));
  const doc = [
    "/**",
    " * Every component schema of the spec as a self-contained JSON Schema document, by its name",
    " * under components/schemas: references to other components point into its own `$defs`.",
    " */",
  ].join("\n");
  const content = `${doc}\nexport const jsonSchemas = ${toCodeLiteral(schemas)} as const;\n\n/** The name of a component schema. */\nexport type JsonSchemaName = keyof typeof jsonSchemas;\n`;
  return [{ path: "json-schemas.ts", content }];
}

/** One component with the components it reaches under `$defs`, in name order. */
function standalone(document: unknown, name: string, dialect: object): Record<string, unknown> {
  const context: RewriteContext = { document, self: name, reached: new Set() };
  const root = rewrite(component(document, name), context) as Record<string, unknown>;
  const defs = new Map<string, unknown>();
  for (let pending = [...context.reached]; pending.length > 0; pending = [...context.reached].filter((other) => !defs.has(other))) {
    for (const other of pending) defs.set(other, rewrite(component(document, other), context));
  }
  const $defs = Object.fromEntries([...defs].sort(([a], [b]) => a.localeCompare(b)));
  return { ...dialect, ...root, ...(defs.size > 0 ? { $defs } : {}) };
}

function component(document: unknown, name: string): unknown {
  return resolvePointer(document, appendPointer("#/components/schemas", name));
}

/** What rewriting one schema needs: the document, the component at the root, and every component reached so far. */
interface RewriteContext {
  readonly document: unknown;
  readonly self: string;
  readonly reached: Set<string>;
}

/** A schema with its references retargeted; a reference outside the components is replaced by its target. */
function rewrite(node: unknown, context: RewriteContext): unknown {
  if (Array.isArray(node)) return node.map((item) => rewrite(item, context));
  if (node === null || typeof node !== "object") return node;
  const { $ref: ref, ...rest } = node as Record<string, unknown>;
  const members = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, rewrite(value, context)]));
  if (typeof ref !== "string" || !ref.startsWith("#")) return ref === undefined ? members : { $ref: ref, ...members };
  if (ref.startsWith(COMPONENTS)) return { $ref: retarget(ref, context), ...members };
  return { ...(rewrite(resolvePointer(context.document, ref), context) as object), ...members };
}

/** The new `$ref` of a reference to a component (or into one). */
function retarget(ref: string, context: RewriteContext): string {
  const [name = "", ...rest] = pointerSegments(ref).slice(2);
  const tail = rest.length > 0 ? appendPointer("", ...rest) : "";
  if (name === context.self) return `#${tail}`;
  context.reached.add(name);
  return appendPointer("#/$defs", name) + tail;
}
