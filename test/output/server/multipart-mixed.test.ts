/**
 * multipart/mixed as a sequence of items (OpenAPI 3.2 `itemSchema`, RFC 2046: a part each, a
 * string as text/plain, any other item as JSON), over loopback HTTP in both directions
 * (test/fixtures/openapi-3.2/, `readFlightNotes` and `addFlightNotes`): the generated Fastify
 * server writes a handler's items as parts under a boundary its Content-Type names, each followed
 * at once by its delimiter; the generated client yields each part's item typed and checked, and
 * sends an iterable of items as parts, which the server hands its handler one by one, checked. An
 * invalid item, a JSON part that does not parse, parts cut short (no close delimiter) and a body
 * without a boundary are told apart; the MSW handlers and the mock stream the same.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FlightsHandler,
  type ServedFlights,
  serveFlights,
  serveUnchecked,
  slowly,
  withFlightsMsw,
} from "./flights.js";

type Stream = (args: object) => Promise<AsyncIterable<unknown>>;
type Send = (args: object) => Promise<unknown>;
interface Notes {
  readFlightNotes: Stream;
  addFlightNotes: Send;
}

const notes = { out: [] as unknown[], received: [] as unknown[] };
const handlers: Record<string, FlightsHandler> = {
  readFlightNotes: () => ({ status: 200, body: notes.out }),
  addFlightNotes: async ({ body }: { body: AsyncIterable<unknown> }) => {
    notes.received = [];
    for await (const note of body) notes.received.push(note);
    return { status: 200, body: { count: notes.received.length } };
  },
};
const path = { path: { number: "BA117" } };
const sent = ["Boarding at gate B32.", { lat: 51.47, lon: -0.45 }, "Doors closed.\r\nPushback."];

let served: ServedFlights;
let unchecked: { readonly base: string; close(): Promise<void> };
beforeAll(async () => {
  served = await serveFlights("multipart-mixed", handlers, "createStubHandlers");
  unchecked = await serveUnchecked(served, handlers, "createStubHandlers");
}, 60_000);
afterAll(async () => {
  await unchecked?.close();
  await served?.close();
});

const client = (baseUrl: string): Notes =>
  served.createClient({ baseUrl, apiKey: "k", validateResponses: true }) as unknown as Notes;

async function collect(items: AsyncIterable<unknown>, got: unknown[] = []): Promise<unknown[]> {
  for await (const item of items) got.push(item);
  return got;
}

/** POSTs multipart/mixed text with the Content-Type given; the status and the JSON answer. */
async function postParts(text: string, contentType: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${served.base}/flights/BA117/notes`, {
    method: "POST",
    headers: { "x-api-key": "k", "content-type": contentType },
    body: text,
  });
  return { status: response.status, body: await response.json() };
}

describe("an answer of multipart/mixed items", () => {
  it("is written a part each under the boundary its Content-Type names, and read item by item", async () => {
    notes.out = sent;
    expect(await collect(await client(served.base).readFlightNotes(path))).toEqual(sent);
    const raw = await fetch(`${served.base}/flights/BA117/notes`, { headers: { "x-api-key": "k" } });
    const boundary = /^multipart\/mixed; boundary=(\S+)$/.exec(raw.headers.get("content-type") ?? "")?.[1];
    expect(boundary).toMatch(/^item-[0-9a-f]{36}$/);
    expect(await raw.text()).toBe(
      `--${boundary}\r\ncontent-type: text/plain; charset=utf-8\r\n\r\nBoarding at gate B32.\r\n--${boundary}` +
        `\r\ncontent-type: application/json\r\n\r\n{"lat":51.47,"lon":-0.45}\r\n--${boundary}` +
        `\r\ncontent-type: text/plain; charset=utf-8\r\n\r\nDoors closed.\r\nPushback.\r\n--${boundary}--\r\n`,
    );
  });

  it("with no item is the close delimiter alone", async () => {
    notes.out = [];
    expect(await collect(await client(served.base).readFlightNotes(path))).toEqual([]);
  });

  it("ends with a ResponseValidationError at an invalid item, after the items before it", async () => {
    notes.out = ["fine", { lat: 100, lon: 0 }, "never read"];
    const got: unknown[] = [];
    const failure = await collect(await client(unchecked.base).readFlightNotes(path), got).catch((error) => error);
    expect(got).toEqual(["fine"]);
    expect(failure).toMatchObject({ name: "ResponseValidationError" });
  });

  it("tells parts cut short and a JSON part that does not parse from a transport failure", async () => {
    const answer = (text: string) => async () =>
      new Response(text, { headers: { "content-type": 'multipart/mixed; boundary="b"' } });
    const read = async (text: string) => {
      const broken = served.createClient({
        baseUrl: "http://notes.test/v1",
        apiKey: "k",
        fetch: answer(text),
      });
      const got: unknown[] = [];
      const failure = await collect(await (broken as unknown as Notes).readFlightNotes(path), got).catch((e) => e);
      return { got, failure };
    };
    const cut = await read("preamble\r\n--b\r\n\r\nfirst\r\n--b\r\ncontent-type: text/plain\r\n\r\nsecond");
    expect(cut.got).toEqual(["first"]);
    expect(cut.failure).toMatchObject({ name: "ResponseValidationError", errors: [{ keyword: "multipart" }] });
    const json = await read('--b\r\ncontent-type: application/json\r\n\r\n{"lat":\r\n--b--\r\n');
    expect(json.failure).toMatchObject({ name: "ResponseValidationError", errors: [{ keyword: "json" }] });
  });
});

describe("a request body of multipart/mixed items", () => {
  it("is sent a part each by the client and handed to the handler item by item", async () => {
    expect(await client(served.base).addFlightNotes({ ...path, body: slowly(sent) })).toEqual({ count: 3 });
    expect(notes.received).toEqual(sent);
  });

  it("is refused with a 400 at an invalid item, parts cut short, or no boundary", async () => {
    // sent unchecked: the client checking its items would refuse the wrong one itself
    const unchecked = served.createClient({
      baseUrl: served.base,
      apiKey: "k",
      validateRequests: false,
    }) as unknown as Notes;
    await expect(
      unchecked.addFlightNotes({ ...path, body: slowly(["fine", { lat: 100, lon: 0 }]) }),
    ).rejects.toMatchObject({ status: 400 });
    expect(notes.received).toEqual(["fine"]);
    const type = "multipart/mixed; boundary=xyz";
    const cut = await postParts("--xyz\r\n\r\none\r\n--xyz\r\n\r\ntwo", type);
    expect(cut).toMatchObject({
      status: 400,
      body: { errors: [{ in: "body", instancePath: "/1", keyword: "multipart" }] },
    });
    expect(notes.received).toEqual(["one"]);
    const unbounded = await postParts("--xyz\r\n\r\none\r\n--xyz--\r\n", "multipart/mixed");
    expect(unbounded).toMatchObject({ status: 400, body: { errors: [{ keyword: "multipart" }] } });
  });
});

describe("the MSW handlers and the mock", () => {
  it("stream multipart/mixed items both ways through the MSW handlers", async () => {
    const baseUrl = "https://notes.example/v1";
    const { server } = served;
    const authenticate = server.createKeyAuthenticator(["k"]);
    const all = { ...server.createStubHandlers(), ...handlers };
    await withFlightsMsw(served.out, all, { baseUrl, authenticate }, async () => {
      notes.out = sent;
      expect(await collect(await client(baseUrl).readFlightNotes(path))).toEqual(sent);
      expect(await client(baseUrl).addFlightNotes({ ...path, body: sent })).toEqual({ count: 3 });
      expect(notes.received).toEqual(sent);
    });
  });

  it("the mock streams the example's items as parts", async () => {
    const mock = await serveFlights("multipart-mixed-mock", {}, "createMockHandlers");
    try {
      const notesClient = mock.createClient({ baseUrl: mock.base, apiKey: "k" }) as unknown as Notes;
      expect(await collect(await notesClient.readFlightNotes(path))).toEqual([
        "Boarding at gate B32.",
        { lat: 51.47, lon: -0.45 },
      ]);
    } finally {
      await mock.close();
    }
  }, 60_000);
});
