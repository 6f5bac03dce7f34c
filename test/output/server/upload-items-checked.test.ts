/**
 * A request body of JSON Lines items (test/fixtures/openapi-3.2/, `importFlights`) checked by the
 * generated client as it sends it, over loopback HTTP to the generated Fastify server and through
 * the MSW handlers: with `validateRequests`, each item of a list or an async generator is checked
 * against the item schema before it is framed; a wrong third item ends the upload with a
 * RequestValidationError at `/2`, the two before it handed to the handler, whose body is cut short
 * (it never ends normally), nothing of the wrong item sent and no item after it asked for. With
 * `validateRequests: false` the items go unchecked and the server refuses the third.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ServedFlights, serveFlights, withFlightsMsw } from "./flights.js";

type Handler = (input: { body: AsyncIterable<unknown> }) => unknown;

const received: unknown[] = [];
/** how the handler's last body of items ended: read to its end, or cut short */
let ending: "end" | "cut" | undefined;
const handlers: Record<string, Handler> = {
  importFlights: async ({ body }) => {
    received.length = 0;
    ending = undefined;
    try {
      for await (const flight of body) received.push(flight);
    } catch (error) {
      ending = "cut";
      throw error;
    }
    ending = "end";
    return { status: 200, body: { count: received.length } };
  },
};
const flights = [
  { status: "scheduled", number: "BA117", origin: "LHR", destination: "JFK" },
  { status: "cancelled", number: "AF6", origin: "CDG", destination: "JFK", reason: "Weather." },
];
// cancelled without the reason a cancelled flight needs
const wrong = { status: "cancelled", number: "AF6", origin: "CDG", destination: "JFK" };
let served: ServedFlights;

beforeAll(async () => {
  served = await serveFlights("upload-items-checked", handlers, "createStubHandlers");
}, 60_000);
afterAll(() => served?.close());

/**
 * Uploads two good flights, a wrong third and a good fourth (a list, then an async generator) with
 * `validateRequests` on, to `baseUrl`.
 */
async function checkCutShort(baseUrl: string): Promise<void> {
  const client = served.createClient({ baseUrl, apiKey: "k" });
  const items = [flights[0], flights[1], wrong, flights[0]];
  let asked = 0;
  async function* counted(): AsyncGenerator<unknown> {
    for (const item of items) {
      asked += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      yield item;
    }
  }
  for (const body of [items, counted()]) {
    ending = undefined;
    const error = await client["importFlights"]?.({ body }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({
      name: "RequestValidationError",
      operationId: "importFlights",
      errors: [{ in: "body", instancePath: "/2", keyword: "required", params: { missingProperty: "reason" } }],
    });
    expect((error as Error).message).toBe(
      "importFlights: invalid request: body /2 must have required property 'reason'",
    );
    await vi.waitFor(() => expect(ending).toBe("cut"));
    expect(received).toEqual(flights);
  }
  expect(asked).toBe(3);
}

describe("a request body of items checked by the client as it sends them", () => {
  it("ends the upload at a wrong third item, cut short after the two before (Fastify)", async () => {
    await checkCutShort(served.base);
  });

  it("ends it the same way through the MSW handlers", async () => {
    const baseUrl = "https://flights.example/v1";
    const { server, out } = served;
    const authenticate = server.createKeyAuthenticator(["k"]);
    await withFlightsMsw(out, { ...server.createStubHandlers(), ...handlers }, { baseUrl, authenticate }, () =>
      checkCutShort(baseUrl),
    );
  });

  it("sends every item unchecked with validateRequests off, the server refusing the third", async () => {
    const client = served.createClient({ baseUrl: served.base, apiKey: "k", validateRequests: false });
    await expect(client["importFlights"]?.({ body: [flights[0], flights[1], wrong] })).rejects.toMatchObject({
      status: 400,
      body: { errors: [{ in: "body", instancePath: "/2", keyword: "required" }] },
    });
    expect(received).toEqual(flights);
    expect(ending).toBe("cut");
  });
});
