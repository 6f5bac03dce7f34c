/**
 * Request bodies that are sequences of items (OpenAPI 3.2 `itemSchema`, here JSON Lines) over
 * loopback HTTP (test/fixtures/openapi-3.2/, `importFlights`): the generated client streams an
 * iterable or async iterable of items, and the generated Fastify server and the MSW handlers hand
 * the handler an async iterable of items, each checked as it arrives; an item that does not parse
 * or match is a 400 naming its position, after the items before it were handed over.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServedFlights, serveFlights, slowly, withFlightsMsw } from "./flights.js";

type Handler = (input: { body: AsyncIterable<unknown> }) => unknown;

const received: unknown[] = [];
const handlers: Record<string, Handler> = {
  importFlights: async ({ body }) => {
    received.length = 0;
    for await (const flight of body) received.push(flight);
    return { status: 200, body: { count: received.length } };
  },
};
const flights = [
  { status: "scheduled", number: "BA117", origin: "LHR", destination: "JFK" },
  { status: "cancelled", number: "AF6", origin: "CDG", destination: "JFK", reason: "Weather." },
];
let served: ServedFlights;
let server: ServedFlights["server"];
let createClient: ServedFlights["createClient"];
let out = "";
let base = "";

beforeAll(async () => {
  served = await serveFlights("upload-items", handlers, "createStubHandlers");
  ({ server, createClient, out, base } = served);
}, 60_000);
afterAll(() => served?.close());

/** POSTs JSON Lines text to the import; the status and the JSON answer. */
async function postLines(text: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}/flights/imports`, {
    method: "POST",
    headers: { "x-api-key": "k", "content-type": "application/jsonl" },
    body: text,
  });
  return { status: response.status, body: await response.json() };
}

describe("a request body of JSON Lines items", () => {
  it("is streamed by the client from an async iterable (or a list) and read item by item by the server", async () => {
    const client = createClient({ baseUrl: base, apiKey: "k" });
    expect(await client["importFlights"]?.({ body: slowly(flights) })).toEqual({ count: 2 });
    expect(received).toEqual(flights);
    expect(await client["importFlights"]?.({ body: flights.slice(0, 1) })).toEqual({ count: 1 });
    expect(received).toEqual(flights.slice(0, 1));
  });

  it("ends with a 400 at the first item that does not match or parse, after the items before it", async () => {
    // unchecked by the client, which would refuse the wrong item itself (upload-items-checked.test.ts)
    const client = createClient({ baseUrl: base, apiKey: "k", validateRequests: false });
    const wrong = { status: "cancelled", number: "AF6", origin: "CDG", destination: "JFK" };
    await expect(client["importFlights"]?.({ body: slowly([flights[0], wrong]) })).rejects.toMatchObject({
      status: 400,
    });
    expect(received).toEqual([flights[0]]);
    const broken = await postLines(`${JSON.stringify(flights[0])}\n{"status":\n`);
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ errors: [{ in: "body", instancePath: "/1", keyword: "json" }] });
    const invalid = await postLines(`${JSON.stringify(wrong)}\n`);
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ errors: [{ in: "body", instancePath: expect.stringMatching(/^\/0/) }] });
  });
});

describe("the MSW handlers", () => {
  it("hand the handler the items as the Fastify server does", async () => {
    const baseUrl = "https://flights.example/v1";
    const authenticate = server.createKeyAuthenticator(["k"]);
    await withFlightsMsw(out, { ...server.createStubHandlers(), ...handlers }, { baseUrl, authenticate }, async () => {
      const client = createClient({ baseUrl, apiKey: "k" });
      expect(await client["importFlights"]?.({ body: slowly(flights) })).toEqual({ count: 2 });
      expect(received).toEqual(flights);
    });
  });
});
