import { appendPointer, resolvePointer } from "../json-pointer.js";

/** A local `$ref` ("#/...") whose target does not exist, and where the $ref stands. */
export interface BrokenRef {
  readonly ref: string;
  readonly at: string;
}

/** A node to visit: where it stands, and the schema a `#/...` reference inside it resolves against. */
interface Visit {
  readonly node: unknown;
  readonly at: string;
  /** the nearest enclosing schema with `$id` (3.1), or the document */
  readonly scope: unknown;
  /** the URIs of the `$id`s it stands in, innermost first (for references to them) */
  readonly bases: readonly string[];
}

/**
 * Finds every local $ref that does not resolve, before swagger-parser runs: it stops at the first
 * one, while the user wants them all, each with the pointer of the $ref itself. In OpenAPI 3.1
 * (`scoped`), a `#/...` reference inside a schema with `$id` resolves against that schema, as
 * JSON Schema 2020-12 says, not against the document.
 */
export function findBrokenLocalRefs(document: unknown, scoped = false): BrokenRef[] {
  const broken: BrokenRef[] = [];
  walk(document, scoped, ({ node, at, scope }) => {
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === "string" && ref.startsWith("#") && resolvePointer(scope, ref) === undefined && !isAnchor(ref)) {
      broken.push({ ref, at: appendPointer(at, "$ref") });
    }
  });
  return broken.sort((a, b) => a.at.localeCompare(b.at));
}

/** "#name" refers to a $anchor, not a pointer; the schema compiler resolves those. */
function isAnchor(ref: string): boolean {
  return ref.length > 1 && !ref.startsWith("#/");
}

/**
 * Whether any $ref points outside the document (another file or URL). In 3.1 a reference that
 * resolves against an enclosing `$id` to the `$id` of a schema of the document stays inside it.
 */
export function hasExternalRefs(document: unknown, scoped = false): boolean {
  const ids = new Set<string>();
  const refs: { ref: string; bases: readonly string[] }[] = [];
  walk(document, scoped, ({ node, bases }) => {
    const { $ref: ref, $id: id } = node as { $ref?: unknown; $id?: unknown };
    if (scoped && typeof id === "string" && bases[0] !== undefined) ids.add(bases[0]);
    if (typeof ref === "string" && !ref.startsWith("#")) refs.push({ ref, bases });
  });
  return refs.some(({ ref, bases }) => {
    const target = resolveUri(ref, bases[0]);
    return target === undefined || !ids.has(target.split("#")[0] ?? "");
  });
}

/** Visits every object of the document, depth first, with its scope. */
function walk(document: unknown, scoped: boolean, visit: (entry: Visit) => void): void {
  const stack: Visit[] = [{ node: document, at: "#", scope: document, bases: [] }];
  while (stack.length > 0) {
    const entry = stack.pop() as Visit;
    const { node, at } = entry;
    if (node === null || typeof node !== "object") continue;
    const id = (node as { $id?: unknown }).$id;
    const opens = scoped && typeof id === "string" && !Array.isArray(node);
    const base = opens ? resolveUri(id, entry.bases[0]) : undefined;
    const here: Visit = opens ? { node, at, scope: node, bases: base === undefined ? entry.bases : [base, ...entry.bases] } : entry;
    visit(here);
    for (const [key, child] of Object.entries(node)) stack.push({ node: child, at: appendPointer(at, key), scope: here.scope, bases: here.bases });
  }
}

/** An absolute URI without its fragment, resolved against `base`; undefined when it is not one. */
function resolveUri(ref: string, base: string | undefined): string | undefined {
  try {
    return new URL(ref, base).href.split("#")[0];
  } catch {
    return undefined;
  }
}
