/**
 * Which queries a mutation can have changed, from the model: when a mutation (any operation that
 * is not GET, HEAD, OPTIONS or TRACE) succeeds, these GET operations are invalidated.
 *
 * - "path": the GET on the mutation's own path (`POST /events` → `GET /events`).
 * - "collection": the GET on the collection an item path belongs to (`PATCH /events/{id}` →
 *   `GET /events`), and for a path below an item (`POST /bookings/{id}/payment`) the GET on that
 *   item (`GET /bookings/{id}`) and on its collection (`GET /bookings`).
 * - "below": a DELETE of an item invalidates the GETs under it (`DELETE /a/{id}` → `GET /a/{id}/b`).
 * - "schema": a GET whose success answer holds a named schema the mutation writes: one its request
 *   body or its success answer is made of (through `$ref`, `allOf`, `anyOf`, `oneOf` and array
 *   items, not through properties), found anywhere in the GET's answer (properties included).
 */
import { resolvePointer } from "../../json-pointer.js";
import { isRecord } from "../../json-value.js";
import type { ApiModel, OperationModel } from "../../model/types.js";

/** Why a query is invalidated by a mutation. */
export type InvalidationReason = "path" | "collection" | "below" | "schema";

/** A query a mutation invalidates, and why. */
export interface Invalidation {
  /** the query's method name (its key in the route table) */
  readonly query: string;
  readonly reasons: readonly InvalidationReason[];
}

/** Mutations by method name, each with the queries it invalidates (sorted by name). */
export type InvalidationMap = Readonly<Record<string, readonly Invalidation[]>>;

const READS = new Set(["get", "head", "options", "trace", "query"]);
const COMPONENT_PREFIX = "#/components/schemas/";

/**
 * Whether an operation is read with query options: a GET, or a QUERY (OpenAPI 3.2: a safe,
 * idempotent read whose input is a body, which its key holds).
 */
export function isQuery(operation: OperationModel): boolean {
  return operation.method === "get" || operation.method === "query";
}

/** Whether an operation changes data (and so invalidates queries) rather than reads it. */
export function isMutation(operation: OperationModel): boolean {
  return !READS.has(operation.method);
}

/** The invalidation map of a model, whose schema pointers point into `document`. */
export function buildInvalidationMap(model: ApiModel, document: unknown): InvalidationMap {
  const graph = new SchemaGraph(document);
  // each query's path segments and the schemas it reads, found once for every mutation
  const queries = model.operations.filter(isQuery).map((query) => ({
    name: query.names.method,
    segments: segmentsOf(query.path),
    read: graph.reachable(successPointers(query)),
  }));
  const map: Record<string, readonly Invalidation[]> = {};
  for (const mutation of model.operations.filter(isMutation)) {
    const own = { method: mutation.method, segments: segmentsOf(mutation.path) };
    const collections = collectionPaths(own.segments);
    const written = [...writtenSchemas(document, mutation)];
    const found = queries.map((query) => ({
      query: query.name,
      reasons: reasonsFor(own, collections, written, query),
    }));
    map[mutation.names.method] = found
      .filter((entry) => entry.reasons.length > 0)
      .sort((a, b) => a.query.localeCompare(b.query));
  }
  return map;
}

function reasonsFor(
  mutation: { readonly method: string; readonly segments: readonly string[] },
  collections: readonly (readonly string[])[],
  written: readonly string[],
  query: { readonly segments: readonly string[]; readonly read: ReadonlySet<string> },
): InvalidationReason[] {
  const reasons: InvalidationReason[] = [];
  const own = mutation.segments;
  const target = query.segments;
  if (samePath(own, target)) reasons.push("path");
  if (collections.some((path) => samePath(path, target))) reasons.push("collection");
  if (
    mutation.method === "delete" &&
    isParameter(own.at(-1)) &&
    target.length > own.length &&
    samePath(own, target.slice(0, own.length))
  )
    reasons.push("below");
  if (written.some((name) => query.read.has(name))) reasons.push("schema");
  return reasons;
}

/** A path template's segments, without a query written into it. */
export function segmentsOf(path: string): string[] {
  return (path.split("?")[0] ?? "").split("/").filter((segment) => segment !== "");
}

