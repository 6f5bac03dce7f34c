/**
 * createMswHandlers over msw/node: the same answers as the Fastify server for the same requests
 * (one pipeline), the examples with the mock handlers, POST then GET over the sandbox's handlers
 * on an in-memory PGlite (each sandbox its own state), and typed overrides.
 */
import type { FastifyInstance } from "fastify";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, createClient, isApiError, type Problem } from "../../../generated/index.js";
import { createMswHandlers } from "../../../generated/msw/index.js";
import { buildServer, createMockHandlers, createStubHandlers, mockAnswers } from "../../../generated/server/index.js";
import { createSandbox, type Sandbox } from "../../../sandbox/index.js";

const API = "http://api.test/api/1_12";
const HARBOR = "demo-key-harbor";
const SUMMIT = "demo-key-summit";
const acceptKey = (key: string): boolean => key === "k";

/** One server for the whole file: each test installs its handlers with `server.use`. */
const server = setupServer();
let fastify: FastifyInstance;
let sandboxes: Sandbox[] = [];

beforeAll(async () => {
  server.listen({ onUnhandledRequest: "error" });
  fastify = await buildServer({ handlers: createMockHandlers(), authenticate: acceptKey });
});

afterAll(async () => {
  server.close();
  await fastify.close();
  await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
});

