/**
 * A page pays for the operations it uses: bundled by esbuild for the browser, a page whose client
 * is `createBaseClient`'s holds the routes and validators of the operations whose TanStack Query
 * options it imports, and no other operation's; a page with `createClient`'s `Client`, whose
 * methods name every operation, holds them all. And the base client calls as the full one does.
 */
import { QueryClient } from "@tanstack/query-core";
import { describe, expect, it } from "vitest";
import { createBaseClient, createClient } from "../../generated/index.js";
import { createEventMutationOptions, listEventsQueryOptions } from "../../generated/query/index.js";
import { bundleBesideGenerated } from "../support/page-bundle.js";

/** A page of two operations (list events, create one), its client made by `factory`. */
const page = (factory: string): string => `
import { ${factory} } from "./index.js";
import { createEventMutationOptions, listEventsQueryOptions } from "./query/index.js";
const client = ${factory}({ baseUrl: "/api/1_12", apiKey: "k" });
export const options = [listEventsQueryOptions(client), createEventMutationOptions(client)];
`;

/** The validator functions and route constants a bundle of `source` (beside generated/index.ts) keeps. */
async function kept(source: string): Promise<{ validators: string[]; routes: string[] }> {
  const text = await bundleBesideGenerated(source);
  const names = (pattern: RegExp): string[] => [...text.matchAll(pattern)].map((match) => match[1] ?? "").sort();
  return { validators: names(/^function (validate\w+)\(/gm), routes: names(/^var (\w+Route) = /gm) };
}

describe("a page's bundle", () => {
  it("with createBaseClient, holds the routes and validators of the operations it uses, no other", async () => {
    const { validators, routes } = await kept(page("createBaseClient"));
    expect(routes).toEqual(["createEventRoute", "listEventsRoute"]);
    expect(validators).toEqual([
      "validateCreateEventResponse201",
      "validateEventCreate",
      "validateEventList",
      "validateProblem",
    ]);
  });

  it("with createClient, holds every operation's route", async () => {
    const { routes } = await kept(page("createClient"));
    expect(routes).toHaveLength(9);
  });
});

describe("the base client", () => {
  it("calls through the query options as the full client does, with its options", async () => {
    const seen: string[] = [];
    const fetch = async (url: string, init: RequestInit): Promise<Response> => {
      seen.push(`${init.method} ${url} ${new Headers(init.headers).get("x-api-key")}`);
      const body = init.method === "POST" ? 5 : { data: [], total_count: 0 };
      return Response.json(body, { status: init.method === "POST" ? 201 : 200 });
    };
    const queryClient = new QueryClient();
    for (const client of [
      createBaseClient({ apiKey: "k", baseUrl: "http://api.test", fetch }),
      createClient({ apiKey: "k", baseUrl: "http://api.test", fetch }),
    ]) {
      expect(await queryClient.fetchQuery({ ...listEventsQueryOptions(client), staleTime: 0 })).toEqual({
        data: [],
        total_count: 0,
      });
      const options = createEventMutationOptions(client, { queryClient });
      expect(await options.mutationFn({ body: { name: "Gala", date: "2027-05-01", venue: {} } })).toBe(5);
    }
    expect(seen).toEqual([
      "GET http://api.test/events k",
      "POST http://api.test/events k",
      "GET http://api.test/events k",
      "POST http://api.test/events k",
    ]);
  });

  it("checks requests before sending, as the full client does", async () => {
    const client = createBaseClient({ apiKey: "k", baseUrl: "http://api.test", fetch: async () => Response.json(1) });
    const options = createEventMutationOptions(client);
    await expect(options.mutationFn({ body: { name: "", date: "not a date", venue: {} } })).rejects.toThrow(/date/);
  });
});
