import { documentRefs } from "../compiler/index.js";
import { appendPointer, resolvePointer } from "../json-pointer.js";
import type { OpenApiVersion } from "../schema/dialect.js";

/** A local `$ref` ("#/...") whose target does not exist, and where the $ref stands. */
export interface BrokenRef {
  readonly ref: string;
  readonly at: string;
  /**
   * The schema whose `$id` the `$ref` resolves against (its pointer and `$id`), when the pointer
   * would have found its target in the document without that `$id`.
   */
  readonly underId?: { readonly at: string; readonly id: string };
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
export function findBrokenLocalRefs(document: unknown, version: OpenApiVersion = "3.0"): BrokenRef[] {
  const refs = documentRefs(document, version);
  return allRefs(document)
    .filter(
      ({ ref, holder, node }) => ref.startsWith("#") && !isAnchor(ref) && refs.target(ref, holder, node) === undefined,
    )
    .map(({ ref, holder }) => {
      const at = `#${appendPointer(holder, "$ref")}`;
      const underId = resolvePointer(document, ref) === undefined ? undefined : refs.enclosingId(holder);
      return underId === undefined ? { ref, at } : { ref, at, underId: { at: `#${underId.at}`, id: underId.id } };
    })
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
export function hasExternalRefs(document: unknown, version: OpenApiVersion = "3.0"): boolean {
  const external = allRefs(document).filter(({ ref }) => !ref.startsWith("#"));
  if (external.length === 0) return false;
  const refs = documentRefs(document, version);
  return external.some(({ ref, holder, node }) => refs.target(ref, holder, node) === undefined);
}

/** The maps of `components`: each must be written out in the document, never given as a `$ref`. */
const COMPONENT_MAPS = [
  "schemas",
  "responses",
  "parameters",
  "examples",
  "requestBodies",
  "headers",
  "securitySchemes",
  "links",
  "callbacks",
  "pathItems",
] as const;

/** A `components` map given as a `$ref` (a bundler's habit), by its pointer and the map's name. */
export interface MisplacedComponentsRef {
  readonly at: string;
  readonly map: string;
}

/**
 * The maps of `components` given as a `$ref` (`schemas: {$ref: ./schemas.yaml}`): OpenAPI allows
 * no Reference Object there, in 3.0 as in 3.1. Found before anything else reads the document, since
 * every later stage would misread the map (3.0's schema accepts it, and the `$ref` would become a
 * schema named `$ref`), and reported once each, never behind errors that follow from them.
 */
export function findMisplacedComponentsRefs(document: unknown): MisplacedComponentsRef[] {
  const components = (document as { components?: unknown } | null)?.components;
  if (components === null || typeof components !== "object") return [];
  return COMPONENT_MAPS.filter((map) => {
    const value = (components as Record<string, unknown>)[map];
    return value !== null && typeof value === "object" && typeof (value as { $ref?: unknown }).$ref === "string";
  }).map((map) => ({ at: `#/components/${map}`, map }));
}
