/**
 * A page pays for the operations it uses: bundled by esbuild for the browser, a page whose client
 * is `createBaseClient`'s holds the call entries and request validators of the operations whose
 * TanStack Query options it imports, and no other operation's, nor their answers' validators
 * unless it checks answers; a page with `createClient`'s `Client`, whose methods name every
 * operation, holds them all. The parameter and form encodings come only with an operation that
 * needs them (the path's, the query's, the headers' and each style's apart), the retries only
 * with a retry policy. And the base client calls as the full one does.
 */
import { QueryClient } from "@tanstack/query-core";
import { describe, expect, it } from "vitest";
import {
  checkingAnswers,
  createBaseClient,
  createClient,
  ResponseValidationError,
  responseValidators,
  retrying,
} from "../../../generated/index.js";
import { createEventMutationOptions, listEventsQueryOptions } from "../../../generated/query/index.js";
import { bundleBesideGenerated } from "../../support/page-bundle.js";

/** A page of two operations (list events, create one), its client made by `factory` with `options`. */
const page = (factory: string, options = ""): string => `
import { ${factory}${options === "" ? "" : ", checkingAnswers, responseValidators"} } from "./index.js";
import { createEventMutationOptions, listEventsQueryOptions } from "./query/index.js";
const client = ${factory}({ baseUrl: "/api/1_12", apiKey: "k"${options} });
export const options = [listEventsQueryOptions(client), createEventMutationOptions(client)];
`;

