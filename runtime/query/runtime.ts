/**
 * TanStack Query options from a route table, the same for every spec. A query key is the API's
 * name, then one element per path segment (a parameter's value as text), then the rest of the
 * input when there is any: `["api", "events"]`, `["api", "events", "7"]`,
 * `["api", "events", { query: { limit: 5 } }]`. A prefix of a key names everything below it, so
 * `invalidateQueries({ queryKey: ["api", "events"] })` reaches every event query. A mutation's key
 * is the name, its path's segments as the spec writes them, and its operation.
 *
 * Nothing here imports TanStack Query: the options are plain objects its functions take. Each
 * function takes the API (its name) and an operation's route, never the whole route table, so a
 * page bundles the routes of the operations it uses.
 */
import { ApiError, UnexpectedError } from "../client/errors.js";
import { byStatus } from "../client/response.js";
import { type BaseClient, type CallArgs, RUNTIME } from "../client/runtime.js";
import type { CallRoute, Route } from "../route-types.js";

/** A query key: the API's name, the path's segments, then the input's query, headers and cookies when given. */
export type QueryKey = readonly unknown[];

/** The input of an operation, as the client's method takes it. */
export type CallInput = CallArgs;

/** What invalidation needs of a QueryClient (TanStack's `QueryClient` has it). */
export interface InvalidatingClient {
  invalidateQueries(filters: {
    queryKey: QueryKey;
    predicate: (query: { readonly queryKey: QueryKey }) => boolean;
  }): Promise<void>;
}

/** The second argument of every `<operation>MutationOptions`, for a mutation with data `D` and variables `V`. */
export interface MutationSettings<D = unknown, V = unknown> {
  /**
   * The QueryClient whose queries a success invalidates. Default: the one the mutation runs in,
   * which TanStack Query hands to `onSuccess` (5.89 and later).
   */
  readonly queryClient?: InvalidatingClient;
  /**
   * Called after a success, once the invalidation is done (a rejection fails the mutation, as
   * TanStack's own `onSuccess` does). Give it here rather than spread over the options: an
   * `onSuccess` spread over them replaces theirs, and the invalidation with it.
   */
  readonly onSuccess?: (data: D, variables: V, onMutateResult: unknown, context: unknown) => unknown;
}

/** The API whose keys and options these are: its name, the first element of every key. */
export interface QueryApi {
  readonly root: string;
}

/** What keys and invalidation need of an operation's route: its path template (and method: a QUERY's body is in its key). */
export type RoutePath = Pick<Route, "path"> & { readonly method?: Route["method"] };

/** A segment of a path template: literal text, or one made of parameters ("{id}", "{name}.{ext}"). */
function segmentsOf(template: string): string[] {
  return (template.split("?")[0] ?? "").split("/").filter((segment) => segment !== "");
}

/** A template segment with its parameters filled in from `path` (undefined when one is not given). */
function fill(segment: string, path: Readonly<Record<string, unknown>> | undefined): string | undefined {
  let missing = false;
  const filled = segment.replace(/\{([^}]*)\}/g, (_match, name: string) => {
    const value = path !== undefined && Object.hasOwn(path, name) ? path[name] : undefined;
    if (value === undefined || value === null) missing = true;
    // an object (a label or matrix parameter's, say) by its members, not as "[object Object]"
    return typeof value === "object" && value !== null && !Array.isArray(value) ? JSON.stringify(value) : String(value);
  });
  return missing ? undefined : filled;
}

/** The query key of a call of the operation of `route` with `input`. */
export function queryKeyOf(api: QueryApi, route: RoutePath, input: CallInput | undefined): QueryKey {
  return keyOf(
    api,
    segmentsOf(route.path).map((segment) => fill(segment, input?.path) ?? segment),
    input,
    route.method === "QUERY",
  );
}

/**
 * The query key of a call of an operation whose path has no parameters: `queryKeyOf`'s, its
 * segments as written (the generated options of such an operation call this one, so a page whose
 * queries have no path parameters bundles no filling of them).
 */
export function fixedQueryKeyOf(api: QueryApi, route: RoutePath, input: CallInput | undefined): QueryKey {
  return keyOf(api, segmentsOf(route.path), input, route.method === "QUERY");
}

/**
 * The query key of a call of an operation that takes no input (no parameters, no body): the API's
 * name and its path's segments, `queryKeyOf`'s for such a call (the generated options of such an
 * operation write this key as it is, so a page whose queries take no input bundles no reading of
 * one, nor the splitting of a path).
 */
export function bareQueryKeyOf(api: QueryApi, route: RoutePath): QueryKey {
  return [api.root, ...segmentsOf(route.path)];
}

/** The key of the path's `segments`, then the rest of the input when there is any. */
function keyOf(api: QueryApi, segments: readonly string[], input: CallInput | undefined, body = false): QueryKey {
  const rest: Record<string, unknown> = {};
  if (input?.query !== undefined) rest.query = input.query;
  if (input?.headers !== undefined) rest.headers = input.headers;
  if (input?.cookies !== undefined) rest.cookies = input.cookies;
  // a QUERY operation's input is its body
  if (body && input?.body !== undefined) rest.body = input.body;
  return Object.keys(rest).length === 0 ? [api.root, ...segments] : [api.root, ...segments, rest];
}

