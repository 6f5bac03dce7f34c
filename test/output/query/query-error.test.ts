/**
 * What a query or a mutation fails with, through the generated options and TanStack's
 * QueryClient and MutationObserver: a declared error answer as the client's `ApiError` (its
 * status and body), anything else (an undeclared status, a network failure, a timeout, a request
 * that breaks the contract) as an `UnexpectedError` whose `status` is undefined and whose `kind`
 * and `cause` say what happened. The types say the same (query-error.test-d.ts).
 */
import { MutationObserver, QueryClient } from "@tanstack/query-core";
import { describe, expect, it } from "vitest";
import {
  ApiError,
  ApiNetworkError,
  ApiTimeoutError,
  createBaseClient,
  type FetchFunction,
  RequestValidationError,
  timingOut,
  UnexpectedError,
} from "../../../generated/client/index.js";
import { createEventMutationOptions, listEventsQueryOptions } from "../../../generated/query/index.js";
import { queryError } from "../../../generated/query/runtime.js";

const PROBLEM = { type: "urn:problem-type:unauthorized", title: "Unauthorized", status: 401, detail: "No key." };

/** The error a listEvents query fails with when the API is `fetch`. */
async function failure(fetch: FetchFunction, timeoutMs?: number): Promise<unknown> {
  const timeout = timeoutMs === undefined ? undefined : timingOut(timeoutMs);
  const client = createBaseClient({ apiKey: "k", baseUrl: "http://api.test", fetch, timeout });
  return new QueryClient().fetchQuery(listEventsQueryOptions(client)).then(
    () => expect.fail("the query succeeded"),
    (error: unknown) => error,
  );
}

describe("a query's error", () => {
  it("is the client's ApiError for a declared status, its body as answered", async () => {
    const error = await failure(async () => Response.json(PROBLEM, { status: 401 }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, body: PROBLEM, operationId: "listEvents" });
  });

  it("is an UnexpectedError for a status the operation does not declare, the ApiError its cause", async () => {
    const error = await failure(async () => new Response("teapot", { status: 418 }));
    expect(error).toBeInstanceOf(UnexpectedError);
    expect(error).toMatchObject({ kind: "status", status: undefined, operationId: "listEvents" });
    expect((error as UnexpectedError).cause).toBeInstanceOf(ApiError);
    expect(((error as UnexpectedError).cause as ApiError).status).toBe(418);
  });

  it("is an UnexpectedError for an ApiError of a 2xx answer, though a default answer is declared", () => {
    const json = [{ mediaType: "application/json", kind: "json" }] as const;
    const route = { operationId: "getThing", path: "/things", responses: { "200": json, default: json } };
    const answer = (status: number) => new ApiError("getThing", new Response(null, { status }), undefined);
    const declared = answer(503);
    expect(queryError(route, declared)).toBe(declared);
    for (const status of [200, 204, 299]) {
      const error = queryError(route, answer(status));
      expect(error).toBeInstanceOf(UnexpectedError);
      expect(error).toMatchObject({ kind: "status", status: undefined, operationId: "getThing" });
    }
  });

  it("is an UnexpectedError for a network failure and for a timeout", async () => {
    const network = await failure(async () => {
      throw new TypeError("fetch failed");
    });
    expect(network).toMatchObject({ kind: "network", status: undefined });
    expect((network as UnexpectedError).cause).toBeInstanceOf(ApiNetworkError);
    const never: FetchFunction = (_url, init) =>
      new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason)));
    const timeout = await failure(never, 20);
    expect(timeout).toMatchObject({ kind: "timeout", status: undefined });
    expect((timeout as UnexpectedError).cause).toBeInstanceOf(ApiTimeoutError);
  });
});

const EVENT = { name: "Gala", date: "2027-05-01", venue: { name: "Hall" } };

/** The error a createEvent mutation fails with when the API is `fetch`, sending `body`. */
async function mutationFailure(fetch: FetchFunction, body: typeof EVENT = EVENT): Promise<unknown> {
  const client = createBaseClient({ apiKey: "k", baseUrl: "http://api.test", fetch });
  const queryClient = new QueryClient();
  const observer = new MutationObserver(queryClient, createEventMutationOptions(client, { queryClient }));
  return observer.mutate({ body }).then(
    () => expect.fail("the mutation succeeded"),
    (error: unknown) => error,
  );
}

describe("a mutation's error", () => {
  it("is the client's ApiError for a declared status, its body as answered", async () => {
    const invalid = { ...PROBLEM, status: 422, title: "Unprocessable Content", errors: [{ message: "no" }] };
    const error = await mutationFailure(async () => Response.json(invalid, { status: 422 }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, body: invalid, operationId: "createEvent" });
  });

  it("is an UnexpectedError for an undeclared status, a network failure and a request that breaks the contract", async () => {
    const status = await mutationFailure(async () => new Response("gone", { status: 410 }));
    expect(status).toBeInstanceOf(UnexpectedError);
    expect(status).toMatchObject({ kind: "status", status: undefined, operationId: "createEvent" });
    const network = await mutationFailure(async () => {
      throw new TypeError("fetch failed");
    });
    expect(network).toMatchObject({ kind: "network", status: undefined });
    expect((network as UnexpectedError).cause).toBeInstanceOf(ApiNetworkError);
    const request = await mutationFailure(async () => Response.json(1, { status: 201 }), { ...EVENT, date: "soon" });
    expect(request).toMatchObject({ kind: "request", status: undefined });
    expect((request as UnexpectedError).cause).toBeInstanceOf(RequestValidationError);
  });
});
