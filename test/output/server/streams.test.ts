/**
 * Answers that are sequences of items (OpenAPI 3.2 `itemSchema`), end to end over loopback HTTP
 * (test/fixtures/openapi-3.2/): the generated Fastify server frames a handler's async iterable as
 * JSON Lines or server-sent events and checks each item; the generated client yields each item
 * typed and checked as it arrives. An invalid item is a `ResponseValidationError` after the items
 * before it; an abort or a `break` mid-stream closes the handler's iterator on the server; a
 * connection cut mid-stream resumes from `Last-Event-ID` with nothing lost or repeated; the MSW
 * handlers stream the same way (a client that stops leaves the handler's iterator suspended there,
 * not closed: MSW keeps an unread clone of every answer). The output's typecheck is the golden test's.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { experimental_streamedQuery, QueryClient, type QueryKey } from "@tanstack/query-core";
import type { FastifyInstance } from "fastify";
import type { HttpHandler } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../../src/index.js";
import { repoRoot } from "../../support/paths.js";

const out = join(repoRoot, ".tmp", `streams-${process.pid}`);
const spec = join(repoRoot, "test/fixtures/openapi-3.2/openapi.yaml");

interface Position {
  readonly lat: number;
  readonly lon: number;
}
type Input = {
  params: { number: string };
  request: { headers: Record<string, unknown>; raw?: { socket: { destroy(): void } } };
};
type Handler = (input: Input) => unknown;
type Stream = (args: object, options?: { signal?: AbortSignal }) => Promise<AsyncIterable<unknown>>;
interface ServerModule {
  buildServer(options: {
    handlers: Record<string, Handler>;
    authenticate: unknown;
    validateResponses?: boolean;
  }): Promise<FastifyInstance>;
  createStubHandlers(): Record<string, Handler>;
  createKeyAuthenticator(keys: string[]): unknown;
}
interface PackageModule {
  createClient(options: { baseUrl: string; apiKey: string; validateResponses?: boolean; fetch?: unknown }): {
    streamPositions: Stream;
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What a test's handler does, and what the server saw of it. */
const scenario = {
  positions: [] as unknown[],
  /** the handler's iterator was closed (its generator's finally ran) */
  closed: false,
  /** Last-Event-ID of each request */
  lastIds: [] as unknown[],
  /** answer server-sent events, cutting the first connection after three */
  events: false,
  endless: false,
  /** how many items the handler gave */
  given: 0,
};

async function* positions(): AsyncGenerator<unknown> {
  try {
    if (scenario.endless)
      for (let i = 0; ; i++) {
        yield { lat: i % 90, lon: 0 };
        await sleep(5);
      }
    for (const position of scenario.positions) yield position;
  } finally {
    scenario.closed = true;
  }
}

async function* events(input: Input): AsyncGenerator<unknown> {
  const last = input.request.headers["last-event-id"];
  scenario.lastIds.push(last);
  const from = last === undefined ? 1 : Number(last) + 1;
  for (let id = from; id <= 5; id++) {
    yield { event: "position", id: String(id), ...(id === 1 ? { retry: 20 } : {}), data: { lat: id, lon: -id } };
    if (last === undefined && id === 3) {
      await sleep(30);
      input.request.raw?.socket.destroy();
      return;
    }
  }
}

const handlers: Record<string, Handler> = {
  streamPositions: (input) =>
    scenario.events
      ? { status: 200, headers: { "content-type": "text/event-stream" }, body: events(input) }
      : { status: 200, body: positions() },
};

let server: ServerModule;
let pkg: PackageModule;
let app: FastifyInstance;
let unchecked: FastifyInstance;
const baseOf = (instance: FastifyInstance): string => {
  const address = instance.server.address();
  return `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/v1`;
};

