import { afterEach, describe, expect, it, vi } from "vitest";
import { checkingAnswers } from "../../../../runtime/client/answer-check.js";
import { authEncoder } from "../../../../runtime/client/auth.js";
import {
  ApiError,
  ApiNetworkError,
  ApiTimeoutError,
  RequestValidationError,
  ResponseValidationError,
} from "../../../../runtime/client/errors.js";
import { itemBodyEncoder } from "../../../../runtime/client/item-bodies.js";
import { send as sendCall } from "../../../../runtime/client/operation.js";
import { retrying } from "../../../../runtime/client/retry.js";
import type { CallArgs, CallOptions, FetchFunction, Settings } from "../../../../runtime/client/runtime.js";
import { itemBodyCalls } from "../../../../runtime/client/streamed-calls.js";
import { timingOut } from "../../../../runtime/client/transport.js";
import type { Route, Validator } from "../../../../runtime/route-types.js";
import { rejection } from "../support/promises.js";
import { accepting, apiKey, content, http, param, refusing, route, stringProperties } from "../support/routes.js";

const json = content("application/json");

/**
 * A fetch answering from a queue, recording each request: a Response (once), an error to throw,
 * or a function making a Response; the last error or function answers every further call.
 */
function fakeFetch(
  ...answers: (Response | Error | (() => Response))[]
): FetchFunction & { calls: { url: string; init: RequestInit }[] } {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    calls.push({ url, init: { ...init } });
    const next = answers.length > 1 || answers[0] instanceof Response ? answers.shift() : answers[0];
    if (next === undefined) throw new Error("no answer queued");
    if (next instanceof Error) throw next;
    return typeof next === "function" ? next() : next;
  };
  return Object.assign(fetch, { calls });
}

/** A fetch that answers only by failing when its signal aborts. */
function hangingFetch(): FetchFunction & { calls: RequestInit[] } {
  const calls: RequestInit[] = [];
  const fetch = (_url: string, init: RequestInit): Promise<Response> => {
    calls.push(init);
    return new Promise((_resolve, reject) => {
      init.signal?.addEventListener("abort", () =>
        reject(new DOMException("This operation was aborted", "AbortError")),
      );
    });
  };
  return Object.assign(fetch, { calls });
}

