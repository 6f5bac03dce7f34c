import { appendPointer, resolvePointer } from "../json-pointer.js";

/** A local `$ref` ("#/...") whose target does not exist, and where the $ref stands. */
export interface BrokenRef {
  readonly ref: string;
  readonly at: string;
}

/**
 * Finds every local $ref that does not resolve, before swagger-parser runs: it stops at the first
 * one, while the user wants them all, each with the pointer of the $ref itself.
 */
export function findBrokenLocalRefs(document: unknown): BrokenRef[] {
  const broken: BrokenRef[] = [];
  const stack: [unknown, string][] = [[document, "#"]];
  while (stack.length > 0) {
    const [node, at] = stack.pop() as [unknown, string];
    if (node === null || typeof node !== "object") continue;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === "string" && ref.startsWith("#") && resolvePointer(document, ref) === undefined && !isAnchor(ref)) {
      broken.push({ ref, at: appendPointer(at, "$ref") });
    }
    for (const [key, child] of Object.entries(node)) stack.push([child, appendPointer(at, key)]);
  }
  return broken.sort((a, b) => a.at.localeCompare(b.at));
}

/** "#name" refers to a $anchor, not a pointer; the schema compiler resolves those. */
function isAnchor(ref: string): boolean {
  return ref.length > 1 && !ref.startsWith("#/");
}

/** Whether any $ref points outside the document (another file or URL). */
export function hasExternalRefs(document: unknown): boolean {
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === "string" && !ref.startsWith("#")) return true;
    for (const child of Object.values(node)) stack.push(child);
  }
  return false;
}
