import type { OperationModel } from "../../model/types.js";
import { buildMethodView } from "../client/method-view.js";
import type { EmitInput, GeneratedFile } from "../emitter.js";
import { callConstName } from "../routes/emit-routes.js";
import { hasStreams } from "../routes/route-view.js";
import { wrap } from "../server/emit-server.js";
import { buildInvalidationMap, type Invalidation, isMutation, isQuery } from "./invalidation-map.js";
import { type PagingRule, pagingOf } from "./paging.js";

/** Why a query is invalidated, as its entry's comment says it. */
const REASONS: Readonly<Record<Invalidation["reasons"][number], string>> = {
  path: "the same path",
  collection: "the collection or item it belongs to",
  below: "below the deleted item",
  schema: "answers a schema it writes",
};

/**
 * generated/query/: TanStack Query v5 options, one factory per operation (query options for GET
 * operations, mutation options for the others), with the invalidation map found in the spec
 * (invalidation-map.ts); the runtime's query/ builds the keys and options, the same for every spec.
 */
export function emitQuery({ model, document, config }: EmitInput): GeneratedFile[] {
  const map = buildInvalidationMap(model, document);
  const byName = new Map(model.operations.map((operation) => [operation.names.method, operation]));
  const title = `${model.source.title} (version ${model.source.version})`;
  const gets = model.operations.filter(isQuery);
  const view = {
    fileDoc: wrap(
      `TanStack Query v5 options of ${title}: for each GET (and QUERY) operation its query key and \`{ queryKey, queryFn }\` (and, for one paged by a cursor, offset or page query parameter, infinite query options), for each other operation \`{ mutationKey, mutationFn, onSuccess }\`, whose onSuccess invalidates the queries the spec says it can change. @tanstack/query-core is a peer dependency of this entry point (for its types only).`,
    ),
    root: keyRoot(model.source.title),
    queries: gets.map((operation) => queryView(operation, config.paging)),
    // a key is filled from the call's path parameters only where the path has any, and read from
    // the call's input only where the operation takes one
    fixedKeys: gets.some((operation) => !hasPathParameters(operation) && !takesNoInput(operation)),
    filledKeys: gets.some(hasPathParameters),
    templated: Object.values(map).some((entries) =>
      entries.some((entry) => targetView(byName.get(entry.query)?.path ?? "").templated),
    ),
    paged: model.operations.some((operation) => pagingOf(operation, config.paging) !== undefined),
    // the query and mutation options call through the runtime's; streamed and infinite queries
    // call the client's engine themselves
    callsEngine: gets.some((operation) => hasStreams(operation) || pagingOf(operation, config.paging) !== undefined),
    mutations: model.operations.filter(isMutation).map((operation) => ({
      name: operation.names.method,
      route: routeText(operation),
      routeName: callConstName(operation),
      optionsName: `${operation.names.method}MutationOptions`,
      targets: (map[operation.names.method] ?? []).map((entry) => entry.query),
      targetPaths: (map[operation.names.method] ?? []).map((entry) => targetView(byName.get(entry.query)?.path ?? "")),
      doc: mutationDoc(operation, map[operation.names.method] ?? [], byName),
    })),
  };
  return [config.templates.file("query/index.ts", "query/index.ts", view), ...config.runtime.take("query")];
}

/**
 * An invalidation target: its path, written `templated(path)` when it has parameters (only such
 * targets bundle the alignment of their parameters with the mutation's), else its segments.
 */
function targetView(path: string): {
  readonly path: string;
  readonly templated: boolean;
  readonly segments: readonly string[];
} {
  return { path, templated: path.includes("{"), segments: segmentsOf(path) };
}

/**
 * A path template's segments, as the runtime splits it for keys (query/runtime.ts): written out
 * in the generated keys of operations that take no input and in invalidation targets.
 */
function segmentsOf(path: string): string[] {
  return (path.split("?")[0] ?? "").split("/").filter((segment) => segment !== "");
}

function queryView(operation: OperationModel, rules: readonly PagingRule[]): object {
  const required =
    operation.requestBody?.required === true ||
    [...operation.parameters.path, ...operation.parameters.query, ...operation.parameters.header].some(
      (parameter) => parameter.required,
    );
  const paging = pagingOf(operation, rules);
  return {
    name: operation.names.method,
    route: routeText(operation),
    routeName: callConstName(operation),
    keyName: `${operation.names.method}QueryKey`,
    segments: segmentsOf(operation.path),
    bare: takesNoInput(operation),
    fixedPath: !hasPathParameters(operation),
    optionsName: `${operation.names.method}QueryOptions`,
    optional: !required,
    ...(hasStreams(operation) ? { stream: { optionsName: `${operation.names.method}StreamOptions` } } : {}),
    ...(paging === undefined
      ? {}
      : { infinite: { ...paging, optionsName: `${operation.names.method}InfiniteQueryOptions` } }),
  };
}

/** Whether an operation takes no input (no parameters, no body): its calls' keys are all the same. */
function takesNoInput(operation: OperationModel): boolean {
  return buildMethodView(operation).noArgs;
}

/** Whether an operation's path has parameters, which its query keys are filled from. */
function hasPathParameters(operation: OperationModel): boolean {
  return operation.path.includes("{");
}

function routeText(operation: OperationModel): string {
  return `${operation.httpMethod} ${operation.path}`;
}

/**
 * "`POST /events` invalidates:" then one line per query and why; queries invalidated only for a
 * schema they answer are counted rather than listed when there are many (a document whose schemas
 * all embed one another).
 */
function mutationDoc(
  operation: OperationModel,
  entries: readonly Invalidation[],
  byName: ReadonlyMap<string, OperationModel>,
): string {
  if (entries.length === 0)
    return `\`${routeText(operation)}\`: no GET operation shares its path or answers a schema it writes.`;
  const bySchemaOnly = entries.filter((entry) => entry.reasons.length === 1 && entry.reasons[0] === "schema");
  const listed =
    bySchemaOnly.length > SCHEMA_ENTRIES_LISTED ? entries.filter((entry) => !bySchemaOnly.includes(entry)) : entries;
  const lines = listed.map((entry) => {
    const query = byName.get(entry.query);
    return `- \`${entry.query}\` (\`${query === undefined ? "" : routeText(query)}\`): ${entry.reasons.map((reason) => REASONS[reason]).join("; ")}`;
  });
  if (listed.length < entries.length)
    lines.push(`- ${bySchemaOnly.length} more queries, each of which answers a schema it writes`);
  return `\`${routeText(operation)}\` invalidates:\n${lines.join("\n")}`;
}

/** Up to this many queries invalidated for a schema alone are listed one by one. */
const SCHEMA_ENTRIES_LISTED = 12;

/** The API's name in keys: the spec's title in lower case, words joined by "-" ("Workforce Scheduling Service API" → "workforce-scheduling-service-api"). */
export function keyRoot(title: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug === "" ? "api" : slug;
}