function ok(body: unknown = {}, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

function settings(fetch: FetchFunction, overrides: Partial<Settings> = {}): Settings {
  return {
    baseUrl: "https://api.test/v1",
    fetch,
    headers: {},
    validateRequests: true,
    ...overrides,
  };
}

async function send(
  table: Route,
  fetch: FetchFunction,
  args: CallArgs = {},
  options?: CallOptions,
  overrides: Partial<Settings> = {},
): Promise<unknown> {
  return sendCall(table, settings(fetch, overrides), args, options);
}

const GET_WORKER = route({
  operationId: "getWorker",
  path: "/workers/{id}/shifts/{day}",
  pathParams: ["id", "day"],
  query: [param("tags", { array: true, explode: false }), param("limit")],
  headers: [param("X-Trace"), param("X-Point", { explode: true })],
  responses: { "200": [json], "404": [content("application/problem+json")], default: [json] },
  accept: "application/json, application/problem+json",
  security: [[apiKey("query", "api_key")]],
});

const CREATE = route({
  operationId: "createThing",
  method: "POST",
  path: "/things",
  body: {
    required: true,
    pointer: "#/paths/~1things/post/requestBody",
    contents: [content("multipart/form-data", ["file"]), json, content("application/octet-stream")],
  },
  responses: { "201": [json] },
  validators: {
    body: { "application/json": stringProperties("name"), "multipart/form-data": stringProperties("name", "file") },
    responses: {},
  },
});

describe("Operation", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  describe("the request", () => {
    it("fills the path and the query, and puts a query credential after the parameters", async () => {
      const fetch = fakeFetch(ok({ id: 1 }));
      const args = { path: { id: 7, day: "2024-04-20" }, query: { tags: ["a", "b c"], limit: 5, other: "x" } };
      expect(await send(GET_WORKER, fetch, args, undefined, { apiKey: "k&1" })).toEqual({ id: 1 });
      expect(fetch.calls[0]?.url).toBe(
        "https://api.test/v1/workers/7/shifts/2024-04-20?tags=a,b%20c&limit=5&api_key=k%261",
      );
      expect(fetch.calls[0]?.init.method).toBe("GET");
    });

    it("refuses a route with parameters that names no parameter encoder, saying what to set", async () => {
      const fetch = fakeFetch(() => ok());
      // its query key is placed by the credential encoder, which it keeps
      const bare = { ...GET_WORKER, encoders: { auth: authEncoder } };
      const error = await rejection(send(bare, fetch, { path: { id: 7, day: "2024-04-20" } }));
      expect(error).toBeInstanceOf(TypeError);
      expect(String(error)).toMatch(
        /getWorker: the route names no `encoders.parameters` \(client\/parameters.ts\), which the operation needs/,
      );
      expect(fetch.calls).toHaveLength(0);
      // without request checks, the URL needs the encoder all the same
      const unchecked = await rejection(
        send(bare, fetch, { path: { id: 7, day: "x" } }, undefined, { validateRequests: false }),
      );
      expect(String(unchecked)).toMatch(/names no `encoders.parameters`/);
    });

    it("refuses a route with query or header parameters that names no encoder of theirs, saying which", async () => {
      const fetch = fakeFetch(() => ok());
      const args = { path: { id: 7, day: "2024-04-20" } };
      const { query: _query, ...withoutQuery } = GET_WORKER.encoders ?? {};
      const noQuery = await rejection(send({ ...GET_WORKER, encoders: withoutQuery }, fetch, args));
      expect(String(noQuery)).toMatch(/getWorker: the route names no `encoders.query` \(client\/query.ts\)/);
      const { headers: _headers, ...withoutHeaders } = GET_WORKER.encoders ?? {};
      const noHeaders = await rejection(send({ ...GET_WORKER, encoders: withoutHeaders }, fetch, args));
      expect(String(noHeaders)).toMatch(/getWorker: the route names no `encoders.headers` \(client\/headers.ts\)/);
      expect(fetch.calls).toHaveLength(0);
    });

    it("refuses a route with answers other than JSON that names no answer reader, saying what to set", async () => {
      const fetch = fakeFetch(() => ok());
      const bare = route({ responses: { "200": [content("text/csv")] }, encoders: undefined });
      const error = await rejection(send(bare, fetch));
      expect(String(error)).toMatch(/getThings: the route names no `encoders.answers` \(client\/answers.ts\)/);
      expect(fetch.calls).toHaveLength(0);
    });

    it("refuses a body other than JSON on a route that names no body encoder, saying what to set", async () => {
      const fetch = fakeFetch(() => ok());
      const bare = { ...CREATE, encoders: undefined };
      const error = await rejection(send(bare, fetch, { body: new Uint8Array([1]) }));
      expect(String(error)).toMatch(
        /createThing: the route names no `encoders.body` \(client\/body.ts\), which the operation needs: run `npm run generate` again/,
      );
      expect(fetch.calls).toHaveLength(0);
    });

    it("refuses a body of items on a route that names no stream encoder, saying what to set", async () => {
      const fetch = fakeFetch(() => ok());
      const items = { ...content("application/jsonl"), sequence: "jsonl" as const };
      const bare = route({
        method: "POST",
        body: { required: true, pointer: "#/b", contents: [items] },
        encoders: { body: itemBodyEncoder },
      });
      const error = await rejection(send(bare, fetch, { body: [{ n: 1 }] }));
      expect(String(error)).toMatch(/getThings: the route names no `encoders.stream`/);
      expect(fetch.calls).toHaveLength(0);
      // named, the items are sent as a stream of JSON Lines
      await send({ ...bare, encoders: { body: itemBodyEncoder, stream: itemBodyCalls } }, fetch, { body: [{ n: 1 }] });
      expect(fetch.calls[0]?.init.body).toBeInstanceOf(ReadableStream);
      expect(fetch.calls[0]?.init).toMatchObject({ duplex: "half" });
    });

    it("sends a JSON body as JSON text on a route without encoders", async () => {
      const fetch = fakeFetch(() => ok());
      const jsonOnly = route({
        method: "POST",
        body: { required: true, pointer: "#/b", contents: [json] },
        encoders: undefined,
      });
      await send(jsonOnly, fetch, { body: { name: "x" } });
      expect(fetch.calls[0]?.init.body).toBe('{"name":"x"}');
      expect(new Headers(fetch.calls[0]?.init.headers).get("content-type")).toBe("application/json");
    });

    it("sends API keys in headers on a route without encoders, the first alternative they satisfy", async () => {
      const fetch = fakeFetch(() => ok());
      const keyed = route({
        security: [[], [apiKey("header", "X-Other", "other")], [apiKey("header", "X-API-KEY", "key")]],
        encoders: undefined,
      });
      await send(keyed, fetch, {}, undefined, { credentials: { key: "k1" } });
      await send(keyed, fetch, {}, undefined, { apiKey: "k2" });
      await send(keyed, fetch, {}, undefined, { credentials: { key: { username: "u", password: "p" } } });
      await send(keyed, fetch, {});
      const sent = fetch.calls.map((call) => new Headers(call.init.headers));
      expect(sent.map((headers) => [headers.get("x-other"), headers.get("x-api-key")])).toEqual([
        [null, "k1"],
        ["k2", null],
        [null, "u:p"],
        [null, null],
      ]);
    });

    it("refuses a route with other schemes than header API keys that names no credential encoder", async () => {
      const fetch = fakeFetch(() => ok());
      for (const scheme of [apiKey("query", "api_key"), apiKey("cookie", "session"), http("bearer")]) {
        const error = await rejection(send(route({ security: [[scheme]], encoders: undefined }), fetch));
        expect(error).toBeInstanceOf(TypeError);
        expect(String(error)).toMatch(
          /getThings: the route names no `encoders.auth` \(client\/auth.ts\), which the operation needs: run `npm run generate` again/,
        );
      }
      expect(fetch.calls).toHaveLength(0);
    });

    it("sends a route without parameters, and without an encoder, to its fixed URL", async () => {
      const fetch = fakeFetch(() => ok());
      await send(route({ encoders: undefined }), fetch, { headers: { "X-Note": 5 } });
      expect(fetch.calls[0]?.url).toBe("https://api.test/v1/things");
      expect(new Headers(fetch.calls[0]?.init.headers).get("x-note")).toBe("5");
    });

    it("sends to a fixed URL when the operation has no parameters", async () => {
      const fetch = fakeFetch(() => ok());
      await send(route(), fetch, { path: { ignored: 1 }, query: { ignored: 1 } });
      await send(route({ security: [[apiKey("query", "k")]] }), fetch, {}, undefined, { apiKey: "s" });
      expect(fetch.calls.map((call) => call.url)).toEqual([
        "https://api.test/v1/things",
        "https://api.test/v1/things?k=s",
      ]);
    });

    it("refuses a call missing a path parameter before sending, checks on or off", async () => {
      for (const validateRequests of [true, false]) {
        const fetch = fakeFetch(ok());
        const error = await rejection(send(GET_WORKER, fetch, { path: { id: 7 } }, undefined, { validateRequests }));
        expect(error).toBeInstanceOf(RequestValidationError);
        expect((error as RequestValidationError).message).toBe(
          "getWorker: invalid request: path must have required property 'day'",
        );
        expect((error as RequestValidationError).errors).toEqual([
          {
            in: "path",
            instancePath: "",
            schemaPath: "#/required",
            keyword: "required",
            params: { missingProperty: "day" },
            message: "must have required property 'day'",
          },
        ]);
        expect(fetch.calls).toEqual([]);
      }
    });

    it("refuses a path parameter that is a dot segment before sending, checks on or off", async () => {
      for (const validateRequests of [true, false]) {
        for (const day of [".", ".."]) {
          const fetch = fakeFetch(ok());
          const error = await rejection(
            send(GET_WORKER, fetch, { path: { id: 7, day } }, undefined, { validateRequests }),
          );
          expect(error).toBeInstanceOf(RequestValidationError);
          expect((error as RequestValidationError).message).toBe(
            'getWorker: invalid request: path /day must not be "." or "..", which would change the path',
          );
          expect((error as RequestValidationError).errors).toMatchObject([
            { in: "path", instancePath: "/day", keyword: "dotSegment" },
          ]);
          expect(fetch.calls).toEqual([]);
        }
      }
      const fetch = fakeFetch(ok());
      await send(GET_WORKER, fetch, { path: { id: 7, day: "..." } });
      expect(fetch.calls[0]?.url).toBe("https://api.test/v1/workers/7/shifts/...");
    });

    it("sends the route's accept header, credentials, the client's headers, then the call's", async () => {
      const fetch = fakeFetch(ok());
      const args = {
        path: { id: 1, day: "d" },
        headers: { "X-Trace": 42, "X-Point": { x: 1, y: 2 }, "X-Undefined": undefined },
      };
      await send(
        GET_WORKER,
        fetch,
        args,
        { headers: { "x-client": "call", Authorization: "Bearer call" } },
        { headers: { "x-client": "client", "x-other": "client" } },
      );
      expect(fetch.calls[0]?.init.headers).toEqual({
        accept: "application/json, application/problem+json",
        "x-client": "call",
        "x-other": "client",
        "x-trace": "42",
        "x-point": "x=1,y=2",
        authorization: "Bearer call",
      });
    });

    it("sends the client's and the call's own header values as their text, leaving out those undefined", async () => {
      const fetch = fakeFetch(ok());
      const untyped = (headers: Record<string, unknown>) => headers as Record<string, string>;
      await send(
        GET_WORKER,
        fetch,
        { path: { id: 1, day: "d" } },
        { headers: untyped({ "X-Call": 2, "X-None": undefined }) },
        { headers: untyped({ "X-Client": true, "X-Left": undefined }) },
      );
      expect(fetch.calls[0]?.init.headers).toEqual({
        accept: "application/json, application/problem+json",
        "x-client": "true",
        "x-call": "2",
      });
    });

    it("sends no accept header when the route names none, and no signal without a timeout or a caller's signal", async () => {
      const fetch = fakeFetch(new Response(null, { status: 204 }));
      // a route written by hand without `accept`, though its answers have content: none is made up
      await send(route({ responses: { "204": [], "200": [json] } }), fetch);
      expect(fetch.calls[0]?.init).toEqual({ method: "GET", headers: {} });
    });

    it("places header credentials", async () => {
      const fetch = fakeFetch(ok());
      await send(route({ security: [[apiKey("header", "X-API-KEY")]] }), fetch, {}, undefined, { apiKey: "secret" });
      expect(fetch.calls[0]?.init.headers).toMatchObject({ "x-api-key": "secret" });
    });
  });

  describe("the body", () => {
    it.each<[string, CallArgs, string | undefined, (body: unknown) => void]>([
      ["JSON, by default", { body: { name: "x" } }, "application/json", (body) => expect(body).toBe('{"name":"x"}')],
      [
        "the media type asked for",
        { body: "raw", contentType: "application/octet-stream" },
        "application/octet-stream",
        (body) => expect(body).toBe("raw"),
      ],
      [
        "bytes as the binary media type",
        { body: new Uint8Array([1]) },
        "application/octet-stream",
        (body) => expect(body).toBeInstanceOf(Blob),
      ],
      [
        "a form with files as multipart, its boundary left to fetch",
        { body: { name: "n", file: new Blob(["x"]) } },
        undefined,
        (body) => expect(body).toBeInstanceOf(FormData),
      ],
      [
        "an unknown media type asked for as the first",
        { body: { name: "n", file: "f" }, contentType: "text/xml" },
        undefined,
        (body) => expect(body).toBeInstanceOf(FormData),
      ],
    ])("sends %s", async (_label, args, contentType, check) => {
      const fetch = fakeFetch(ok({}, 201));
      await send(CREATE, fetch, args);
      const init = fetch.calls[0]?.init;
      expect((init?.headers as Record<string, string> | undefined)?.["content-type"]).toBe(contentType);
      check(init?.body);
    });

    it("lets the client's headers override the body's Content-Type", async () => {
      const fetch = fakeFetch(ok({}, 201));
      await send(CREATE, fetch, { body: { name: "x" } }, undefined, {
        headers: { "content-type": "application/merge-patch+json" },
      });
      expect(fetch.calls[0]?.init.headers).toMatchObject({ "content-type": "application/merge-patch+json" });
    });

    it("checks every part with its validator, as it will be sent, and lists every issue", async () => {
      const seen: unknown[] = [];
      const spy =
        (validator: Validator): Validator =>
        (value, options) => {
          seen.push(value);
          return validator(value, options);
        };
      const checked = route({
        ...GET_WORKER,
        method: "POST",
        body: { required: false, pointer: "#/b", contents: [content("multipart/form-data", ["file"])] },
        validators: {
          pathParams: spy(refusing("/id must be integer")),
          query: spy(accepting()),
          headers: spy(refusing("/X-Trace must be string")),
          body: { "multipart/form-data": spy(refusing("/file must be a name")) },
          responses: {},
        },
      });
      const fetch = fakeFetch(ok());
      const error = await rejection(
        send(checked, fetch, {
          path: { id: 2 ** 53, day: "d" },
          query: { tags: "one", limit: 3 },
          headers: { "X-Trace": ["a", "b"] },
          body: { file: new Blob(["x"]), name: "n" },
        }),
      );
      expect(seen).toEqual([
        { id: "9007199254740992", day: "d" },
        { tags: ["one"], limit: "3" },
        { "X-Trace": "a,b" },
        { file: "", name: "n" },
      ]);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).errors.map((issue) => `${issue.in} ${issue.message}`)).toEqual([
        "path /id must be integer",
        "header /X-Trace must be string",
        "body /file must be a name",
      ]);
      expect(fetch.calls).toEqual([]);
    });

    it("reports a missing required body, as the server does", async () => {
      const error = await rejection(send(CREATE, fakeFetch(ok())));
      expect((error as RequestValidationError).errors).toEqual([
        {
          in: "body",
          instancePath: "",
          schemaPath: "#/paths/~1things/post/requestBody/required",
          keyword: "required",
          params: {},
          message: "is required",
        },
      ]);
    });

    it("sends anything without checks", async () => {
      const fetch = fakeFetch(() => ok({}, 201));
      await send(CREATE, fetch, { body: { name: 5 } }, undefined, { validateRequests: false });
      expect(fetch.calls[0]?.init.body).toBe('{"name":5}');
      await send(CREATE, fetch, {}, undefined, { validateRequests: false });
      expect(fetch.calls[1]?.init.body).toBeUndefined();
    });
  });

  describe("the answer", () => {
    it("throws an ApiError for an answer that is not 2xx", async () => {
      const problem = { type: "urn:x", title: "Not Found", status: 404, detail: "No worker 7." };
      const error = await rejection(
        send(
          GET_WORKER,
          fakeFetch(
            new Response(JSON.stringify(problem), {
              status: 404,
              headers: { "content-type": "application/problem+json" },
            }),
          ),
          { path: { id: 7, day: "d" } },
        ),
      );
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 404, problem, message: "getWorker: 404 Not Found: No worker 7." });
    });

    it("checks a success body when asked to", async () => {
      const checked = route({ validators: { body: {}, responses: { "200": stringProperties("name") } } });
      expect(await send(checked, fakeFetch(ok({ name: 1 })))).toEqual({ name: 1 });
      const error = await rejection(
        send(checked, fakeFetch(ok({ name: 1 })), {}, undefined, { validateResponses: checkingAnswers() }),
      );
      expect(error).toBeInstanceOf(ResponseValidationError);
    });

    it("turns a body that breaks off into a network failure", async () => {
      const broken = (): Response =>
        new Response(new ReadableStream({ pull: (controller) => controller.error(new TypeError("terminated")) }), {
          status: 200,
          headers: { "content-type": "application/json" },
        });
      const error = await rejection(send(route(), fakeFetch(broken)));
      expect(error).toBeInstanceOf(ApiNetworkError);
      expect((error as ApiNetworkError).message).toBe("getThings: network failure: terminated");
    });
  });

  describe("failures, retries, timeouts and cancellation", () => {
    const retry = retrying({ retries: 2, random: () => 0.5 });

    it("turns a fetch failure into an ApiNetworkError", async () => {
      const cause = new TypeError("fetch failed");
      const error = await rejection(send(route(), fakeFetch(cause)));
      expect(error).toBeInstanceOf(ApiNetworkError);
      expect((error as ApiNetworkError).cause).toBe(cause);
    });

    it("retries an idempotent call after a 503 and a network failure, waiting its backoff each time", async () => {
      vi.useFakeTimers();
      const fetch = fakeFetch(new Response("busy", { status: 503 }), new TypeError("fetch failed"), ok({ done: true }));
      const outcome = send(route(), fetch, {}, undefined, { retry });
      await vi.advanceTimersByTimeAsync(49);
      expect(fetch.calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(fetch.calls).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(100);
      expect(fetch.calls).toHaveLength(3);
      expect(await outcome).toEqual({ done: true });
    });

    it("gives up after the last retry with the last answer's error", async () => {
      vi.useFakeTimers();
      const fetch = fakeFetch(() => new Response("busy", { status: 503, statusText: "Service Unavailable" }));
      const outcome = rejection(send(route(), fetch, {}, undefined, { retry }));
      await vi.runAllTimersAsync();
      expect(await outcome).toMatchObject({ status: 503, message: "getThings: 503 Service Unavailable: busy" });
      expect(fetch.calls).toHaveLength(3);
    });

    it("does not retry a POST after a 500 or a network failure, but does after a 429 with Retry-After", async () => {
      vi.useFakeTimers();
      const post = route({ method: "POST" });
      const failed = fakeFetch(new Response(null, { status: 500 }));
      expect(await rejection(send(post, failed, {}, undefined, { retry }))).toBeInstanceOf(ApiError);
      const offline = fakeFetch(new TypeError("fetch failed"));
      expect(await rejection(send(post, offline, {}, undefined, { retry }))).toBeInstanceOf(ApiNetworkError);
      expect([failed.calls.length, offline.calls.length]).toEqual([1, 1]);
      const limited = fakeFetch(new Response(null, { status: 429, headers: { "retry-after": "2" } }), ok({ ok: 1 }));
      const outcome = send(post, limited, {}, undefined, { retry });
      await vi.advanceTimersByTimeAsync(1999);
      expect(limited.calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(await outcome).toEqual({ ok: 1 });
    });

    it("times out with an ApiTimeoutError, retries and waits included", async () => {
      vi.useFakeTimers();
      const fetch = hangingFetch();
      const outcome = rejection(send(route(), fetch, {}, undefined, { timeout: timingOut(100) }));
      await vi.advanceTimersByTimeAsync(100);
      const error = await outcome;
      expect(error).toBeInstanceOf(ApiTimeoutError);
      expect(error).toMatchObject({ timeoutMs: 100, message: "getThings: no complete answer within 100 ms" });
      expect((error as ApiTimeoutError).cause).toBeInstanceOf(DOMException);
      expect(fetch.calls[0]?.signal).toBeInstanceOf(AbortSignal);

      const waiting = fakeFetch(new Response(null, { status: 503 }));
      const retried = rejection(
        send(
          route(),
          waiting,
          {},
          { timeoutMs: 60 },
          { retry: retrying({ retries: 5, minDelayMs: 1000, random: () => 0.5 }), timeout: timingOut(10_000) },
        ),
      );
      await vi.advanceTimersByTimeAsync(60);
      expect(await retried).toMatchObject({ name: "ApiTimeoutError", timeoutMs: 60 });
      expect(waiting.calls).toHaveLength(1);
    });

    it("rejects with the caller's own abort reason, also during a retry wait", async () => {
      vi.useFakeTimers();
      const controller = new AbortController();
      const outcome = rejection(send(route(), hangingFetch(), {}, { signal: controller.signal }));
      const reason = new Error("user left");
      controller.abort(reason);
      expect(await outcome).toBe(reason);

      const later = new AbortController();
      const waiting = fakeFetch(new Response(null, { status: 503 }));
      const retried = rejection(
        send(
          route(),
          waiting,
          {},
          { signal: later.signal },
          { retry: retrying({ retries: 3, minDelayMs: 1000, random: () => 0.5 }) },
        ),
      );
      await vi.advanceTimersByTimeAsync(10);
      later.abort("stop");
      expect(await retried).toBe("stop");
      expect(waiting.calls).toHaveLength(1);
    });

    it("without a timeout policy, sends the caller's signal as it is and times nothing out", async () => {
      vi.useFakeTimers();
      const fetch = fakeFetch(ok({ fine: true }));
      const caller = new AbortController();
      expect(await send(route(), fetch, {}, { signal: caller.signal, timeoutMs: 5 })).toEqual({ fine: true });
      expect(fetch.calls[0]?.init.signal).toBe(caller.signal);
      expect(vi.getTimerCount()).toBe(0);
    });

    it("takes an infinite timeout for a call as no timeout", async () => {
      vi.useFakeTimers();
      const fetch = fakeFetch(ok({ fine: true }));
      expect(await send(route(), fetch, {}, { timeoutMs: Infinity }, { timeout: timingOut(5) })).toEqual({
        fine: true,
      });
      expect(vi.getTimerCount()).toBe(0);
    });
  });

  // A header parameter of style content is sent as JSON text (not as style simple would send it:
  // { a: 1 } → "a,1"), as query parameters of that style are, and the client checks the value itself.
  it("sends a header of style content as JSON text", async () => {
    const fetch = fakeFetch(ok());
    await send(route({ headers: [param("X-Filter", { style: "content" })] }), fetch, {
      headers: { "X-Filter": { a: [1, "b"] } },
    });
    expect(fetch.calls[0]?.init.headers).toMatchObject({ "x-filter": '{"a":[1,"b"]}' });
  });
});
