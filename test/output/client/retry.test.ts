import { afterEach, describe, expect, it } from "vitest";
import {
  ApiError,
  ApiNetworkError,
  ApiTimeoutError,
  createClient,
  type RetryOptions,
} from "../../../generated/index.js";
import { closedPort, problem, sendJson, startTestServer, type TestServer } from "./http-harness.js";

const venue = { name: "Riverside Hall", address: "1 River Road", city: "Bristol", zip: "BS1 4DJ" };
const fast: RetryOptions = { retries: 3, minDelayMs: 1, maxDelayMs: 5 };
let server: TestServer | undefined;

/** A server that gives the scripted answers in turn, then 200s; `onScripted` is told of each scripted answer sent. */
async function scripted(
  answers: readonly { status: number; headers?: Record<string, string> }[],
  onScripted?: () => void,
): Promise<TestServer> {
  let turn = 0;
  server = await startTestServer((req, res) => {
    const next = answers[turn++];
    if (next !== undefined) {
      sendJson(res, next.status, problem(next.status, "Unavailable", "try later"), next.headers);
      return onScripted?.();
    }
    sendJson(res, 200, req.method === "GET" ? { data: [] } : { venue_id: 1, ...venue });
  });
  return server;
}

function clientOf(server: TestServer, retry: RetryOptions | undefined) {
  return createClient({ apiKey: "k", serverVariables: { base_url: server.origin }, ...(retry ? { retry } : {}) });
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("retries", () => {
  it("are off by default", async () => {
    const s = await scripted([{ status: 503 }]);
    await expect(clientOf(s, undefined).listWageRules()).rejects.toBeInstanceOf(ApiError);
    expect(s.requests).toHaveLength(1);
  });

  it("retry a GET on 503 and 500 with backoff", async () => {
    const s = await scripted([{ status: 503 }, { status: 500 }]);
    await expect(clientOf(s, fast).listWageRules()).resolves.toEqual({ data: [] });
    expect(s.requests).toHaveLength(3);
  });

  it("give up after `retries` more attempts and throw the last answer", async () => {
    const s = await scripted([{ status: 502 }, { status: 502 }, { status: 502 }]);
    const error = await clientOf(s, { ...fast, retries: 2 })
      .listWageRules()
      .catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(502);
    expect(s.requests).toHaveLength(3);
  });

  it("do not retry a POST on 503 without Retry-After", async () => {
    const s = await scripted([{ status: 503 }]);
    await expect(clientOf(s, fast).createVenue({ body: venue })).rejects.toMatchObject({ status: 503 });
    expect(s.requests).toHaveLength(1);
  });

  it("retry a POST on 429 and 503 that carry Retry-After, waiting as asked", async () => {
    const s = await scripted([
      { status: 429, headers: { "retry-after": "0" } },
      { status: 503, headers: { "retry-after": "1" } },
    ]);
    const started = performance.now();
    await expect(clientOf(s, fast).createVenue({ body: venue })).resolves.toMatchObject({ venue_id: 1 });
    expect(s.requests).toHaveLength(3);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(s.requests.map((r) => r.body.toString())).toEqual(Array(3).fill(JSON.stringify(venue)));
  });

  it("read Retry-After as an HTTP date and cap it at maxRetryAfterMs", async () => {
    const later = new Date(Date.now() + 60_000).toUTCString();
    const s = await scripted([{ status: 503, headers: { "retry-after": later } }]);
    const started = performance.now();
    await expect(clientOf(s, { ...fast, maxRetryAfterMs: 50 }).createVenue({ body: venue })).resolves.toBeDefined();
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("do not retry other client errors", async () => {
    const s = await scripted([{ status: 404 }]);
    await expect(clientOf(s, fast).listWageRules()).rejects.toMatchObject({ status: 404 });
    expect(s.requests).toHaveLength(1);
  });

  it("retry a GET after a network failure, not a POST", async () => {
    const port = await closedPort();
    let calls = 0;
    const counting = (input: string, init: RequestInit): Promise<Response> => {
      calls++;
      return fetch(input, init);
    };
    const client = createClient({
      apiKey: "k",
      serverVariables: { base_url: `http://127.0.0.1:${port}` },
      retry: fast,
      fetch: counting,
    });
    await expect(client.listEvents()).rejects.toBeInstanceOf(ApiNetworkError);
    expect(calls).toBe(4);
    await expect(client.createVenue({ body: venue })).rejects.toBeInstanceOf(ApiNetworkError);
    expect(calls).toBe(5);
  });

  it("an abort during a retry wait rejects at once with the abort reason", async () => {
    const controller = new AbortController();
    let aborted = 0;
    // the abort comes once the 503 is sent, whatever the machine's load: the client then waits 30 s
    const abort = () => {
      aborted = performance.now();
      controller.abort(new Error("stop waiting"));
    };
    const s = await scripted([{ status: 503, headers: { "retry-after": "30" } }], () => setTimeout(abort, 100));
    const pending = clientOf(s, { ...fast, maxRetryAfterMs: 30_000 }).createVenue(
      { body: venue },
      { signal: controller.signal },
    );
    await expect(pending).rejects.toThrow("stop waiting");
    expect(performance.now() - aborted).toBeLessThan(1_000);
    expect(s.requests).toHaveLength(1);
  });

  it("a timeout that expires during a retry wait gives an ApiTimeoutError", async () => {
    const s = await scripted([{ status: 503, headers: { "retry-after": "30" } }]);
    const client = createClient({ apiKey: "k", serverVariables: { base_url: s.origin }, retry: fast, timeoutMs: 100 });
    await expect(client.listWageRules()).rejects.toBeInstanceOf(ApiTimeoutError);
  });
});
