import { dialectRules, type OpenApiVersion, openApiDialect } from "../../schema/dialect.js";
import { indexDocument } from "./indexer.js";
import { SchemaRegistry } from "./registry.js";
import { DEFAULT_BASE_URI } from "./uri.js";

/**
 * Where the `$ref`s of an OpenAPI document lead, as the schema compiler resolves them: against the
 * enclosing `$id` in OpenAPI 3.1 (3.0 has none), to `$anchor`s, and to pointers. For the stages
 * that read references before or beside the compiler (the loader's checks, the types' document), so
 * that there is one reading of them.
 */
export interface DocumentRefs {
  /**
   * The JSON pointer (`/components/schemas/Event/$defs/Kind`) that the `$ref` held by the object at
   * `holder` (a JSON pointer) leads to in this document; undefined when it leads nowhere in it (a
   * missing target, another file, a URL).
   */
  target(ref: string, holder: string, holderValue: unknown): string | undefined;
  /**
   * The schema whose `$id` a `$ref` held at `holder` resolves against (its pointer, and the `$id`
   * as written); undefined when the `$ref` resolves against the document.
   */
  enclosingId(holder: string): { readonly at: string; readonly id: string } | undefined;
}

export function documentRefs(document: unknown, version: OpenApiVersion): DocumentRefs {
  const registry = new SchemaRegistry(dialectRules(openApiDialect(version)));
  const doc = registry.addDocument({
    root: document,
    retrievalUri: DEFAULT_BASE_URI,
    label: "",
    openApi: true,
    addressable: true,
  });
  try {
    indexDocument(registry, doc);
  } catch {
    // a duplicate $id: the validators report it; references then resolve as far as the index got
  }
  return {
    target(ref, holder, holderValue) {
      const at = { doc, ptr: holder };
      try {
        const location = registry.resolveRef(ref, registry.baseWithin(holderValue, registry.baseOf(at)), at);
        return location.doc === doc ? location.ptr : undefined;
      } catch {
        return undefined;
      }
    },
    enclosingId(holder) {
      const at = registry.idHolder({ doc, ptr: holder });
      if (at === undefined) return undefined;
      const schema = registry.schemaAt(at) as Record<string, unknown>;
      return { at: at.ptr, id: String(schema["$id"]) };
    },
  };
}