/** The mutation key of `operation`: the API's name, its path's segments as written, the operation. */
export function mutationKeyOf(api: QueryApi, operation: string, route: RoutePath): QueryKey {
  return [api.root, ...segmentsOf(route.path), operation];
}

/** What a query's error needs of its route: the operation and its declared answers. */
export type RouteAnswers = Pick<CallRoute, "operationId" | "path" | "responses">;

/**
 * `{ queryKey, queryFn }` of a call of `route` with `input` by `client`, its key given
 * (`queryKeyOf`'s); the query's AbortSignal reaches fetch. The query fails with the operation's
 * declared error answers as the client throws them (`ApiError`), and with an `UnexpectedError`
 * for anything else (see `queryError`).
 */
export function queryOptionsOf<D>(
  client: BaseClient,
  route: CallRoute,
  queryKey: QueryKey,
  input: object | undefined,
): { queryKey: QueryKey; queryFn: (context: { readonly signal: AbortSignal }) => Promise<D> } {
  return {
    queryKey,
    queryFn: ({ signal }) =>
      client[RUNTIME].call<D>(route, input, { signal }).catch((error: unknown) => {
        throw queryError(route, error, signal);
      }),
  };
}

/**
 * The error a query or a mutation fails with: an `ApiError` of a status the operation declares
 * (not 2xx) as it is, a query's own cancellation as it is (TanStack Query handles it), and
 * anything else in an `UnexpectedError`, whose `status` is undefined: so the error type the
 * options give TanStack Query (the declared answers, or an `UnexpectedError`) is what a query or a
 * mutation fails with.
 */
export function queryError(route: RouteAnswers, error: unknown, signal?: AbortSignal): unknown {
  // not 2xx (its answer not `ok`), and declared exactly, by class, or as default (read as the
  // call reads an answer's contents)
  return (signal?.aborted && error === signal.reason) ||
    (error instanceof ApiError && !error.response.ok && byStatus(route.responses, error.status) !== undefined)
    ? error
    : new UnexpectedError(route.operationId, error);
}

/**
 * A query a mutation invalidates: the segments of its route's path template (`pathPattern`'s), a
 * parameter's undefined, which matches any value. A template with parameters is given by
 * `templated`, which fills them from the mutation's own where the paths agree. The generated
 * options write a template without parameters as its segments, so a page whose mutations
 * invalidate no template with parameters bundles neither the alignment nor the splitting of a path.
 */
export type InvalidationTarget = readonly (string | undefined)[] | TemplatedTarget;

/** A path template with parameters, and how a mutation's path parameters fill them. */
export interface TemplatedTarget {
  readonly path: string;
  /**
   * the key's segments, for a mutation of path template `own`: literal ones as they are,
   * parameters filled, or undefined (any value)
   */
  pattern(own: string, values: Readonly<Record<string, unknown>> | undefined): (string | undefined)[];
}

/** The target of a path template with parameters (see `InvalidationTarget`). */
export function templated(path: string): TemplatedTarget {
  return { path, pattern: (own, values) => alignedPattern(segmentsOf(path), segmentsOf(own), values) };
}

/** A path template's segments as a target: its parameters, if any, match any value. */
export function pathPattern(path: string): (string | undefined)[] {
  return segmentsOf(path).map((segment) => (segment.includes("{") ? undefined : segment));
}

/**
 * The filters that invalidate, after the mutation of `route` succeeded with `variables`, each
 * query in `targets`.
 */
export function invalidationsOf(
  api: QueryApi,
  route: RoutePath,
  targets: readonly InvalidationTarget[],
  variables: CallInput | undefined,
): { queryKey: QueryKey; predicate: (query: { readonly queryKey: QueryKey }) => boolean }[] {
  return targets.map((target) => {
    const pattern = "pattern" in target ? target.pattern(route.path, variables?.path) : target;
    const fixed = pattern.indexOf(undefined);
    const prefix = (fixed === -1 ? pattern : pattern.slice(0, fixed)) as string[];
    return { queryKey: [api.root, ...prefix], predicate: (query) => matchesPattern(query.queryKey, api.root, pattern) };
  });
}

/**
 * The segments of a query's key that a mutation's variables decide: literal segments as they are;
 * a parameter segment filled in where the mutation's path has one of the same shape at the same
 * place, the paths agreeing up to there (`/events/{eventId}` fills `/events/{id}`); else undefined
 * (any value).
 */
function alignedPattern(
  target: readonly string[],
  own: readonly string[],
  path: Readonly<Record<string, unknown>> | undefined,
): (string | undefined)[] {
  let aligned = true;
  return target.map((segment, i) => {
    const theirs = own[i];
    aligned &&= theirs !== undefined && shapeOf(segment) === shapeOf(theirs);
    if (!segment.includes("{")) return segment;
    return aligned && theirs !== undefined ? fill(segment, renamed(segment, theirs, path)) : undefined;
  });
}

