/**
 * OpenAPI 3.2's `in: querystring` end to end over loopback HTTP (test/fixtures/openapi-3.2/): the
 * whole query string as one value, a URL-encoded form (`findFlights`) and JSON (`filterFlights`),
 * encoded by the generated client, read and checked by the generated Fastify server, by the MSW
 * handlers and by the mock. The output's typecheck is the golden test's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenFlights, type ServedFlights, serveFlights, withFlightsMsw } from "./flights.js";

type Input = { query: unknown; request: { url: string } };
type Handler = (input: Input) => unknown;

const seen: { query: unknown; url: string }[] = [];
const record: Handler = ({ query, request }) => {
  seen.push({ query, url: request.url.slice(request.url.indexOf("/flights")) });
  return { status: 200, body: { flights: [] } };
};
const handlers: Record<string, Handler> = { findFlights: record, filterFlights: record };
let served: ServedFlights;
let server: ServedFlights["server"];
let createClient: ServedFlights["createClient"];
let out = "";
let base = "";

beforeAll(async () => {
  served = await serveFlights("querystring", handlers, "createMockHandlers");
  ({ server, createClient, out, base } = served);
}, 60_000);
afterAll(() => served?.close());

/** GET `target` under the base with the key; the status and the JSON answer. */
async function get(target: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}${target}`, { headers: { "x-api-key": "k" } });
  return { status: response.status, body: await response.json() };
}

describe("a query string that is a URL-encoded form", () => {
  it("is written by the client as a form and read by the server as its schema says", async () => {
    seen.length = 0;
    const client = createClient({ baseUrl: base, apiKey: "k" });
    await client["findFlights"]?.({ query: { origin: "LHR", limit: 5, carriers: ["BA", "AF"] } });
    await client["findFlights"]?.({ query: { origin: "C D", carriers: ["BA"] } });
    expect(seen).toEqual([
      {
        url: "/flights/find?origin=LHR&limit=5&carriers=BA&carriers=AF",
        query: { origin: "LHR", limit: 5, carriers: ["BA", "AF"] },
      },
      { url: "/flights/find?origin=C%20D&carriers=BA", query: { origin: "C D", carriers: ["BA"] } },
    ]);
  });

  it("is checked on both sides: the client refuses, the server answers 400 naming the query", async () => {
    const client = createClient({ baseUrl: base, apiKey: "k" });
    await expect(client["findFlights"]?.({ query: { origin: "LHR", limit: 99 } })).rejects.toMatchObject({
      name: "RequestValidationError",
      errors: [{ in: "query", instancePath: "/limit", keyword: "maximum" }],
    });
    const long = await get("/flights/find?origin=LONDON&limit=x");
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({
      errors: [
        { in: "query", instancePath: "/origin", keyword: "maxLength" },
        { in: "query", instancePath: "/limit", keyword: "type" },
      ],
    });
    const none = await get("/flights/find");
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({
      errors: [{ in: "query", keyword: "required", params: { missingProperty: "origin" } }],
    });
  });
});

describe("a query string that is JSON", () => {
  it("is sent percent-encoded whole, parsed and checked by the server; left out, it is undefined", async () => {
    seen.length = 0;
    const client = createClient({ baseUrl: base, apiKey: "k" });
    await client["filterFlights"]?.({ query: { origins: ["LHR", "CDG"], cancelled: false } });
    await client["filterFlights"]?.();
    const json = encodeURIComponent(JSON.stringify({ origins: ["LHR", "CDG"], cancelled: false }));
    expect(seen).toEqual([
      { url: `/flights/filter?${json}`, query: { origins: ["LHR", "CDG"], cancelled: false } },
      { url: "/flights/filter", query: undefined },
    ]);
  });

  it("that does not parse, or does not match its schema, is a 400 naming the query", async () => {
    const client = createClient({ baseUrl: base, apiKey: "k" });
    await expect(client["filterFlights"]?.({ query: { origins: ["LONDON"] } })).rejects.toMatchObject({
      name: "RequestValidationError",
      errors: [{ in: "query", instancePath: "/origins/0" }],
    });
    const broken = await get("/flights/filter?%7B%22origins%22");
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ errors: [{ in: "query", instancePath: "", keyword: "type" }] });
    const extra = await get(`/flights/filter?${encodeURIComponent('{"airline":"BA"}')}`);
    expect(extra.status).toBe(400);
    expect(extra.body).toMatchObject({ errors: [{ in: "query", keyword: "additionalProperties" }] });
  });
});

describe("the MSW handlers and the mock", () => {
  it("read and check the query string as the Fastify server does", async () => {
    seen.length = 0;
    const baseUrl = "https://flights.example/v1";
    const authenticate = server.createKeyAuthenticator(["k"]);
    await withFlightsMsw(out, { ...server.createMockHandlers(), ...handlers }, { baseUrl, authenticate }, async () => {
      const client = createClient({ baseUrl, apiKey: "k" });
      await client["findFlights"]?.({ query: { origin: "LHR", carriers: ["BA", "AF"] } });
      await client["filterFlights"]?.({ query: { cancelled: true } });
      expect(seen.map((call) => call.query)).toEqual([{ origin: "LHR", carriers: ["BA", "AF"] }, { cancelled: true }]);
      const refused = await fetch(`${baseUrl}/flights/find?limit=0`, { headers: { "x-api-key": "k" } });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        errors: [
          { in: "query", instancePath: "/limit", keyword: "minimum" },
          { in: "query", instancePath: "", keyword: "required" },
        ],
      });
    });
  });

  it("the mock answers a call with its query string", async () => {
    const mock = await server.buildServer({
      handlers: server.createMockHandlers(),
      authenticate: server.createKeyAuthenticator(["k"]),
    });
    const root = await listenFlights(mock);
    try {
      const client = createClient({ baseUrl: root, apiKey: "k" });
      expect(await client["filterFlights"]?.({ query: { origins: ["LHR"] } })).toHaveProperty("flights");
      const refused = await fetch(`${root}/flights/find?origin=X`, { headers: { "x-api-key": "k" } });
      expect(refused.status).toBe(400);
    } finally {
      await mock.close();
    }
  });
});
