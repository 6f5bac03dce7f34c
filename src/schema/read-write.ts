import { isRecord } from "../json-value.js";
import type { SchemaTree } from "./tree.js";

/** OpenAPI's markers of a property that only one direction carries. */
export type ReadWriteMarker = "readOnly" | "writeOnly";

/**
 * The marker that keeps a property out of data going this way: readOnly out of requests,
 * writeOnly out of responses; none for data going neither way.
 */
export function markerLeftOut(direction: "request" | "response"): ReadWriteMarker;
export function markerLeftOut(direction: string): ReadWriteMarker | undefined;
export function markerLeftOut(direction: string): ReadWriteMarker | undefined {
  if (direction === "request") return "readOnly";
  if (direction === "response") return "writeOnly";
  return undefined;
}

/**
 * Whether the schema at `location` is marked (readOnly/writeOnly) itself, through `$ref`s, or in
 * one of its allOf parts: a required property so marked is required in one direction only, and
 * left out of the other.
 */
export function isMarked<L>(tree: SchemaTree<L>, location: L, marker: ReadWriteMarker, depth = 0): boolean {
  const schema = tree.at(location);
  if (!isRecord(schema) || depth > 16) return false;
  if (schema[marker] === true) return true;
  const ref = schema["$ref"];
  if (typeof ref === "string") {
    const target = tree.follow(ref, location, tree.child(location, "$ref"));
    if (target !== undefined && isMarked(tree, target, marker, depth + 1)) return true;
  }
  const parts = Array.isArray(schema["allOf"]) ? schema["allOf"] : [];
  return parts.some((_part, index) => isMarked(tree, tree.child(location, "allOf", index), marker, depth + 1));
}
