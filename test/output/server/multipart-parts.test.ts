/**
 * multipart/mixed items whose parts carry bytes or are encoded by position (OpenAPI 3.2
 * `itemEncoding`, `prefixEncoding`), over loopback HTTP in both directions
 * (test/fixtures/openapi-3.2/inspections.yaml): a binary item is a part of raw bytes, read back as a Blob of
 * the part's media type however its bytes look (CRLF, "--", a boundary cut short, bytes that are
 * not UTF-8) and however they arrive; the first part of a report is JSON by `prefixEncoding`, the
 * others photos by `itemEncoding`, each with the headers it declares. A part of a media type its
 * encoding does not take, or without a header it requires, is refused by the client, the Fastify
 * server and the MSW handlers with an error naming the part, its media type and what is taken.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { typecheck } from "../../support/typecheck.js";
import { type FlightsHandler, type ServedFlights, serveFlights, withFlightsMsw } from "./flights.js";

type Call = (args: object) => Promise<unknown>;
interface Inspections {
  readFrames(args: object): Promise<AsyncIterable<unknown>>;
  readReport(args: object): Promise<AsyncIterable<unknown>>;
  storeFrames: Call;
  writeReport: Call;
}

/** Bytes that look like framing: CRLF, "--", a delimiter of another boundary, one cut short, and no UTF-8. */
const tricky = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x2d, 0x2d, 0x0d, 0x0a, 0x2d, 0x2d, 0x69, 0x74, 0x65, 0x6d, 0x2d, 0x0d, 0x0a,
  0x2d, 0xff, 0xfe, 0x00, 0x0d, 0x0d, 0x0a, 0x0d, 0x0a, 0x2d, 0x2d, 0x62, 0x0a, 0x2d,
]);
const png = (bytes: Uint8Array): Blob => new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "image/png" });
const summary = { inspector: "Ada", passed: true };

const state = { frames: [] as Blob[], report: [] as unknown[], received: [] as unknown[] };
const handlers: Record<string, FlightsHandler> = {
  readFrames: () => ({ status: 200, body: state.frames }),
  storeFrames: async ({ body }: { body: AsyncIterable<Blob> }) => {
    state.received = [];
    for await (const frame of body) state.received.push(frame);
    return { status: 200, body: await stored(state.received) };
  },
  readReport: () => ({ status: 200, body: state.report }),
  writeReport: async ({ body }: { body: AsyncIterable<unknown> }) => {
    state.received = [];
    for await (const part of body) state.received.push(part);
    return { status: 200, body: await stored(state.received) };
  },
};

/** How many items came, and each one's size (a Blob's bytes, a part's body's, a JSON item's 0). */
async function stored(items: readonly unknown[]): Promise<{ count: number; sizes: number[] }> {
  const blob = (item: unknown): Blob | undefined =>
    item instanceof Blob
      ? item
      : typeof item === "object" && item !== null && "body" in item && item.body instanceof Blob
        ? item.body
        : undefined;
  return { count: items.length, sizes: items.map((item) => blob(item)?.size ?? 0) };
}

let served: ServedFlights;
beforeAll(async () => {
  served = await serveFlights(
    "multipart-parts",
    handlers,
    "createStubHandlers",
    "test/fixtures/openapi-3.2/inspections.yaml",
  );
}, 240_000);
afterAll(() => served?.close());

const client = (baseUrl: string, fetch?: typeof globalThis.fetch): Inspections =>
  served.createClient({
    baseUrl,
    apiKey: "k",
    validateResponses: true,
    ...(fetch ? { fetch } : {}),
  }) as unknown as Inspections;

async function collect(items: AsyncIterable<unknown>, got: unknown[] = []): Promise<unknown[]> {
  for await (const item of items) got.push(item);
  return got;
}

/** A Blob's media type and bytes, to compare. */
async function bytesOf(blob: unknown): Promise<{ type: string; bytes: number[] }> {
  if (!(blob instanceof Blob)) throw new Error(`not a Blob: ${String(blob)}`);
  return { type: blob.type, bytes: [...new Uint8Array(await blob.arrayBuffer())] };
}