/** A segment with its parameters' names left out: "{id}.{ext}" → "{}.{}". */
function shapeOf(segment: string): string {
  return segment.replace(/\{[^}]*\}/g, "{}");
}

/** The mutation's parameter values under the names the query's segment gives the same places. */
function renamed(
  segment: string,
  theirs: string,
  path: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> | undefined {
  if (path === undefined) return undefined;
  const names = (text: string): string[] => [...text.matchAll(/\{([^}]*)\}/g)].map((match) => match[1] ?? "");
  const their = names(theirs);
  return Object.fromEntries(
    names(segment).map((name, i) => [name, Object.hasOwn(path, their[i] ?? "") ? path[their[i] ?? ""] : undefined]),
  );
}

/** Whether a key is the query of a template: the same segments (any value where undefined), then at most the input. */
function matchesPattern(key: QueryKey, root: string, pattern: readonly (string | undefined)[]): boolean {
  const length = pattern.length;
  const rest = key[length + 1];
  return (
    key[0] === root &&
    key.length > length &&
    key.length < length + 3 &&
    pattern.every(
      (segment, i) => typeof key[i + 1] === "string" && (segment === undefined || key[i + 1] === segment),
    ) &&
    (rest === undefined || (typeof rest === "object" && rest !== null && !Array.isArray(rest)))
  );
}

/**
 * `{ mutationKey, mutationFn, onSuccess }` of the calls of `route` by `client`, with the
 * mutation's variables as their input: the mutation fails as a query does (see `queryError`);
 * on success, the queries in `targets` are invalidated (and refetched when active), then the
 * settings' `onSuccess` is called.
 */
export function mutationOptionsOf<V extends CallInput | undefined, D>(
  client: BaseClient,
  api: QueryApi,
  operation: string,
  route: CallRoute,
  targets: readonly InvalidationTarget[],
  settings: MutationSettings<D, V> = {},
): {
  mutationKey: QueryKey;
  mutationFn: (variables: V) => Promise<D>;
  onSuccess: (
    data: D,
    variables: V,
    onMutateResult?: unknown,
    context?: { readonly client?: InvalidatingClient },
  ) => Promise<void>;
} {
  return {
    mutationKey: mutationKeyOf(api, operation, route),
    mutationFn: (variables) =>
      client[RUNTIME].call<D>(route, variables).catch((error: unknown) => {
        throw queryError(route, error);
      }),
    // the queries in `targets` invalidated through the QueryClient, then the settings' onSuccess
    onSuccess: async (data, variables, onMutateResult, context) => {
      const client = settings.queryClient ?? context?.client;
      if (targets.length > 0) {
        if (client === undefined)
          throw new TypeError(
            `${operation}: no QueryClient to invalidate queries with: pass { queryClient } to ${operation}MutationOptions`,
          );
        await Promise.all(
          invalidationsOf(api, route, targets, variables).map((filters) => client.invalidateQueries(filters)),
        );
      }
      await settings.onSuccess?.(data, variables, onMutateResult, context);
    },
  };
}

/**
 * How an infinite query pages: the first page's parameter value, and the next one after a page
 * (undefined or null: there is none), as TanStack's `initialPageParam` and `getNextPageParam`.
 */
export interface Paging<D, P> {
  readonly initialPageParam: P;
  readonly getNextPageParam: (lastPage: D, allPages: D[], lastPageParam: P) => P | undefined | null;
}

/**
 * `{ queryKey, queryFn, initialPageParam, getNextPageParam }` of an operation that pages by the
 * query parameter `parameter`: each page is a call with the input and that parameter set to the
 * page's value. The key is the query's without that parameter, marked `infinite` (its pages are
 * not one answer): still below the path's prefix, so a mutation's invalidation reaches it.
 */
export function infiniteQueryOptionsOf<D, P>(
  api: QueryApi,
  route: RouteAnswers,
  parameter: string,
  input: CallInput | undefined,
  paging: Paging<D, P>,
  call: (input: CallInput, options: { readonly signal: AbortSignal }) => Promise<D>,
): {
  queryKey: QueryKey;
  queryFn: (context: { readonly pageParam: unknown; readonly signal: AbortSignal }) => Promise<D>;
  initialPageParam: P;
  getNextPageParam: Paging<D, P>["getNextPageParam"];
} {
  const { [parameter]: _page, ...rest } = input?.query ?? {};
  const described: Record<string, unknown> = { infinite: true };
  if (Object.keys(rest).length > 0) described.query = rest;
  if (input?.headers !== undefined) described.headers = input.headers;
  return {
    queryKey: [...queryKeyOf(api, route, input?.path === undefined ? undefined : { path: input.path }), described],
    queryFn: ({ pageParam, signal }) =>
      call({ ...input, query: { ...rest, [parameter]: pageParam } }, { signal }).catch((error: unknown) => {
        throw queryError(route, error, signal);
      }),
    initialPageParam: paging.initialPageParam,
    getNextPageParam: paging.getNextPageParam,
  };
}
