/**
 * The query runtime with TanStack's own QueryClient: keys from path segments, prefix invalidation,
 * which cached queries a mutation's success invalidates, an `onSuccess` of the settings called
 * after it, the query's AbortSignal reaching fetch, and a clear error when there is no QueryClient
 * to invalidate with. What runs TanStack Query runs against the lowest @tanstack/query-core the
 * peer range allows and the latest, both installed.
 */
import { createRequire } from "node:module";
import * as latest from "@tanstack/query-core";
import * as lowest from "@tanstack/query-core-lowest";
import { describe, expect, it } from "vitest";
import { createClient, routes } from "../../../generated/index.js";
import {
  createEventMutationOptions,
  listEventsQueryKey,
  listEventsQueryOptions,
  queryKeyRoot,
  updateEventMutationOptions,
} from "../../../generated/query/index.js";
import {
  bareQueryKeyOf,
  fixedQueryKeyOf,
  invalidationsOf,
  mutationKeyOf,
  pathPattern,
  queryKeyOf,
  templated,
} from "../../../generated/query/runtime.js";

/** The installed version of a package. */
function versionOf(name: string): string {
  return (createRequire(import.meta.url)(`${name}/package.json`) as { version: string }).version;
}

/** Each supported TanStack Query: the lowest of the peer range and the latest. */
const TANSTACK = [
  { version: versionOf("@tanstack/query-core-lowest"), core: lowest as unknown as typeof latest },
  { version: versionOf("@tanstack/query-core"), core: latest },
];

describe("the peer range of @tanstack/query-core", () => {
  it("starts at the lowest version these tests run against", async () => {
    const manifest = createRequire(import.meta.url)("../../../package.json") as {
      peerDependencies: Record<string, string>;
    };
    expect(manifest.peerDependencies["@tanstack/query-core"]).toBe(`^${TANSTACK[0]?.version}`);
  });
});

const ROOT = queryKeyRoot;
/** The API as the query entry point hands it to the runtime: the keys' root. */
const API = { root: ROOT };

/** A client whose fetch answers `body` with 200 (or 201 for a POST), recording what it was given. */
function recordingClient(body: unknown): {
  client: ReturnType<typeof createClient>;
  calls: { url: string; init: RequestInit }[];
} {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    calls.push({ url, init });
    // a network round trip, which an aborted signal cuts short as fetch does
    await new Promise((resolve) => setTimeout(resolve, 5));
    init.signal?.throwIfAborted();
    return new Response(JSON.stringify(body), {
      status: init.method === "POST" ? 201 : 200,
      headers: { "content-type": "application/json" },
    });
  };
  return { client: createClient({ apiKey: "k", baseUrl: "http://api.test", fetch }), calls };
}

describe("query keys", () => {
  it("are the API's name, one element per path segment, then the query, headers and cookies when given", () => {
    expect(listEventsQueryKey()).toEqual([ROOT, "events"]);
    expect(queryKeyOf(API, routes.updateEvent, { path: { id: 7 }, body: {} })).toEqual([ROOT, "events", "7"]);
    expect(queryKeyOf(API, routes.updateEvent, { path: { id: "7" }, query: { expand: true } })).toEqual([
      ROOT,
      "events",
      "7",
      { query: { expand: true } },
    ]);
    // a path parameter's object by its members; cookies tell one caller's query from another's
    expect(queryKeyOf(API, routes.updateEvent, { path: { id: { x: 1 } }, cookies: { session: "s" } })).toEqual([
      ROOT,
      "events",
      '{"x":1}',
      { cookies: { session: "s" } },
    ]);
    // a path without parameters: its segments as written, the same as when filled
    for (const input of [undefined, { query: { limit: 5 } }, { headers: { "x-a": "1" }, cookies: { c: "2" } }])
      expect(fixedQueryKeyOf(API, routes.listEvents, input)).toEqual(queryKeyOf(API, routes.listEvents, input));
    expect(fixedQueryKeyOf(API, routes.listEvents, { query: { limit: 5 } })).toEqual([
      ROOT,
      "events",
      { query: { limit: 5 } },
    ]);
    // an operation that takes no input: the key of a call without one
    expect(bareQueryKeyOf(API, routes.listEvents)).toEqual(queryKeyOf(API, routes.listEvents, undefined));
    expect(listEventsQueryKey()).toEqual([ROOT, "events"]);
    expect(mutationKeyOf(API, "updateEvent", routes.updateEvent)).toEqual([ROOT, "events", "{id}", "updateEvent"]);
    expect(createEventMutationOptions(recordingClient(1).client).mutationKey).toEqual([ROOT, "events", "createEvent"]);
  });
});

