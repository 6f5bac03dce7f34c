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
 * One operation of a Path Item: under a method field of its own (`get`), or under
 * `additionalOperations` (OpenAPI 3.2) by the method as the document writes it (`PURGE`).
 */
export interface PathItemOperation {
  /** the method as the model names it: the field ("get") or the `additionalOperations` key ("PURGE") */
  readonly method: string;
  /** the method as a request sends it: "GET", "PURGE" */
  readonly httpMethod: string;
  /** where the operation stands in the Path Item: ["get"] or ["additionalOperations", "PURGE"] */
  readonly segments: readonly [string] | readonly ["additionalOperations", string];
  readonly operation: Record<string, unknown>;
}

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

/**
 * The operations of a Path Item: those of its method fields, in OpenAPI's order, then those of its
 * `additionalOperations`, in the document's.
 */
export function pathItemOperations(pathItem: Record<string, unknown> | undefined): PathItemOperation[] {
  if (pathItem === undefined) return [];
  const fixed = PATH_ITEM_METHODS.flatMap((method): PathItemOperation[] => {
    const operation = pathItem[method];
    return isRecord(operation) ? [{ method, httpMethod: method.toUpperCase(), segments: [method], operation }] : [];
  });
  const additional = isRecord(pathItem.additionalOperations) ? pathItem.additionalOperations : {};
  const more = Object.entries(additional).flatMap(([method, operation]): PathItemOperation[] =>
    isRecord(operation) ? [{ method, httpMethod: method, segments: ["additionalOperations", method], operation }] : [],
  );
  return [...fixed, ...more];
}

/** Takes one operation out of a Path Item (an `additionalOperations` left empty goes with it). */
export function removeOperation(pathItem: Record<string, unknown>, segments: PathItemOperation["segments"]): void {
  const [field, method] = segments;
  if (method === undefined) {
    delete pathItem[field];
    return;
  }
  const additional = pathItem.additionalOperations;
  if (!isRecord(additional)) return;
  delete additional[method];
  if (Object.keys(additional).length === 0) delete pathItem.additionalOperations;
}
