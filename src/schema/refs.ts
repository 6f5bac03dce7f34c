import { isRecord, type JsonObject } from "../json-value.js";
import type { SchemaTree } from "./tree.js";

/** A schema, or another object of the document, and its location. */
export interface Located<L, T = JsonObject> {
  readonly node: T;
  readonly location: L;
}

/**
 * Follows a chain of `$ref`s from the value at `location` (`node`) to the first object that is not
 * a reference. A reference the tree cannot follow, or a chain longer than `hops` (a loop), ends
 * it at the object holding that reference; undefined when the chain reaches something that is not
 * an object.
 */
export function followRefs<L>(tree: SchemaTree<L>, node: unknown, location: L, hops = 32): Located<L> | undefined {
  let current = node;
  let at = location;
  for (let hop = 0; isRecord(current); hop++) {
    const ref = current["$ref"];
    const next = typeof ref === "string" && hop < hops ? tree.follow(ref, at, tree.child(at, "$ref")) : undefined;
    if (next === undefined) return { node: current, location: at };
    at = next;
    current = tree.at(next);
  }
  return undefined;
}
