/**
 * An upload of items (test/fixtures/openapi-3.2/, `importFlights`) aborted by the generated client
 * at a wrong item, after uploads to the same server over the same keep-alive connections, some
 * read to their end and one refused (400): the handler's items end with the stream's error, and
 * the server then closes at once, though fetch left a connection open that never sent a byte.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ServedFlights, serveFlights, slowly } from "./flights.js";

type Handler = (input: { body: AsyncIterable<unknown> }) => unknown;

const received: unknown[] = [];
/** how the handler's last body of items ended: read to its end, or cut short by this error */
let ending: { readonly end: true } | { readonly error: unknown } | undefined;
const handlers: Record<string, Handler> = {
  importFlights: async ({ body }) => {
    received.length = 0;
    ending = undefined;
    const read = async (): Promise<void> => {
      for await (const flight of body) received.push(flight);
    };
    ending = await read().then(
      () => ({ end: true }) as const,
      (error: unknown) => ({ error }),
    );
    if ("error" in ending) throw ending.error;
    return { status: 200, body: { count: received.length } };
  },
};
const flights = [
  { status: "scheduled", number: "BA117", origin: "LHR", destination: "JFK" },
  { status: "cancelled", number: "AF6", origin: "CDG", destination: "JFK", reason: "Weather." },
];
// cancelled without the reason a cancelled flight needs
const wrong = { status: "cancelled", number: "AF6", origin: "CDG", destination: "JFK" };
let served: ServedFlights | undefined;

beforeAll(async () => {
  served = await serveFlights("upload-items-abort", handlers, "createStubHandlers");
}, 60_000);
afterAll(() => served?.close());

/** How long `promise` took to settle, in ms, or a rejection once `bound` ms have passed. */
async function within(promise: Promise<unknown>, bound: number): Promise<number> {
  const start = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not settled within ${bound} ms`)), bound);
  });
  try {
    await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
  return Date.now() - start;
}

describe("an upload of items aborted after others to the same server", () => {
  it("ends the handler's items with an error, and the server closes at once", async () => {
    if (served === undefined) throw new Error("the server did not start");
    const { base, createClient } = served;
    const unchecked = createClient({ baseUrl: base, apiKey: "k", validateRequests: false });
    expect(await unchecked["importFlights"]?.({ body: slowly(flights) })).toEqual({ count: 2 });
    expect(await unchecked["importFlights"]?.({ body: flights.slice(0, 1) })).toEqual({ count: 1 });
    expect(ending).toEqual({ end: true });
    await expect(unchecked["importFlights"]?.({ body: slowly([flights[0], wrong]) })).rejects.toMatchObject({
      status: 400,
    });
    expect(ending).toMatchObject({ error: { problem: { status: 400 } } });

    ending = undefined;
    const checked = createClient({ baseUrl: base, apiKey: "k" });
    await expect(
      checked["importFlights"]?.({ body: [flights[0], flights[1], wrong, flights[0]] }),
    ).rejects.toMatchObject({ name: "RequestValidationError", errors: [{ instancePath: "/2" }] });
    await vi.waitFor(() => expect(ending).toMatchObject({ error: { message: "aborted", code: "ECONNRESET" } }), {
      timeout: 5000,
    });
    expect(received).toEqual(flights);

    const closing = served.close();
    served = undefined;
    expect(await within(closing, 5000)).toBeLessThan(5000);
  }, 30_000);
});
