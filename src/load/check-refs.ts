import { documentRefs } from "../compiler/registry/document-refs.js";
import { appendPointer } from "../json-pointer.js";

/** A local `$ref` ("#/...") whose target does not exist, and where the $ref stands. */
export interface BrokenRef {
  readonly ref: string;
  readonly at: string;
}

/** Every `$ref` of the document: its value, the pointer of the object holding it, and that object. */
function allRefs(document: unknown): { ref: string; holder: string; node: object }[] {
  const refs: { ref: string; holder: string; node: object }[] = [];
  const stack: [unknown, string][] = [[document, ""]];
  while (stack.length > 0) {
    const [node, at] = stack.pop() as [unknown, string];
    if (node === null || typeof node !== "object") continue;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === "string") refs.push({ ref, holder: at, node });
    for (const [key, child] of Object.entries(node)) stack.push([child, appendPointer(at, key)]);
  }
  return refs;
}

/**
 * Finds every local $ref that does not resolve, before swagger-parser runs: it stops at the first
 * one, while the user wants them all, each with the pointer of the $ref itself. References resolve
 * as the schema compiler resolves them: in OpenAPI 3.1 a `#/...` reference inside a schema with
 * `$id` resolves against that schema, as JSON Schema 2020-12 says, not against the document.
 */
export function findBrokenLocalRefs(document: unknown, version: "3.0" | "3.1" = "3.0"): BrokenRef[] {
  const refs = documentRefs(document, version);
  return allRefs(document)
    .filter(
      ({ ref, holder, node }) => ref.startsWith("#") && !isAnchor(ref) && refs.target(ref, holder, node) === undefined,
    )
    .map(({ ref, holder }) => ({ ref, at: `#${appendPointer(holder, "$ref")}` }))
    .sort((a, b) => a.at.localeCompare(b.at));
}

/** "#name" refers to a $anchor, not a pointer; the schema compiler resolves those. */
function isAnchor(ref: string): boolean {
  return ref.length > 1 && !ref.startsWith("#/");
}

/**
 * Whether any $ref points outside the document (another file or URL). In 3.1 a reference that
 * resolves against an enclosing `$id` to the `$id` of a schema of the document stays inside it.
 */
export function hasExternalRefs(document: unknown, version: "3.0" | "3.1" = "3.0"): boolean {
  const external = allRefs(document).filter(({ ref }) => !ref.startsWith("#"));
  if (external.length === 0) return false;
  const refs = documentRefs(document, version);
  return external.some(({ ref, holder, node }) => refs.target(ref, holder, node) === undefined);
}
