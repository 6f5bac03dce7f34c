/**
 * OpenAPI 3.2's operations end to end over loopback HTTP (test/fixtures/openapi-3.2/): a `query`
 * operation (HTTP QUERY, a safe read with a body) and an `additionalOperations` one (PURGE), called
 * by the generated client and served by the generated Fastify server and by the MSW handlers; the
 * mock answers an example's `dataValue` and `Prefer: example=` picks one; the TanStack Query
 * options read a QUERY as a query, its body in its key. The output's typecheck is the golden test's.
 */
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { QueryClient } from "@tanstack/query-core";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../../src/index.js";
import { repoRoot } from "../../support/paths.js";
import { listenFlights, withFlightsMsw } from "./flights.js";

const out = join(repoRoot, ".tmp", `openapi-3.2-${process.pid}`);
const spec = join(repoRoot, "test/fixtures/openapi-3.2/openapi.yaml");

type Input = { params: unknown; body: unknown; request: { method: string } };
type Handler = (input: Input) => unknown;
type Call = (args?: object) => Promise<unknown>;
interface ServerModule {
  buildServer(options: { handlers: Record<string, Handler>; authenticate: unknown }): Promise<FastifyInstance>;
  createKeyAuthenticator(keys: string[]): unknown;
  createMockHandlers(): Record<string, Handler>;
  answerPreferred(handlers: Record<string, Handler>, document: object): Record<string, Handler>;
}
interface PackageModule {
  createClient(options: { baseUrl: string; apiKey: string }): Record<string, Call>;
  createBaseClient(options: { baseUrl: string; apiKey: string }): object;
}
interface QueryModule {
  searchFlightsQueryKey(input: object): unknown[];
  searchFlightsQueryOptions(client: object, input: object): { queryKey: unknown[]; queryFn: () => Promise<unknown> };
  invalidates: Record<string, readonly string[]>;
}

const flights = [{ status: "scheduled", number: "BA117", origin: "LHR", destination: "JFK" }];
const seen: { method: string; body: unknown; params: unknown }[] = [];
const handlers: Record<string, Handler> = {
  searchFlights: ({ body, request, params }) => {
    seen.push({ method: request.method, body, params });
    return { status: 200, body: { flights } };
  },
  purgeFlight: ({ params, request }) => {
    seen.push({ method: request.method, body: undefined, params });
    return { status: 204 };
  },
};
let server: ServerModule;
let pkg: PackageModule;
let app: FastifyInstance;
let base = "";

beforeAll(async () => {
  await generate({ spec, out });
  server = (await import(join(out, "server", "index.ts"))) as ServerModule;
  pkg = (await import(join(out, "index.ts"))) as PackageModule;
  const mock = server.createMockHandlers();
  app = await server.buildServer({
    handlers: server.answerPreferred(
      { ...mock, ...handlers },
      JSON.parse(await readFile(join(out, "openapi.json"), "utf8")),
    ),
    authenticate: server.createKeyAuthenticator(["k"]),
  });
  base = await listenFlights(app);
}, 60_000);
afterAll(async () => {
  await app?.close();
  await rm(out, { recursive: true, force: true });
});

describe("a QUERY operation and an additional operation (PURGE)", () => {
  it("are called by the client and served by Fastify with their method", async () => {
    seen.length = 0;
    const client = pkg.createClient({ baseUrl: base, apiKey: "k" });
    expect(await client["searchFlights"]?.({ body: { origin: "LHR" } })).toEqual({ flights });
    expect(await client["purgeFlight"]?.({ path: { number: "BA117" } })).toBeUndefined();
    expect(seen).toEqual([
      { method: "QUERY", body: { origin: "LHR" }, params: {} },
      { method: "PURGE", body: undefined, params: { number: "BA117" } },
    ]);
  });

  it("check a QUERY's body as any body is checked, on both sides", async () => {
    const client = pkg.createClient({ baseUrl: base, apiKey: "k" });
    await expect(client["searchFlights"]?.({ body: { origin: "LONDON" } })).rejects.toMatchObject({
      name: "RequestValidationError",
      errors: [{ in: "body", instancePath: "/origin" }],
    });
    const raw = await fetch(`${base}/flights/search`, {
      method: "QUERY",
      headers: { "x-api-key": "k", "content-type": "application/json" },
      body: JSON.stringify({}),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ errors: [{ in: "body", keyword: "required" }] });
    const unknown = await fetch(`${base}/flights/BA117`, { method: "PURGE", headers: { "x-api-key": "nope" } });
    expect(unknown.status).toBe(401);
  });

  it("the mock answers an example's dataValue, and Prefer: example= picks one", async () => {
    const none = await fetch(`${base}/flights/search`, {
      method: "QUERY",
      headers: { "x-api-key": "k", "content-type": "application/json", prefer: "example=none" },
      body: JSON.stringify({ origin: "LHR" }),
    });
    expect(await none.json()).toEqual({ flights: [] });
    const two = await fetch(`${base}/flights/search`, {
      method: "QUERY",
      headers: { "x-api-key": "k", "content-type": "application/json", prefer: "example=two" },
      body: JSON.stringify({ origin: "LHR" }),
    });
    expect(((await two.json()) as { flights: unknown[] }).flights).toHaveLength(2);
    const answer = (await server.createMockHandlers()["searchFlights"]?.({} as Input)) as { body: { flights: [] } };
    expect(answer.body.flights).toHaveLength(2);
  });

  it("are served by the MSW handlers the same way", async () => {
    seen.length = 0;
    const baseUrl = "https://flights.example/v1";
    const authenticate = server.createKeyAuthenticator(["k"]);
    await withFlightsMsw(out, { ...server.createMockHandlers(), ...handlers }, { baseUrl, authenticate }, async () => {
      const client = pkg.createClient({ baseUrl, apiKey: "k" });
      expect(await client["searchFlights"]?.({ body: { origin: "CDG" } })).toEqual({ flights });
      expect(await client["purgeFlight"]?.({ path: { number: "AF6" } })).toBeUndefined();
      expect(seen.map((call) => call.method)).toEqual(["QUERY", "PURGE"]);
    });
  });

  it("TanStack Query reads a QUERY as a query, keyed by its body", async () => {
    const query = (await import(join(out, "query", "index.ts"))) as QueryModule;
    const input = { body: { origin: "LHR" } };
    expect(query.searchFlightsQueryKey(input)).toEqual(["flights", "flights", "search", { body: input.body }]);
    expect(query.invalidates).not.toHaveProperty("searchFlights");
    expect(query.invalidates["purgeFlight"]).toEqual(["getFlight"]);
    const queryClient = new QueryClient();
    const client = pkg.createBaseClient({ baseUrl: base, apiKey: "k" });
    expect(await queryClient.fetchQuery(query.searchFlightsQueryOptions(client, input))).toEqual({ flights });
  });
});
