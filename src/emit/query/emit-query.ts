import type { OperationModel } from "../../model/types.js";
import type { EmitInput, GeneratedFile } from "../emitter.js";
import { callConstName } from "../routes/emit-routes.js";
import { wrap } from "../server/emit-server.js";
import { buildInvalidationMap, type Invalidation, isMutation } from "./invalidation-map.js";

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
  const view = {
    fileDoc: wrap(
      `TanStack Query v5 options of ${title}: for each GET operation its query key and \`{ queryKey, queryFn }\` (and, for one paged by a cursor, offset or page query parameter, infinite query options), for each other operation \`{ mutationKey, mutationFn, onSuccess }\`, whose onSuccess invalidates the queries the spec says it can change. @tanstack/query-core is a peer dependency of this entry point (for its types only).`,
    ),
    root: keyRoot(model.source.title),
    queries: model.operations
      .filter((operation) => operation.method === "get")
      .map((operation) => queryView(operation)),
    templated: Object.values(map).some((entries) =>
      entries.some((entry) => targetView(byName.get(entry.query)?.path ?? "").templated),
    ),
    paged: model.operations.some((operation) => operation.method === "get" && pagingOf(operation) !== undefined),
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
 * targets bundle the alignment of their parameters with the mutation's).
 */
function targetView(path: string): { readonly path: string; readonly templated: boolean } {
  return { path, templated: path.includes("{") };
}

function queryView(operation: OperationModel): object {
  const required = [...operation.parameters.path, ...operation.parameters.query, ...operation.parameters.header].some(
    (parameter) => parameter.required,
  );
  const paging = pagingOf(operation);
  return {
    name: operation.names.method,
    route: routeText(operation),
    routeName: callConstName(operation),
    keyName: `${operation.names.method}QueryKey`,
    optionsName: `${operation.names.method}QueryOptions`,
    optional: !required,
    ...(paging === undefined
      ? {}
      : { infinite: { ...paging, optionsName: `${operation.names.method}InfiniteQueryOptions` } }),
  };
}

/**
 * The query parameters that page a collection, by kind, in the order they are looked for: a
 * cursor (the token of the next page), an offset (with a limit), a page number (with a page size).
 */
const PAGING_PARAMETERS: readonly { readonly by: string; readonly names: readonly string[] }[] = [
  { by: "cursor", names: ["cursor", "page_token", "pageToken", "next_token", "nextToken", "starting_after", "after"] },
  { by: "offset", names: ["offset", "skip"] },
  { by: "page number", names: ["page", "page_number", "pageNumber"] },
];

/** How a GET operation pages, when one of its optional query parameters is a paging one. */
function pagingOf(operation: OperationModel): { parameter: string; by: string } | undefined {
  const optional = new Set(operation.parameters.query.filter((p) => !p.required).map((p) => p.name));
  for (const { by, names } of PAGING_PARAMETERS) {
    const parameter = names.find((name) => optional.has(name));
    if (parameter !== undefined) return { parameter, by };
  }
  return undefined;
}

function routeText(operation: OperationModel): string {
  return `${operation.method.toUpperCase()} ${operation.path}`;
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
