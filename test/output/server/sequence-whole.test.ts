/**
 * A media type that declares both `schema` and `itemSchema` (test/fixtures/openapi-3.2/,
 * `trackFlight`: JSON Lines of positions, two at most), over loopback HTTP: the stream is typed
 * and checked item by item by `itemSchema`, and the items as a whole by `schema` once they end.
 * The client yields every item, then a `ResponseValidationError` when the whole breaks the
 * `schema`; the Fastify server with checks on cuts such an answer short, after the items, so the
 * client sees a transport failure rather than a normal end; the mock skips an example whose items
 * break the whole's `schema`, and `Prefer: dynamic=true` builds none that do.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenFlights, type ServedFlights, serveFlights, serveUnchecked } from "./flights.js";

const track = { items: [] as unknown[] };
const handlers = {
  trackFlight: () => ({ status: 200, body: track.items }),
};
const positions = (count: number) => Array.from({ length: count }, (_, index) => ({ lat: index + 1, lon: -index - 1 }));

type Stream = (args: object) => Promise<AsyncIterable<unknown>>;
let served: ServedFlights;
let unchecked: { readonly base: string; close(): Promise<void> };

beforeAll(async () => {
  served = await serveFlights("sequence-whole", handlers, "createMockHandlers");
  unchecked = await serveUnchecked(served, handlers, "createMockHandlers");
}, 60_000);
afterAll(async () => {
  await unchecked?.close();
  await served?.close();
});

/** The items of trackFlight from `base`, and how they ended (undefined: normally). */
async function read(base: string, items?: unknown[]): Promise<{ got: unknown[]; failure: unknown }> {
  if (items !== undefined) track.items = items;
  const client = served.createClient({ baseUrl: base, apiKey: "k", validateResponses: true }) as unknown as {
    trackFlight: Stream;
  };
  const got: unknown[] = [];
  try {
    for await (const item of await client.trackFlight({ path: { number: "BA117" } })) got.push(item);
    return { got, failure: undefined };
  } catch (failure) {
    return { got, failure };
  }
}

describe("a stream whose media type declares both schema and itemSchema", () => {
  it("is read item by item, and checked as a whole once it ends", async () => {
    expect(await read(served.base, positions(2))).toEqual({ got: positions(2), failure: undefined });
  });

  it("the client yields every item, then a ResponseValidationError when the whole breaks the schema", async () => {
    const { got, failure } = await read(unchecked.base, positions(3));
    expect(got).toEqual(positions(3));
    expect(failure).toMatchObject({ name: "ResponseValidationError", errors: [{ keyword: "maxItems" }] });
  });

  it("an item that breaks the itemSchema still ends the items there", async () => {
    const { got, failure } = await read(unchecked.base, [
      { lat: 1, lon: 1 },
      { lat: 100, lon: 0 },
    ]);
    expect(got).toEqual([{ lat: 1, lon: 1 }]);
    expect(failure).toMatchObject({ name: "ResponseValidationError", errors: [{ instancePath: "/lat" }] });
  });

  it("the server with checks on cuts an answer whose whole breaks the schema, after its items", async () => {
    const { got, failure } = await read(served.base, positions(3));
    expect(got).toEqual(positions(3));
    expect(failure).toMatchObject({ name: "ApiNetworkError" });
  });

  it("Prefer: dynamic=true builds no items whose whole breaks the schema: the first example answers", async () => {
    const { server, out } = served;
    const { default: document } = (await import(join(out, "openapi.json"), { with: { type: "json" } })) as {
      default: unknown;
    };
    const app = await server.buildServer({
      handlers: server.answerPreferred(server.createMockHandlers(), document),
      authenticate: server.createKeyAuthenticator(["k"]),
      validateResponses: false,
    });
    try {
      const base = await listenFlights(app);
      const headers = { "x-api-key": "k", prefer: "dynamic=true" };
      const track = await fetch(`${base}/flights/BA117/track`, { headers });
      expect(track.headers.get("preference-applied")).toBeNull();
      expect(await track.text()).toBe('{"lat":1,"lon":1}\n{"lat":2,"lon":2}\n{"lat":3,"lon":3}\n');
      // where no whole limits them, three items are built
      const positions = await fetch(`${base}/flights/BA117/positions`, { headers });
      expect(positions.headers.get("preference-applied")).toBe("dynamic=true");
      expect((await positions.text()).trim().split("\n")).toHaveLength(3);
    } finally {
      await app.close();
    }
  });

  it("the mock answers the first example whose items and whole are valid", async () => {
    const mock = await serveFlights("sequence-whole-mock", {}, "createMockHandlers");
    try {
      const client = mock.createClient({ baseUrl: mock.base, apiKey: "k" }) as unknown as { trackFlight: Stream };
      const got: unknown[] = [];
      for await (const item of await client.trackFlight({ path: { number: "BA117" } })) got.push(item);
      expect(got).toEqual([
        { lat: 10, lon: 10 },
        { lat: 11, lon: 11 },
      ]);
    } finally {
      await mock.close();
    }
  }, 60_000);
});
