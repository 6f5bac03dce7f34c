/**
 * The mock's answers that are sequences of items (OpenAPI 3.2 `itemSchema`), over loopback HTTP
 * and through the MSW handlers in Node: the generated mock server (`answerPreferred` over
 * `createMockHandlers`, as `npm run mock` serves) streams the items of the operation's first
 * example as JSON Lines, `Prefer: example=` the named one (a `dataValue` listing the items, or a
 * `serializedValue` of the lines on the wire), `Prefer: code=` the status's first, `Prefer:
 * dynamic=true` items built from the item schema; an operation without an example streams an item
 * built from its item schema, an event's JSON `data` from its `contentSchema`. The generated
 * client reads each item typed and checked (test/fixtures/openapi-3.2/ and a spec of events here).
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../../src/index.js";
import { repoRoot } from "../../support/paths.js";
import { type FlightsHandler, listenFlights, withFlightsMsw } from "./flights.js";

type Handlers = Record<string, FlightsHandler>;
interface MockServer {
  buildServer(options: { handlers: Handlers; authenticate?: unknown }): Promise<FastifyInstance>;
  createMockHandlers(): Handlers;
  createKeyAuthenticator(keys: string[]): unknown;
  answerPreferred(handlers: Handlers, document: unknown): Handlers;
}
type Stream = (
  args?: object,
  options?: { headers?: Record<string, string>; signal?: AbortSignal },
) => Promise<AsyncIterable<unknown>>;
interface Output {
  readonly server: MockServer;
  readonly document: unknown;
  readonly createClient: (options: {
    baseUrl: string;
    apiKey?: string;
    validateResponses?: boolean;
  }) => Record<string, Stream>;
}

const root = join(repoRoot, ".tmp", `mock-streams-${process.pid}`);
const climbing = [
  { lat: 51.47, lon: -0.45 },
  { lat: 51.5, lon: -0.6 },
  { lat: 51.6, lon: -0.9 },
];
const landing = [
  { lat: 40.6, lon: -73.7 },
  { lat: 40.64, lon: -73.78 },
];
const path = { path: { number: "BA117" } };

/** Generates `spec` into `root/name` and imports what the tests call. */
async function output(spec: string, name: string): Promise<Output & { readonly out: string }> {
  const out = join(root, name);
  await generate({ spec, out });
  const server = (await import(join(out, "server", "index.ts"))) as MockServer;
  const { createClient } = (await import(join(out, "index.ts"))) as Pick<Output, "createClient">;
  const { default: document } = (await import(join(out, "openapi.json"), { with: { type: "json" } })) as {
    default: unknown;
  };
  return { out, server, createClient, document };
}

/** Serves the mock as `npm run mock` does: the mock handlers, preferences answered from the document. */
async function serveMock({ server, document }: Output): Promise<{ app: FastifyInstance; base: string }> {
  const app = await server.buildServer({
    handlers: server.answerPreferred(server.createMockHandlers(), document),
    authenticate: server.createKeyAuthenticator(["k"]),
  });
  return { app, base: await listenFlights(app) };
}

async function collect(items: AsyncIterable<unknown>): Promise<unknown[]> {
  const got: unknown[] = [];
  for await (const item of items) got.push(item);
  return got;
}

let flights: Output & { readonly out: string };
let mock: { app: FastifyInstance; base: string };
beforeAll(async () => {
  flights = await output(join(repoRoot, "test/fixtures/openapi-3.2/openapi.yaml"), "flights");
  mock = await serveMock(flights);
}, 60_000);
afterAll(async () => {
  await mock?.app.close();
  await rm(root, { recursive: true, force: true });
});

const streamOf = (base: string, prefer?: string): Promise<AsyncIterable<unknown>> => {
  const client = flights.createClient({ baseUrl: base, apiKey: "k", validateResponses: true });
  return (client as { streamPositions: Stream }).streamPositions(
    path,
    prefer === undefined ? {} : { headers: { prefer } },
  );
};