function isParameter(segment: string | undefined): boolean {
  return segment !== undefined && /^\{[^}]*\}$/.test(segment);
}

/** Two templates are the same path when their literal segments agree and their parameters sit at the same places. */
function samePath(a: readonly string[], b: readonly string[]): boolean {
  return (
    a.length === b.length && a.every((segment, i) => segment === b[i] || (isParameter(segment) && isParameter(b[i])))
  );
}

/**
 * The collection of an item path (`/events/{id}` → `/events`); for a path below an item, that item
 * and its collection (`/bookings/{id}/payment` → `/bookings/{id}`, `/bookings`).
 */
function collectionPaths(segments: readonly string[]): (readonly string[])[] {
  if (isParameter(segments.at(-1))) return [segments.slice(0, -1)];
  for (let end = segments.length - 1; end > 0; end--) {
    if (isParameter(segments[end - 1])) return [segments.slice(0, end), segments.slice(0, end - 1)];
  }
  return [];
}

/** The pointers of the JSON schemas of an operation's success answers. */
function successPointers(operation: OperationModel): string[] {
  return operation.responses
    .filter((response) => response.success)
    .flatMap((response) => schemaPointersOf(response.contents));
}

function schemaPointersOf(contents: readonly { readonly kind: string; readonly schemaPointer?: string }[]): string[] {
  return contents
    .filter((content) => content.schemaPointer !== undefined)
    .map((content) => content.schemaPointer as string);
}

/** The named schemas a mutation writes: what its request body and success answers are made of. */
function writtenSchemas(document: unknown, mutation: OperationModel): Set<string> {
  const pointers = [...schemaPointersOf(mutation.requestBody?.contents ?? []), ...successPointers(mutation)];
  const names = new Set<string>();
  for (const pointer of pointers) collectMadeOf(document, resolvePointer(document, pointer), names);
  return names;
}

/** Named schemas a schema is made of: its $ref, and those of its allOf/anyOf/oneOf branches and array items. */
function collectMadeOf(document: unknown, schema: unknown, names: Set<string>): void {
  if (!isRecord(schema)) return;
  const name = componentName(schema.$ref);
  if (name !== undefined) {
    if (names.has(name)) return;
    names.add(name);
    collectMadeOf(document, resolvePointer(document, schema.$ref as string), names);
  }
  for (const keyword of ["allOf", "anyOf", "oneOf"])
    for (const branch of asList(schema[keyword])) collectMadeOf(document, branch, names);
  collectMadeOf(document, schema.items, names);
}

/** The named schemas of a document and the ones each refers to, read once; what a schema reaches, through any keyword. */
class SchemaGraph {
  readonly #document: unknown;
  readonly #refs = new Map<string, ReadonlySet<string>>();

  constructor(document: unknown) {
    this.#document = document;
  }

  /** Every named schema reachable from the schemas at `pointers`. */
  reachable(pointers: readonly string[]): Set<string> {
    const names = new Set<string>();
    const pending = pointers.flatMap((pointer) => [...directRefs(resolvePointer(this.#document, pointer))]);
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      if (names.has(name)) continue;
      names.add(name);
      for (const next of this.#refsOf(name)) if (!names.has(next)) pending.push(next);
    }
    return names;
  }

  #refsOf(name: string): ReadonlySet<string> {
    let refs = this.#refs.get(name);
    if (refs === undefined) {
      refs = directRefs(resolvePointer(this.#document, `${COMPONENT_PREFIX}${name}`));
      this.#refs.set(name, refs);
    }
    return refs;
  }
}

/** The named schemas a schema refers to itself (not through the ones it refers to). */
function directRefs(schema: unknown): Set<string> {
  const names = new Set<string>();
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...value);
    if (!isRecord(value)) continue;
    const name = componentName(value.$ref);
    if (name !== undefined) names.add(name);
    for (const [key, child] of Object.entries(value))
      if (key !== "$ref" && typeof child === "object") pending.push(child);
  }
  return names;
}

function componentName(ref: unknown): string | undefined {
  return typeof ref === "string" && ref.startsWith(COMPONENT_PREFIX) ? ref.slice(COMPONENT_PREFIX.length) : undefined;
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
