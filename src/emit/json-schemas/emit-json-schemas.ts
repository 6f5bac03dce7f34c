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
 * the spec's components (a copy per component would grow with their square). A schema of the spec
 * outside the components that a reference targets is written once too, under `$defs` keyed by its
 * pointer (`paths/~1tree/get/...`, a key no component name can have), so references to it, even
 * recursive ones, stay references. References that do not resolve against the document's root are
 * kept as written: to an `$anchor`, or inside a schema with `$id` (they resolve within the copied
 * schema as they did in the spec). From an OpenAPI 3.1 document they are JSON Schema 2020-12 (and
 * say so in `$schema`); from a 3.0 document they are OpenAPI 3.0 Schema Objects.
 */
export function emitJsonSchemas({ model, document }: EmitInput): GeneratedFile[] {
  const jsonSchema = model.source.openapiVersion !== "3.0";
  const dialect = jsonSchema ? { $schema: DIALECT } : {};
  const rewriter = new Rewriter(document, jsonSchema);
  const defs: Record<string, unknown> = Object.fromEntries(
    model.schemas.map((schema) => [schema.name, rewriter.rewrite(component(document, schema.name), false)]),
  );
  for (const [key, value] of rewriter.others()) defs[key] = value;
  const shared = new CodeRef("$defs");
  const documents = Object.fromEntries(
    model.schemas.map((schema) => [
      schema.name,
      { ...dialect, $ref: appendPointer("#/$defs", schema.name), $defs: shared },
    ]),
  );
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

/**
 * Rewrites schemas for `$defs`: references to components point into `$defs`, references to other
 * schemas of the document to their own `$defs` entry (written once, when first met), the rest stay.
 */
class Rewriter {
  readonly #document: unknown;
  /** whether `$id` opens a new base for references (JSON Schema 2020-12, OpenAPI 3.1) */
  readonly #scoped: boolean;
  readonly #others = new Map<string, unknown>();

  constructor(document: unknown, scoped: boolean) {
    this.#document = document;
    this.#scoped = scoped;
  }

  /** The `$defs` entries of the schemas outside the components, by key. */
  others(): [string, unknown][] {
    return [...this.#others].sort(([a], [b]) => a.localeCompare(b));
  }

  /** A copy of `node`; `inResource` when it lies inside a schema with `$id`. */
  rewrite(node: unknown, inResource: boolean): unknown {
    if (Array.isArray(node)) return node.map((item) => this.rewrite(item, inResource));
    if (node === null || typeof node !== "object") return node;
    const scoped = inResource || (this.#scoped && typeof (node as Record<string, unknown>)["$id"] === "string");
    const { $ref: ref, ...rest } = node as Record<string, unknown>;
    const members = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, this.rewrite(value, scoped)]));
    if (typeof ref !== "string" || !ref.startsWith("#/") || scoped)
      return ref === undefined ? members : { $ref: ref, ...members };
    if (ref.startsWith(COMPONENTS))
      return { $ref: appendPointer("#/$defs", ...pointerSegments(ref).slice(2)), ...members };
    return { $ref: appendPointer("#/$defs", this.#other(ref)), ...members };
  }

  /** The `$defs` key of a schema outside the components, written when first met. */
  #other(ref: string): string {
    const key = pointerSegments(ref)
      .map((segment) => segment.replace(/~/g, "~0").replace(/\//g, "~1"))
      .join("/");
    if (!this.#others.has(key)) {
      this.#others.set(key, true);
      this.#others.set(key, this.rewrite(resolvePointer(this.#document, ref), false));
    }
    return key;
  }
}