describe("the mock server's streams", () => {
  it("stream the first example's items as JSON Lines, each read typed and checked by the client", async () => {
    expect(await collect(await streamOf(mock.base))).toEqual(climbing);
    const raw = await fetch(`${mock.base}/flights/BA117/positions`, { headers: { "x-api-key": "k" } });
    expect(raw.headers.get("content-type")).toBe("application/jsonl");
    expect(await raw.text()).toBe(`${climbing.map((item) => JSON.stringify(item)).join("\n")}\n`);
  });

  it("answer Prefer: example= with that example's items, a serializedValue's lines cut into items", async () => {
    expect(await collect(await streamOf(mock.base, "example=landing"))).toEqual(landing);
    expect(await collect(await streamOf(mock.base, "example=climbing"))).toEqual(climbing);
    const raw = await fetch(`${mock.base}/flights/BA117/positions`, {
      headers: { "x-api-key": "k", prefer: "code=200, example=landing" },
    });
    expect(raw.headers.get("preference-applied")).toBe("code=200, example=landing");
    expect(await raw.text()).toBe('{"lat":40.6,"lon":-73.7}\n{"lat":40.64,"lon":-73.78}\n');
  });

  it("answer Prefer: code= with the status's first example, and refuse an example the stream does not have", async () => {
    expect(await collect(await streamOf(mock.base, "code=200"))).toEqual(climbing);
    await expect(streamOf(mock.base, "example=cruising")).rejects.toMatchObject({
      status: 400,
      body: { detail: expect.stringContaining("the examples climbing (200), landing (200)") },
    });
  });

  it("answer Prefer: dynamic=true with items built from the item schema, the same for the same seed", async () => {
    const first = await collect(await streamOf(mock.base, "dynamic=true; seed=7"));
    expect(first).toHaveLength(3);
    for (const item of first) expect(item).toMatchObject({ lat: expect.any(Number), lon: expect.any(Number) });
    expect(await collect(await streamOf(mock.base, "dynamic=true; seed=7"))).toEqual(first);
  });
});

describe("the MSW handlers' streams, in Node", () => {
  it("stream the mock's items, and a preferred example's with answerPreferred", async () => {
    const baseUrl = "https://flights.mock/v1";
    const { server, document } = flights;
    await withFlightsMsw(flights.out, server.createMockHandlers(), { baseUrl, authenticate: undefined }, async () => {
      expect(await collect(await streamOf(baseUrl))).toEqual(climbing);
    });
    // the mock handlers' own hook (any key) is kept under answerPreferred's wrapping
    const preferred = server.answerPreferred(server.createMockHandlers(), document);
    await withFlightsMsw(flights.out, preferred, { baseUrl, authenticate: undefined }, async () => {
      expect(await collect(await streamOf(baseUrl, "example=landing"))).toEqual(landing);
    });
  });
});

/** Server-sent events: one operation with an example written as the event stream, one without any. */
const EVENTS = `openapi: 3.2.0
info: { title: Gates, version: 1.0.0 }
paths:
  /gates:
    get:
      operationId: watchGates
      responses:
        "200":
          description: Gate changes.
          content:
            text/event-stream:
              itemSchema: { $ref: "#/components/schemas/GateEvent" }
              examples:
                boarding:
                  serializedValue: "event: gate\\nid: 1\\ndata: {\\"flight\\":\\"BA117\\",\\"gate\\":\\"B32\\"}\\n\\n: a comment\\nevent: gate\\nid: 2\\ndata: {\\"flight\\":\\"AF6\\",\\ndata: \\"gate\\":\\"K40\\"}\\n\\n"
  /gates/{flight}:
    get:
      operationId: watchGate
      parameters:
        - { name: flight, in: path, required: true, schema: { type: string } }
      responses:
        "200":
          description: The flight's gate changes.
          content:
            text/event-stream:
              itemSchema: { $ref: "#/components/schemas/GateEvent" }
components:
  schemas:
    Gate:
      type: object
      required: [flight, gate]
      properties:
        flight: { type: string, minLength: 3 }
        gate: { type: string, pattern: "^[A-Z][0-9]{1,2}$" }
    GateEvent:
      type: object
      required: [event, data]
      properties:
        event: { const: gate }
        id: { type: string }
        data:
          type: string
          contentMediaType: application/json
          contentSchema: { $ref: "#/components/schemas/Gate" }
`;

describe("the mock's server-sent events", () => {
  it("stream an example written as the event stream, and an event built with its JSON data", async () => {
    await mkdir(root, { recursive: true });
    const spec = join(root, "gates.yaml");
    await writeFile(spec, EVENTS);
    const gates = await output(spec, "gates");
    const served = await serveMock(gates);
    try {
      // a document without servers: its base path is ""
      const client = gates.createClient({ baseUrl: served.base.replace(/\/v1$/, ""), validateResponses: true }) as {
        watchGates: Stream;
        watchGate: Stream;
      };
      expect(await collect(await client.watchGates())).toEqual([
        { event: "gate", id: "1", data: { flight: "BA117", gate: "B32" } },
        { event: "gate", id: "2", data: { flight: "AF6", gate: "K40" } },
      ]);
      const built = await collect(await client.watchGate({ path: { flight: "BA117" } }));
      expect(built).toHaveLength(1);
      expect(built[0]).toMatchObject({
        event: "gate",
        data: { flight: expect.any(String), gate: expect.stringMatching(/^[A-Z][0-9]{1,2}$/) },
      });
    } finally {
      await served.app.close();
    }
  }, 60_000);
});