beforeAll(async () => {
  await generate({ spec, out });
  server = (await import(join(out, "server", "index.ts"))) as ServerModule;
  pkg = (await import(join(out, "index.ts"))) as PackageModule;
  const all = { ...server.createStubHandlers(), ...handlers };
  const authenticate = server.createKeyAuthenticator(["k"]);
  app = await server.buildServer({ handlers: all, authenticate, validateResponses: true });
  unchecked = await server.buildServer({ handlers: all, authenticate, validateResponses: false });
  await app.listen({ host: "127.0.0.1", port: 0 });
  await unchecked.listen({ host: "127.0.0.1", port: 0 });
}, 60_000);
afterAll(async () => {
  await app?.close();
  await unchecked?.close();
  await rm(out, { recursive: true, force: true });
});

function reset(overrides: Partial<typeof scenario>): void {
  Object.assign(
    scenario,
    { positions: [], closed: false, lastIds: [], events: false, endless: false, given: 0 },
    overrides,
  );
}

async function collect(items: AsyncIterable<unknown>, into: unknown[] = []): Promise<unknown[]> {
  for await (const item of items) into.push(item);
  return into;
}

const client = (base: string, validateResponses = true) =>
  pkg.createClient({ baseUrl: base, apiKey: "k", validateResponses });
const path = { path: { number: "BA117" } };

describe("JSON Lines over Fastify", () => {
  it("the client yields each item, typed and checked, as the handler's iterable gives them", async () => {
    const sent = [
      { lat: 1, lon: 2 },
      { lat: -3.5, lon: 4 },
      { lat: 0, lon: 0 },
    ];
    reset({ positions: sent });
    expect(await collect(await client(baseOf(app)).streamPositions(path))).toEqual(sent);
    expect(scenario.closed).toBe(true);
  });

  it("an invalid item is a ResponseValidationError, after the items before it", async () => {
    reset({
      positions: [
        { lat: 1, lon: 1 },
        { lat: 91, lon: 0 },
        { lat: 2, lon: 2 },
      ],
    });
    const got: unknown[] = [];
    const failure = await collect(await client(baseOf(unchecked)).streamPositions(path), got).catch((error) => error);
    expect(got).toEqual([{ lat: 1, lon: 1 }]);
    expect(failure).toMatchObject({ name: "ResponseValidationError", errors: [{ instancePath: "/lat" }] });
  });

  it("the server checks each item: an invalid one ends the answer there, which the client sees as a network failure", async () => {
    reset({
      positions: [
        { lat: 1, lon: 1 },
        { lat: 91, lon: 0 },
      ],
    });
    const got: unknown[] = [];
    const failure = await collect(await client(baseOf(app), false).streamPositions(path), got).catch((error) => error);
    expect(got).toEqual([{ lat: 1, lon: 1 }]);
    expect(failure).toMatchObject({ name: "ApiNetworkError" });
  });

  it("a line that is not JSON is told apart from a transport failure", async () => {
    const body = '{"lat":1,"lon":1}\n{"lat":\n';
    const fetch = async () => new Response(body, { headers: { "content-type": "application/jsonl" } });
    const got: unknown[] = [];
    const broken = pkg.createClient({ baseUrl: "http://flights.test/v1", apiKey: "k", fetch });
    const failure = await collect(await broken.streamPositions(path), got).catch((error) => error);
    expect(got).toEqual([{ lat: 1, lon: 1 }]);
    expect(failure).toMatchObject({ name: "ResponseValidationError", errors: [{ keyword: "json" }] });
  });

  it("an abort mid-stream stops the items and closes the handler's iterator", async () => {
    reset({ endless: true });
    const controller = new AbortController();
    const got: unknown[] = [];
    const items = await client(baseOf(app)).streamPositions(path, { signal: controller.signal });
    const failure = await (async () => {
      for await (const item of items) {
        got.push(item);
        if (got.length === 3) controller.abort(new Error("enough"));
      }
    })().catch((error) => error);
    expect(failure).toMatchObject({ message: "enough" });
    expect(got).toHaveLength(3);
    await expect.poll(() => scenario.closed, { timeout: 5000 }).toBe(true);
  });

  it("leaving the loop early (break) closes the handler's iterator too", async () => {
    reset({ endless: true });
    for await (const _ of await client(baseOf(app)).streamPositions(path)) break;
    await expect.poll(() => scenario.closed, { timeout: 5000 }).toBe(true);
  });
});

