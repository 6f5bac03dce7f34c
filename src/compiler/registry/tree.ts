import type { SchemaTree } from "../../schema/tree.js";
import { SchemaCompileError } from "./errors.js";
import { childLocation, locationKey, type SchemaLocation } from "./location.js";

/** What the tree reads of the registry (registry.ts's SchemaRegistry passes itself), named here so neither imports the other. */
export interface TreeSource {
  schemaAt(location: SchemaLocation): unknown;
  resolveRef(ref: string, base: string, at: SchemaLocation): SchemaLocation;
  baseWithin(schema: unknown, base: string): string;
  baseOf(location: SchemaLocation): string;
  pointer(location: SchemaLocation): string;
}

/**
 * The registry's schemas as the OpenAPI schema rules read them (src/schema/): a `$ref` resolves
 * against the base URI where it is (`$id`s applied), and one that does not resolve is a compile
 * error.
 */
export function registryTree(registry: TreeSource): SchemaTree<SchemaLocation> {
  return {
    at: (location) => registry.schemaAt(location),
    child: (location, ...tokens) => childLocation(location, ...tokens),
    follow: (ref, holder, where) =>
      registry.resolveRef(ref, registry.baseWithin(registry.schemaAt(holder), registry.baseOf(holder)), where),
    key: locationKey,
    pointer: (location) => location.ptr,
    fail: (location, message) => {
      throw new SchemaCompileError(registry.pointer(location), message);
    },
  };
}