/** The validator functions, route constants and parameter encoding a bundle of `source` (beside generated/index.ts) keeps. */
async function kept(
  source: string,
  mode: "development" | "production" = "development",
): Promise<{
  validators: string[];
  routes: string[];
  encodesParameters: boolean;
  encodesEveryParameter: boolean;
  encodesQuery: boolean;
  encodesHeaders: boolean;
  encodesStyles: boolean;
  encodesForms: boolean;
  encodesUrlForms: boolean;
  framesItems: boolean;
  retries: boolean;
  placesCredentials: boolean;
  checksEncoders: boolean;
  checksAnswers: boolean;
}> {
  const text = await bundleBesideGenerated(source, mode);
  const names = (pattern: RegExp): string[] => [...text.matchAll(pattern)].map((match) => match[1] ?? "").sort();
  return {
    validators: names(/^function (validate\w+)\(/gm),
    routes: names(/^var (\w+(?:Route|Call)) = /gm),
    encodesParameters: /^function fillWith\(/m.test(text),
    encodesEveryParameter: /^function fillPath\(/m.test(text),
    encodesQuery: /^function encodeQuery\(/m.test(text),
    encodesHeaders: /^function headersAsSent\(/m.test(text),
    encodesStyles: /^function styledPathText\(/m.test(text),
    encodesForms: /^function toFormData\(/m.test(text),
    encodesUrlForms: /^function toSearchParams\(/m.test(text),
    framesItems: /^function itemStream\(/m.test(text),
    retries: /^function retryDelay\(/m.test(text),
    placesCredentials: /^function placeCredentials\(/m.test(text),
    checksEncoders: /^function checkEncoders\(/m.test(text),
    checksAnswers: /^function checkingAnswers\(/m.test(text),
  };
}

describe("a page's bundle", () => {
  it("with createBaseClient, holds the call entries and request validators of the operations it uses, no other", async () => {
    const { validators, routes, encodesParameters, encodesForms, retries, placesCredentials, checksAnswers } =
      await kept(page("createBaseClient"));
    expect(routes).toEqual(["createEventCall", "listEventsCall"]);
    expect(validators).toEqual(["validateEventCreate"]);
    // neither operation has parameters nor a body other than JSON, so their encoding is left out
    expect(encodesParameters).toBe(false);
    expect(encodesForms).toBe(false);
    // nor does it retry or check answers, so the retries and the answer check are left out
    expect(retries).toBe(false);
    expect(checksAnswers).toBe(false);
    // its operations take an API key in a header, which the engine places itself
    expect(placesCredentials).toBe(false);
  });

  it("checks that routes written by hand name their encoders in a development build, not in a production one", async () => {
    expect((await kept(page("createBaseClient"), "development")).checksEncoders).toBe(true);
    const production = await kept(page("createBaseClient"), "production");
    expect(production.checksEncoders).toBe(false);
    // the rest of the page is the same
    expect(production.routes).toEqual(["createEventCall", "listEventsCall"]);
    expect(production.validators).toEqual(["validateEventCreate"]);
  });

  it("with an operation that has scalar path parameters, holds the path's encoding and no other place's or style's", async () => {
    const source = `import { createBaseClient } from "./index.js";
import { updateEventMutationOptions } from "./query/index.js";
export const options = updateEventMutationOptions(createBaseClient({ baseUrl: "/api/1_12", apiKey: "k" }));
`;
    expect(await kept(source)).toMatchObject({
      encodesParameters: true,
      encodesEveryParameter: false,
      encodesQuery: false,
      encodesHeaders: false,
      encodesStyles: false,
    });
  });

  it("with an operation that sends a multipart body, holds the multipart encoding, not a URL-encoded form's nor items'", async () => {
    const source = `import { createBaseClient } from "./index.js";
import { addWorkerDocumentMutationOptions } from "./query/index.js";
export const options = addWorkerDocumentMutationOptions(createBaseClient({ baseUrl: "/api/1_12", apiKey: "k" }));
`;
    expect(await kept(source)).toMatchObject({
      encodesParameters: true,
      encodesForms: true,
      encodesUrlForms: false,
      framesItems: false,
    });
  });

  it("with createBaseClient checking answers, holds their validators too", async () => {
    const { validators, checksAnswers } = await kept(
      page("createBaseClient", ", validateResponses: checkingAnswers(responseValidators)"),
    );
    expect(validators).toEqual(expect.arrayContaining(["validateEventCreate", "validateEventList", "validateProblem"]));
    expect(checksAnswers).toBe(true);
  });

  it("with createBaseClient given a retry policy, holds the retries", async () => {
    const source = `import { createBaseClient, retrying } from "./index.js";
import { listEventsQueryOptions } from "./query/index.js";
const client = createBaseClient({ baseUrl: "/api/1_12", apiKey: "k", retry: retrying({ retries: 2 }) });
export const options = listEventsQueryOptions(client);
`;
    expect((await kept(source)).retries).toBe(true);
  });

  it("with createClient, holds every operation's route", async () => {
    const { routes } = await kept(page("createClient"));
    expect(routes.filter((name) => name.endsWith("Route"))).toHaveLength(9);
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

  it("checks answers only against the validators it is given", async () => {
    // total_count must be an integer: an answer that breaks the contract
    const fetch = async (): Promise<Response> => Response.json({ data: [], total_count: "many" });
    const queryClient = new QueryClient();
    const unchecked = createBaseClient({ apiKey: "k", baseUrl: "http://api.test", fetch });
    expect(await queryClient.fetchQuery({ ...listEventsQueryOptions(unchecked), staleTime: 0 })).toEqual({
      data: [],
      total_count: "many",
    });
    const checked = createBaseClient({
      apiKey: "k",
      baseUrl: "http://api.test",
      fetch,
      validateResponses: checkingAnswers(responseValidators),
    });
    // a query reports an answer that breaks the contract as an UnexpectedError, the check's error its cause
    const error = await listEventsQueryOptions(checked)
      .queryFn({ signal: new AbortController().signal })
      .catch((failure: unknown) => failure);
    expect(error).toMatchObject({ kind: "response", cause: expect.any(ResponseValidationError) });
    // the full client holds the route table, so `true` is enough
    const full = createClient({ apiKey: "k", baseUrl: "http://api.test", fetch, validateResponses: true });
    await expect(listEventsQueryOptions(full).queryFn({ signal: new AbortController().signal })).rejects.toThrow(
      /listEvents: invalid 200 answer/,
    );
  });

  it("retries by the policy it is given, as the full client does by its options", async () => {
    const statuses = [503, 200, 503, 200];
    const fetch = async (): Promise<Response> =>
      Response.json({ data: [], total_count: 0 }, { status: statuses.shift() });
    const queryClient = new QueryClient();
    const retry = { retries: 1, minDelayMs: 1, random: () => 0 };
    for (const client of [
      createBaseClient({ apiKey: "k", baseUrl: "http://api.test", fetch, retry: retrying(retry) }),
      createClient({ apiKey: "k", baseUrl: "http://api.test", fetch, retry }),
    ]) {
      await queryClient.fetchQuery({ ...listEventsQueryOptions(client), staleTime: 0 });
    }
    expect(statuses).toEqual([]);
  });

  it("checks requests before sending, as the full client does", async () => {
    const client = createBaseClient({ apiKey: "k", baseUrl: "http://api.test", fetch: async () => Response.json(1) });
    const options = createEventMutationOptions(client);
    await expect(options.mutationFn({ body: { name: "", date: "not a date", venue: {} } })).rejects.toThrow(/date/);
  });
});