describe("server-sent events over Fastify", () => {
  it("a connection cut mid-stream resumes from Last-Event-ID, nothing lost or repeated", async () => {
    reset({ events: true });
    const got = (await collect(await client(baseOf(app)).streamPositions(path))) as {
      event: string;
      id: string;
      data: Position;
    }[];
    expect(got.map((event) => event.id)).toEqual(["1", "2", "3", "4", "5"]);
    expect(got[0]).toEqual({ event: "position", id: "1", retry: 20, data: { lat: 1, lon: -1 } });
    expect(got[4]?.data).toEqual({ lat: 5, lon: -5 });
    expect(scenario.lastIds).toEqual([undefined, "3"]);
  });

  it("are parsed as WHATWG's rules say: comments, CR and CRLF line ends, multi-line data, ids kept", async () => {
    const body =
      ': hello\r\nevent: position\rid: 7\ndata: {"lat":1,\ndata: "lon":2}\r\n\r\ndata: {"lat":3,"lon":4}\n\n';
    const fetch = async () => new Response(body, { headers: { "content-type": "text/event-stream" } });
    const sse = pkg.createClient({ baseUrl: "http://flights.test/v1", apiKey: "k", fetch });
    expect(await collect(await sse.streamPositions(path))).toEqual([
      { event: "position", id: "7", data: { lat: 1, lon: 2 } },
      { id: "7", data: { lat: 3, lon: 4 } },
    ]);
  });
});

describe("TanStack Query", () => {
  it("a streaming operation's stream options feed experimental_streamedQuery: the data is the items", async () => {
    const query = (await import(join(out, "query", "index.ts"))) as {
      streamPositionsStreamOptions(
        client: object,
        input: object,
      ): { queryKey: QueryKey; streamFn: (context: { signal: AbortSignal }) => Promise<AsyncIterable<unknown>> };
    };
    const sent = [
      { lat: 5, lon: 6 },
      { lat: 7, lon: 8 },
    ];
    reset({ positions: sent });
    const { queryKey, streamFn } = query.streamPositionsStreamOptions(client(baseOf(app)), path);
    const queryClient = new QueryClient();
    const data = await queryClient.fetchQuery({ queryKey, queryFn: experimental_streamedQuery({ streamFn }) });
    expect(data).toEqual(sent);
    expect(queryKey).toEqual(["flights", "flights", "BA117", "positions"]);
  });
});

describe("the MSW handlers", () => {
  it("stream the items, and ask the handler for none once the client stops", async () => {
    const { createMswHandlers } = (await import(join(out, "msw", "index.ts"))) as {
      createMswHandlers(handlers: Record<string, Handler>, options: object): HttpHandler[];
    };
    const msw = setupServer(
      ...createMswHandlers(
        { ...server.createStubHandlers(), ...handlers },
        { baseUrl: "http://flights.msw/v1", authenticate: server.createKeyAuthenticator(["k"]) },
      ),
    );
    msw.listen({ onUnhandledRequest: "bypass" });
    try {
      const sent = [
        { lat: 10, lon: 20 },
        { lat: 30, lon: 40 },
      ];
      reset({ positions: sent });
      expect(await collect(await client("http://flights.msw/v1").streamPositions(path))).toEqual(sent);
      reset({ endless: true });
      for await (const _ of await client("http://flights.msw/v1").streamPositions(path)) break;
      // MSW keeps a clone of each answer, whose copy of the stream nobody reads: the handler's
      // iterator is not closed, but it is asked for nothing more
      await sleep(50);
      const given = scenario.given;
      await sleep(100);
      expect(scenario.given).toBe(given);
    } finally {
      msw.close();
    }
  });
});
