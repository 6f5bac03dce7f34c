import { resolvePointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";

/**
 * The methods a Path Item Object holds an operation under by a field of its own, in the order
 * OpenAPI lists them (`query` since 3.2; the methods of `additionalOperations` are not among them).
 */
export const PATH_ITEM_METHODS = [
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
  "query",
] as const;

/** One of them. */
export type PathItemMethod = (typeof PATH_ITEM_METHODS)[number];

/**
 * The Path Item a `paths` entry stands for: the entry itself, or what its local `$ref` (followed
 * through further ones) leads to; undefined when a reference leaves the document or goes nowhere.
 */
export function resolvePathItem(document: unknown, item: unknown): Record<string, unknown> | undefined {
  const seen = new Set<unknown>();
  let node = item;
  while (isRecord(node) && typeof node.$ref === "string" && !seen.has(node)) {
    seen.add(node);
    if (!node.$ref.startsWith("#")) return undefined;
    node = resolvePointer(document, node.$ref);
  }
  return isRecord(node) ? node : undefined;
}

/** The methods a Path Item holds an operation under. */
export function pathItemMethods(pathItem: Record<string, unknown> | undefined): PathItemMethod[] {
  return pathItem === undefined ? [] : PATH_ITEM_METHODS.filter((method) => isRecord(pathItem[method]));
}
