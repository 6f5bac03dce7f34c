/**
 * A request body that declares both `schema` and `itemSchema` (test/fixtures/streams/upload-whole.yaml:
 * JSON Lines of readings, three at most, all different), over loopback HTTP through the generated
 * Fastify server and through the MSW handlers' Fetch transport: each item is checked by
 * `itemSchema` as it arrives, and the items as a whole by `schema` once they end; a whole that
 * breaks it ends the items with the same 400 an item gives, its issues `in: "body"` at the whole's
 * own paths ("" for the list, `/<index>` for an item of it), after every item was handed over. The
 * generated client, with `validateRequests`, checks a list it is given as a whole before sending
 * it; an iterable it streams is checked by the server only.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../../src/index.js";
import { repoRoot } from "../../support/paths.js";
import { type FlightsHandler, withFlightsMsw } from "./flights.js";

type Upload = (args: { body: unknown }) => Promise<unknown>;
interface Output {
  buildServer(options: { handlers: Record<string, FlightsHandler>; authenticate?: unknown }): Promise<FastifyInstance>;
}

const out = join(repoRoot, ".tmp", `upload-whole-${process.pid}`);
const received: unknown[] = [];
const handlers: Record<string, FlightsHandler> = {
  uploadReadings: (async ({ body }: { body: AsyncIterable<unknown> }) => {
    received.length = 0;
    for await (const reading of body) received.push(reading);
    return { status: 200, body: { count: received.length } };
  }) as FlightsHandler,
};
let createClient: (options: { baseUrl: string; validateRequests?: boolean }) => { uploadReadings: Upload };
let app: FastifyInstance;
let base = "";

beforeAll(async () => {
  const result = await generate({ spec: join(repoRoot, "test/fixtures/streams/upload-whole.yaml"), out });
  expect(result.diagnostics).toEqual([]);
  const server = (await import(join(out, "server", "index.ts"))) as Output;
  ({ createClient } = (await import(join(out, "index.ts"))) as { createClient: typeof createClient });
  app = await server.buildServer({ handlers });
  base = await app.listen({ host: "127.0.0.1", port: 0 });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await rm(out, { recursive: true, force: true });
});

const readings = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `r${index}`, value: index }));

async function* slowly(items: readonly unknown[]): AsyncGenerator<unknown> {
  for (const item of items) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    yield item;
  }
}

/** POSTs the items as JSON Lines from `origin`; the status and the JSON answer. */
async function post(origin: string, items: readonly unknown[]): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${origin}/readings`, {
    method: "POST",
    headers: { "content-type": "application/jsonl" },
    body: items.map((item) => `${JSON.stringify(item)}\n`).join(""),
  });
  return { status: response.status, body: await response.json() };
}

/** What both servers must do with streamed items, asked of `origin`. */
async function checkServer(origin: string): Promise<void> {
  const client = createClient({ baseUrl: origin });
  expect(await client.uploadReadings({ body: slowly(readings(3)) })).toEqual({ count: 3 });
  expect(received).toEqual(readings(3));
  // four readings: every item is handed over, then the whole breaks maxItems
  const tooMany = await post(origin, readings(4));
  expect(received).toEqual(readings(4));
  expect(tooMany).toMatchObject({
    status: 400,
    body: { errors: [{ in: "body", instancePath: "", keyword: "maxItems" }] },
  });
  const repeated = await post(origin, [readings(1)[0], readings(1)[0]]);
  expect(repeated).toMatchObject({ status: 400, body: { errors: [{ in: "body", keyword: "uniqueItems" }] } });
  // an item that breaks the itemSchema still ends the items there, at its position
  const wrong = await post(origin, [readings(1)[0], { id: "r1" }]);
  expect(received).toEqual(readings(1));
  expect(wrong).toMatchObject({ status: 400, body: { errors: [{ in: "body", instancePath: "/1" }] } });
}

describe("a request body with both schema and itemSchema", () => {
  it("is checked item by item, then as a whole once the items end, by the Fastify server", async () => {
    await checkServer(base);
  });

  it("is checked the same by the MSW handlers", async () => {
    const baseUrl = "https://readings.example";
    await withFlightsMsw(out, handlers, { baseUrl, authenticate: undefined }, () => checkServer(baseUrl));
  });

  it("is checked as a whole by the client when it is given as a list, before it is sent", async () => {
    received.length = 0;
    const client = createClient({ baseUrl: base, validateRequests: true });
    await expect(client.uploadReadings({ body: readings(4) })).rejects.toMatchObject({
      name: "RequestValidationError",
      errors: [{ in: "body", instancePath: "", keyword: "maxItems" }],
    });
    expect(received).toEqual([]);
    expect(await client.uploadReadings({ body: readings(2) })).toEqual({ count: 2 });
    // an iterable is streamed as it comes: the server judges the whole
    expect(await client.uploadReadings({ body: slowly(readings(3)) })).toEqual({ count: 3 });
    await expect(client.uploadReadings({ body: slowly(readings(4)) })).rejects.toMatchObject({ status: 400 });
  });
});