describe("invalidation", () => {
  it("fills the query's parameters from the mutation's where the paths agree, and matches only that template's keys", () => {
    const event = templated(routes.updateEvent.path);
    const [item] = invalidationsOf(API, routes.updateEvent, [event], { path: { id: 7 } });
    const [list] = invalidationsOf(API, routes.updateEvent, [pathPattern(routes.listEvents.path)], {
      path: { id: 7 },
    });
    const [other] = invalidationsOf(API, routes.addWorkerCredential, [event], { path: { id: 3 } });
    const matches = (filter: typeof item, key: readonly unknown[]): boolean =>
      filter?.predicate({ queryKey: key }) === true;
    expect([item?.queryKey, list?.queryKey, other?.queryKey]).toEqual([
      [ROOT, "events", "7"],
      [ROOT, "events"],
      [ROOT, "events"],
    ]);
    expect([
      matches(item, [ROOT, "events", "7"]),
      matches(item, [ROOT, "events", "8"]),
      matches(item, [ROOT, "events", "7", { query: {} }]),
    ]).toEqual([true, false, true]);
    expect([
      matches(list, [ROOT, "events"]),
      matches(list, [ROOT, "events", { query: { page: 2 } }]),
      matches(list, [ROOT, "events", "7"]),
    ]).toEqual([true, true, false]);
    // the worker's id is not an event's: any event
    expect([matches(other, [ROOT, "events", "3"]), matches(other, [ROOT, "events", "9"])]).toEqual([true, true]);
    expect(matches(list, ["another-api", "events"])).toBe(false);
  });

  it("matches any value for each parameter of a template given as its path's pattern", () => {
    expect(pathPattern(routes.updateEvent.path)).toEqual(["events", undefined]);
    const [any] = invalidationsOf(API, routes.updateEvent, [pathPattern(routes.updateEvent.path)], {
      path: { id: 7 },
    });
    expect(any?.queryKey).toEqual([ROOT, "events"]);
    expect([
      any?.predicate({ queryKey: [ROOT, "events", "7"] }),
      any?.predicate({ queryKey: [ROOT, "events", "8"] }),
      any?.predicate({ queryKey: [ROOT, "events"] }),
    ]).toEqual([true, true, false]);
  });

  it("says so when no QueryClient is at hand to invalidate with", async () => {
    const options = createEventMutationOptions(recordingClient(1).client);
    await expect(options.onSuccess(1, { body: { name: "Gala", date: "2026-12-02", venue: {} } })).rejects.toThrow(
      "createEvent: no QueryClient to invalidate queries with: pass { queryClient } to createEventMutationOptions",
    );
  });
});

describe.each(TANSTACK)("with @tanstack/query-core $version", ({ core: { MutationObserver, QueryClient } }) => {
  it("invalidates, after a success, the queries of `invalidates` and no other; a prefix still reaches all below it", async () => {
    const queryClient = new QueryClient();
    const { client } = recordingClient({ id: 7 });
    const keys = [listEventsQueryKey(), [ROOT, "events", "7"], [ROOT, "venues"]] as const;
    for (const key of keys) queryClient.setQueryData(key, { cached: true });
    const observer = new MutationObserver(queryClient, updateEventMutationOptions(client));
    await observer.mutate({ path: { id: "7" }, body: { name: "Gala", date: "2026-12-02", venue: {} } });
    // the QueryClient came from the mutation's context: no settings given, and the mutation succeeded
    expect(observer.getCurrentResult().status).toBe("success");
    expect(keys.map((key) => queryClient.getQueryState(key)?.isInvalidated)).toEqual([true, false, false]);
    await queryClient.invalidateQueries({ queryKey: [ROOT, "events"] });
    expect(queryClient.getQueryState([ROOT, "events", "7"])?.isInvalidated).toBe(true);
  });

  it("calls the settings' onSuccess after the invalidation, with the data and variables", async () => {
    const queryClient = new QueryClient();
    const { client } = recordingClient(7);
    queryClient.setQueryData(listEventsQueryKey(), { data: [], total_count: 0 });
    const seen: unknown[] = [];
    const options = createEventMutationOptions(client, {
      onSuccess: (data, variables) => {
        seen.push(data, variables.body.name, queryClient.getQueryState(listEventsQueryKey())?.isInvalidated);
      },
    });
    const observer = new MutationObserver(queryClient, options);
    await observer.mutate({ body: { name: "Gala", date: "2026-12-02", venue: {} } });
    expect(seen).toEqual([7, "Gala", true]);
    expect(observer.getCurrentResult().status).toBe("success");
  });

  it("fails the mutation when the settings' onSuccess rejects, the invalidation done", async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(listEventsQueryKey(), { data: [], total_count: 0 });
    const options = createEventMutationOptions(recordingClient(7).client, {
      onSuccess: async () => Promise.reject(new Error("toast failed")),
    });
    const observer = new MutationObserver(queryClient, options);
    await expect(observer.mutate({ body: { name: "Gala", date: "2026-12-02", venue: {} } })).rejects.toThrow(
      "toast failed",
    );
    expect(queryClient.getQueryState(listEventsQueryKey())?.isInvalidated).toBe(true);
    expect(observer.getCurrentResult().status).toBe("error");
  });

  it("call the client with the query's AbortSignal", async () => {
    const { client, calls } = recordingClient({ data: [], total_count: 0 });
    const queryClient = new QueryClient();
    expect(await queryClient.fetchQuery(listEventsQueryOptions(client))).toEqual({ data: [], total_count: 0 });
    expect(calls[0]?.url).toBe("http://api.test/events");
    expect(calls[0]?.init.signal).toBeInstanceOf(AbortSignal);
    const aborted = new AbortController();
    const pending = listEventsQueryOptions(client).queryFn({ signal: aborted.signal });
    aborted.abort(new Error("left the page"));
    await expect(pending).rejects.toThrow("left the page");
  });
});