/** A Response whose body arrives `size` bytes at a time. */
function trickling(bytes: Uint8Array, contentType: string, size: number): Response {
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
  return new Response(body, { headers: { "content-type": contentType } });
}

/** POSTs (or PUTs) multipart/mixed bytes; the status and the JSON answer. */
async function send(
  path: string,
  method: string,
  parts: readonly (string | Uint8Array)[],
  boundary = "zq",
): Promise<{ status: number; body: unknown }> {
  const bytes = concat(parts);
  const response = await fetch(`${served.base}${path}`, {
    method,
    headers: { "x-api-key": "k", "content-type": `multipart/mixed; boundary=${boundary}` },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
  return { status: response.status, body: await response.json() };
}

/**
 * Each byte as the character of its code (ISO-8859-1), so that a part's raw bytes read as they are
 * sent: `TextDecoder("latin1")` is windows-1252 by the Encoding standard, which Node 22 on follows
 * (0x89 reads as "‰"), where Node 20's read it as ISO-8859-1.
 */
function bytesAsText(bytes: ArrayBuffer): string {
  return Buffer.from(bytes).toString("latin1");
}

function concat(parts: readonly (string | Uint8Array)[]): Uint8Array {
  const chunks = parts.map((part) => (typeof part === "string" ? new TextEncoder().encode(part) : part));
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

describe("binary items", () => {
  it("are written as parts of raw bytes and read back as Blobs of the part's media type", async () => {
    state.frames = [png(tricky), new Blob([new Uint8Array([0, 1, 2])])];
    const got = await collect(await client(served.base).readFrames({ path: { camera: "north" } }));
    expect(await Promise.all(got.map(bytesOf))).toEqual([
      { type: "image/png", bytes: [...tricky] },
      { type: "application/octet-stream", bytes: [0, 1, 2] },
    ]);
    const raw = await fetch(`${served.base}/cameras/north/frames`, { headers: { "x-api-key": "k" } });
    const text = bytesAsText(await raw.arrayBuffer());
    expect(text).toContain("\r\ncontent-type: image/png\r\n\r\n\u0089PNG\r\n--\r\n--item-\r\n-");
  });

  it("are read the same however the bytes arrive, a byte at a time included", async () => {
    const body = concat(["--zq\r\ncontent-type: image/png\r\n\r\n", tricky, "\r\n--zq\r\n\r\n", "\r\n--zq--\r\n"]);
    for (const size of [1, 2, 5, body.length]) {
      const answer = async (): Promise<Response> => trickling(body, "multipart/mixed; boundary=zq", size);
      const got = await collect(await client("http://cameras.test/v1", answer).readFrames({ path: { camera: "n" } }));
      expect(await bytesOf(got[0])).toEqual({ type: "image/png", bytes: [...tricky] });
      // a part without a Content-Type is text (RFC 2046), here an empty one
      expect(got[1]).toBe("");
    }
  });

  it("are sent by the client from Blobs or bytes and handed to the handler as Blobs", async () => {
    const sizes = { count: 3, sizes: [tricky.length, 3, 1] };
    const frames = [png(tricky), new Uint8Array([7, 13, 10]), new Blob(["-"], { type: "image/png" })];
    expect(await client(served.base).storeFrames({ path: { camera: "n" }, body: frames })).toEqual(sizes);
    expect(await Promise.all(state.received.map(bytesOf))).toEqual([
      { type: "image/png", bytes: [...tricky] },
      { type: "application/octet-stream", bytes: [7, 13, 10] },
      { type: "image/png", bytes: [45] },
    ]);
    const sent = await send("/cameras/n/frames", "POST", [
      "preamble\r\n--zq\r\ncontent-type: image/png\r\n\r\n",
      tricky,
      "\r\n--zq--\r\n",
    ]);
    expect(sent).toEqual({ status: 200, body: { count: 1, sizes: [tricky.length] } });
    expect(await bytesOf(state.received[0])).toEqual({ type: "image/png", bytes: [...tricky] });
  });
});

const located = (name: string, bytes: Uint8Array, type = "image/png") => ({
  headers: { "Content-Location": `/photos/${name}` },
  body: new Blob([bytes as Uint8Array<ArrayBuffer>], { type }),
});

describe("parts encoded by position", () => {
  it("write the first part by prefixEncoding, the others by itemEncoding with their headers, and read them so", async () => {
    state.report = [summary, located("a.png", tricky), { ...located("b.jpg", new Uint8Array([1]), "image/jpeg") }];
    const got = await collect(await client(served.base).readReport({ path: { inspection: "7" } }));
    expect(got[0]).toEqual(summary);
    expect(got[1]).toMatchObject({ headers: { "Content-Location": "/photos/a.png" } });
    expect(await bytesOf((got[1] as { body: Blob }).body)).toEqual({ type: "image/png", bytes: [...tricky] });
    expect(await bytesOf((got[2] as { body: Blob }).body)).toEqual({ type: "image/jpeg", bytes: [1] });
    const raw = await fetch(`${served.base}/inspections/7/report`, { headers: { "x-api-key": "k" } });
    const text = bytesAsText(await raw.arrayBuffer());
    expect(text).toMatch(
      /^--item-\w+\r\ncontent-type: application\/json\r\n\r\n\{"inspector":"Ada","passed":true\}\r\n/,
    );
    expect(text).toContain("\r\ncontent-type: image/jpeg\r\nContent-Location: /photos/b.jpg\r\n\r\n\u0001\r\n--item-");
  });

  it("send a report's parts from the client, the handler given each as its encoding reads it", async () => {
    const parts = [summary, located("c.png", tricky), located("d.gif", new Uint8Array([2, 3]), "image/gif")];
    const answer = await client(served.base).writeReport({ path: { inspection: "7" }, body: parts });
    expect(answer).toEqual({ count: 3, sizes: [0, tricky.length, 2] });
    expect(state.received[0]).toEqual(summary);
    expect(state.received[2]).toMatchObject({ headers: { "Content-Location": "/photos/d.gif" } });
    expect(await bytesOf((state.received[2] as { body: Blob }).body)).toEqual({ type: "image/gif", bytes: [2, 3] });
  });

  it("refuse a part of a media type its encoding does not take, or without a header it requires", async () => {
    const json = '--zq\r\ncontent-type: application/json\r\n\r\n{"inspector":"Ada","passed":false}\r\n--zq\r\n';
    const wrongType = await send("/inspections/7/report", "PUT", [
      json,
      "content-type: text/plain\r\nContent-Location: /x\r\n\r\nnot a photo\r\n--zq--\r\n",
    ]);
    expect(wrongType).toMatchObject({
      status: 400,
      body: {
        errors: [
          {
            in: "body",
            instancePath: "/1",
            keyword: "contentType",
            message: expect.stringContaining("media type text/plain, which its encoding does not take (image/*)"),
          },
        ],
      },
    });
    const noHeader = await send("/inspections/7/report", "PUT", [
      json,
      "content-type: image/png\r\n\r\n",
      tricky,
      "\r\n--zq--\r\n",
    ]);
    expect(noHeader).toMatchObject({
      status: 400,
      body: {
        errors: [{ instancePath: "/1", keyword: "headers", message: expect.stringContaining("Content-Location") }],
      },
    });
    const first = await send("/inspections/7/report", "PUT", [
      "--zq\r\ncontent-type: image/png\r\n\r\nx\r\n--zq--\r\n",
    ]);
    expect(first).toMatchObject({ status: 400, body: { errors: [{ instancePath: "/0", keyword: "contentType" }] } });

    // the client: a ResponseValidationError after the items before it
    const answer = async (): Promise<Response> =>
      trickling(
        new TextEncoder().encode(`${json}content-type: text/plain\r\n\r\nhi\r\n--zq--\r\n`),
        "multipart/mixed; boundary=zq",
        4,
      );
    const got: unknown[] = [];
    const failure = await collect(
      await client("http://r.test/v1", answer).readReport({ path: { inspection: "7" } }),
      got,
    ).catch((error: unknown) => error);
    expect(got).toEqual([{ inspector: "Ada", passed: false }]);
    expect(failure).toMatchObject({
      name: "ResponseValidationError",
      errors: [{ keyword: "contentType", message: expect.stringContaining("(image/png, image/jpeg)") }],
    });

    // the client refuses to send what its encoding does not take: the body it streams ends there
    const reading = async (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      await new Response(init?.body).arrayBuffer();
      return Response.json({ count: 0, sizes: [] });
    };
    const refusing = client("http://r.test/v1", reading as typeof fetch);
    const noLocation = [summary, { headers: {}, body: png(tricky) }];
    await expect(refusing.writeReport({ path: { inspection: "7" }, body: noLocation })).rejects.toThrow(
      "part 2 lacks the header Content-Location, which its encoding requires",
    );
    const text = [summary, { headers: { "Content-Location": "/t" }, body: new Blob(["hi"], { type: "text/plain" }) }];
    await expect(refusing.writeReport({ path: { inspection: "7" }, body: text })).rejects.toThrow(
      "part 2 is a Blob of type text/plain, which its encoding does not take (image/*)",
    );
  });
});

describe("the MSW handlers", () => {
  it("stream binary and positioned parts both ways as the Fastify server does", async () => {
    const baseUrl = "https://inspections.example/v1";
    const { server } = served;
    const all = { ...server.createStubHandlers(), ...handlers };
    await withFlightsMsw(served.out, all, { baseUrl, authenticate: server.createKeyAuthenticator(["k"]) }, async () => {
      state.frames = [png(tricky)];
      const frames = await collect(await client(baseUrl).readFrames({ path: { camera: "n" } }));
      expect(await bytesOf(frames[0])).toEqual({ type: "image/png", bytes: [...tricky] });
      expect(await client(baseUrl).storeFrames({ path: { camera: "n" }, body: [png(tricky)] })).toEqual({
        count: 1,
        sizes: [tricky.length],
      });
      state.report = [summary, located("a.png", tricky)];
      const report = await collect(await client(baseUrl).readReport({ path: { inspection: "7" } }));
      expect(report[0]).toEqual(summary);
      expect(await bytesOf((report[1] as { body: Blob }).body)).toEqual({ type: "image/png", bytes: [...tricky] });
      const parts = [summary, located("c.png", tricky)];
      expect(await client(baseUrl).writeReport({ path: { inspection: "7" }, body: parts })).toEqual({
        count: 2,
        sizes: [0, tricky.length],
      });
      const refused = await fetch(`${baseUrl}/inspections/7/report`, {
        method: "PUT",
        headers: { "x-api-key": "k", "content-type": "multipart/mixed; boundary=zq" },
        body: "--zq\r\ncontent-type: text/plain\r\n\r\nnot a summary\r\n--zq--\r\n",
      });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ errors: [{ instancePath: "/0", keyword: "contentType" }] });
    });
  });
});

const usage = `
import type { ReadFramesResponse, ReadReportResponse, StoreFramesBody, WriteReportBody } from "./types.js";

export const frames: StoreFramesBody = [new Blob([new Uint8Array([1])], { type: "image/png" })];
// @ts-expect-error a binary item is a Blob, not text
export const textFrames: StoreFramesBody = ["not bytes"];

export const report: WriteReportBody = [
  { inspector: "Ada", passed: true },
  { headers: { "Content-Location": "/photos/a.png" }, body: new Blob([]) },
];
// @ts-expect-error a photo's part requires its Content-Location header
export const unlocated: WriteReportBody = [{ headers: {}, body: new Blob([]) }];

export async function sizes(items: ReadFramesResponse): Promise<number[]> {
  const all: number[] = [];
  for await (const frame of items) all.push(frame.size);
  return all;
}

export async function locations(items: ReadReportResponse): Promise<string[]> {
  const all: string[] = [];
  for await (const part of items)
    if (typeof part === "object" && "headers" in part) all.push(part.headers["Content-Location"], part.body.type);
  return all;
}
`;

describe("the generated types", () => {
  it("type binary items as Blobs and positioned parts with their headers", { timeout: 120_000 }, async () => {
    await writeFile(join(served.out, "usage.ts"), usage);
    expect(typecheck([join(served.out, "usage.ts")])).toEqual([]);
  });
});