/** A request as both transports get it. */
interface Probe {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** What an answer is compared by. */
async function comparable(status: number, headers: Headers | Record<string, unknown>, text: string): Promise<unknown> {
  const get = (name: string): unknown => (headers instanceof Headers ? headers.get(name) : headers[name]) ?? null;
  return { status, type: get("content-type"), allow: get("allow"), body: text === "" ? "" : JSON.parse(text) };
}

const PROBES: readonly Probe[] = [
  { method: "GET", path: "/events", headers: { "x-api-key": "k" } },
  { method: "GET", path: "/events" },
  { method: "GET", path: "/events", headers: { "x-api-key": "wrong" } },
  {
    method: "POST",
    path: "/venues",
    headers: { "x-api-key": "k", "content-type": "application/json" },
    body: '{"name":"Hall","address":"1 Road","city":"Town","zip":"1"}',
  },
  {
    method: "POST",
    path: "/venues",
    headers: { "x-api-key": "k", "content-type": "application/json" },
    body: '{"name":',
  },
  {
    method: "POST",
    path: "/venues",
    headers: { "x-api-key": "k", "content-type": "application/json" },
    body: '{"name":7}',
  },
  { method: "POST", path: "/venues", headers: { "x-api-key": "k", "content-type": "text/plain" }, body: "Hall" },
  {
    method: "POST",
    path: "/venues",
    headers: { "x-api-key": "k", "content-type": "application/json" },
    body: `{"name":"${"x".repeat(1_100_000)}"}`,
  },
  {
    method: "PATCH",
    path: "/events/abc",
    headers: { "x-api-key": "k", "content-type": "application/json" },
    body: "{}",
  },
  {
    method: "PATCH",
    path: "/events/%E0%A4%A",
    headers: { "x-api-key": "k", "content-type": "application/json" },
    body: "{}",
  },
  { method: "DELETE", path: "/events", headers: { "x-api-key": "k" } },
  { method: "GET", path: "/nowhere", headers: { "x-api-key": "k" } },
];

describe("createMswHandlers", () => {
  it("answers every request as the Fastify server does: status, media type, Allow and problem", async () => {
    server.use(...createMswHandlers(createMockHandlers(), { baseUrl: API, authenticate: acceptKey }));
    for (const probe of PROBES) {
      const init = {
        method: probe.method,
        headers: { ...probe.headers },
        ...(probe.body === undefined ? {} : { body: probe.body }),
      };
      const viaMsw = await fetch(`${API}${probe.path}`, init);
      const viaFastify = await fastify.inject({
        ...init,
        method: probe.method as "GET",
        url: `/api/1_12${probe.path}`,
        ...(probe.body === undefined ? {} : { payload: probe.body }),
      });
      const msw = await comparable(viaMsw.status, viaMsw.headers, await viaMsw.text());
      expect(msw, `${probe.method} ${probe.path}`).toEqual(
        await comparable(viaFastify.statusCode, viaFastify.headers, viaFastify.body),
      );
    }
  });

  it("answers the examples with the mock handlers, through the generated client", async () => {
    server.use(...createMswHandlers(createMockHandlers(), { authenticate: acceptKey }));
    const client = createClient({ apiKey: "k" });
    expect(await client.listEvents()).toEqual(mockAnswers.listEvents?.body);
    await expect(client.listEvents(undefined, { headers: { "x-api-key": "nope" } })).rejects.toMatchObject({
      status: 401,
    });
  });

  it("keeps the sandbox's state: a created event is listed, in that sandbox only; a sandbox is taken as it is", async () => {
    const [first, second] = await Promise.all([createSandbox(), createSandbox()]);
    sandboxes = [first, second];
    server.use(
      ...createMswHandlers(first.handlers, { baseUrl: "http://first.test/api/1_12", authenticate: first.authenticate }),
    );
    // the sandbox itself: its handlers with its authenticate hook
    server.use(...createMswHandlers(second, { baseUrl: "http://second.test/api/1_12" }));
    const client = createClient({ baseUrl: "http://first.test/api/1_12", apiKey: HARBOR });
    const other = createClient({ baseUrl: "http://second.test/api/1_12", apiKey: HARBOR });
    const before = await client.listEvents();
    const id = await client.createEvent({ body: { name: "Launch", date: "2026-12-01", venue: { name: "Pier 4" } } });
    const after = await client.listEvents();
    expect(after.total_count).toBe((before.total_count ?? 0) + 1);
    expect(after.data?.find((event) => event.id === id)?.name).toBe("Launch");
    expect((await other.listEvents()).data?.some((event) => event.name === "Launch")).toBe(false);
    // the other company's key does not see it either (tenancy is the handlers' own rule)
    const summit = createClient({ baseUrl: "http://first.test/api/1_12", apiKey: SUMMIT });
    expect((await summit.listEvents()).data?.some((event) => event.id === id)).toBe(false);
    const stranger = createClient({ baseUrl: "http://second.test/api/1_12", apiKey: "not-a-key" });
    await expect(stranger.listEvents()).rejects.toMatchObject({ status: 401 });
  });

  it("serves overrides through the same checks: a declared 404, and an answer breaking the contract refused", async () => {
    const notFound: Problem = { type: "urn:problem-type:not-found", title: "Not Found", status: 404 };
    server.use(
      ...createMswHandlers(createStubHandlers(), {
        authenticate: acceptKey,
        log: { info: () => undefined, warn: () => undefined, error: () => undefined },
        overrides: {
          updateEvent: async ({ params }) => ({ status: 404, body: { ...notFound, detail: `No event ${params.id}.` } }),
          listEvents: () => ({ status: 200, body: { data: "not a list" } as never }),
        },
      }),
    );
    const client = createClient({ apiKey: "k" });
    const error = await client
      .updateEvent({ path: { id: "9" }, body: { name: "Gala", date: "2026-12-02", venue: { name: "Hall" } } })
      .catch((caught: unknown) => caught);
    if (!isApiError(error, "updateEvent")) return expect.fail(`not a declared error of updateEvent: ${String(error)}`);
    expect(error.status === 404 ? error.body.detail : undefined).toBe("No event 9.");
    expect(isApiError(error, "createVenue")).toBe(false);
    await expect(client.listEvents()).rejects.toMatchObject({
      status: 500,
      problem: { type: "urn:problem-type:response-validation-failed" },
    });
    await expect(
      client.createVenue({ body: { name: "Hall", address: "1 Road", city: "Town", zip: "1" } }),
    ).rejects.toMatchObject({ status: 501 });
  });
});

describe("isApiError", () => {
  const problem: Problem = { type: "urn:problem-type:not-found", title: "Not Found", status: 404 };
  const error = (operation: string, status: number, body: unknown): ApiError =>
    new ApiError(operation, new Response(null, { status }), body);

  it("is true for an error of the operation with a declared status and a body of its schema", () => {
    expect(isApiError(error("updateEvent", 404, problem), "updateEvent")).toBe(true);
    expect(isApiError(error("updateEvent", 500, undefined), "updateEvent")).toBe(true);
  });

  it("is false for another operation, an undeclared status, a body breaking the schema, or another error", () => {
    expect(isApiError(error("updateEvent", 404, problem), "updateClient")).toBe(false);
    expect(isApiError(error("listEvents", 404, problem), "listEvents")).toBe(false);
    expect(isApiError(error("updateEvent", 404, { title: 7 }), "updateEvent")).toBe(false);
    expect(isApiError(new Error("updateEvent"), "updateEvent")).toBe(false);
  });
});
