import { fastify } from "fastify";
import { describe, expect, it } from "vitest";
import type { Route } from "../../../../runtime/route-types.js";
import type { Outcome } from "../../../../runtime/server/runtime/exchange.js";
import {
  type BatchCheck,
  JsonStream,
  JsonStreamError,
  openJsonStream,
  prepareJson,
  streamJson,
  streamJsonArray,
} from "../../../../runtime/server/runtime/json-stream.js";
import { sendOutcome } from "../../../../runtime/server/runtime/pipeline.js";
import { writeOutcome } from "../../../../runtime/server/runtime/reply.js";
import { compileResponder } from "../../../../runtime/server/runtime/responses.js";
import { fakeReply, fakeRequest } from "../support/fastify.js";
import { content, route } from "../support/routes.js";

interface Page {
  readonly page?: number;
  readonly data: { id: number; note?: string | undefined }[];
  readonly total_count: number;
}

/** The whole text of a stream, as a server would write it. */
async function textOf(stream: JsonStream, check?: BatchCheck): Promise<string> {
  let text = "";
  for await (const chunk of await openJsonStream(stream, check)) text += chunk;
  return text;
}

async function* slowly<T>(batches: readonly (readonly T[])[]): AsyncGenerator<readonly T[]> {
  for (const batch of batches) {
    await new Promise((resolve) => setImmediate(resolve));
    yield batch;
  }
}

const items = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ({ id: from + i }));

describe("JsonStream", () => {
  it("writes the bytes JSON.stringify writes for the whole body, over many batches", async () => {
    const batches = [items(0, 3), items(3, 4), items(4, 9)];
    const stream = streamJson<Page, "data">({
      list: "data",
      batches: slowly(batches),
      before: { page: 1 },
      after: (count) => ({ total_count: count }),
    });
    expect(await textOf(stream)).toBe(JSON.stringify({ page: 1, data: batches.flat(), total_count: 9 }));
  });

  it("writes an empty list, a list body, sync batches and items JSON writes as null", async () => {
    expect(
      await textOf(streamJson<Page, "data">({ list: "data", batches: [], after: (count) => ({ total_count: count }) })),
    ).toBe('{"data":[],"total_count":0}');
    expect(await textOf(streamJsonArray<number[]>([[1, 2], [], [3]]))).toBe("[1,2,3]");
    expect(await textOf(streamJsonArray<unknown[]>([[undefined, () => 1, { a: undefined, b: "é\u2028" }]]))).toBe(
      JSON.stringify([undefined, () => 1, { a: undefined, b: "é\u2028" }]),
    );
    expect(await textOf(streamJsonArray<number[]>([]))).toBe("[]");
  });

  it("leaves out fields JSON leaves out, and never writes the list twice", async () => {
    const stream = new JsonStream("data", [[1]], { skipped: undefined }, () => ({ data: "no", total_count: 1 }));
    expect(await textOf(stream)).toBe('{"data":[1],"total_count":1}');
    expect(() => new JsonStream("data", [], { data: [] })).toThrow(
      /list field "data" is also among the fields before it/,
    );
  });

  it("checks each batch inside its envelope, with the count so far", async () => {
    const seen: unknown[] = [];
    const check: BatchCheck = (envelope) => {
      seen.push(envelope);
      return undefined;
    };
    await textOf(
      streamJson<Page, "data">({
        list: "data",
        batches: [items(0, 2), items(2, 3)],
        after: (count) => ({ total_count: count }),
      }),
      check,
    );
    expect(seen).toEqual([
      { data: items(0, 2), total_count: 2 },
      { data: items(2, 3), total_count: 3 },
    ]);
  });

  it("hands on a long batch in chunks of a few tens of kilobytes, which make up the same text", async () => {
    const long = Array.from({ length: 3000 }, (_, id) => ({ id, name: `Event ${id}`.padEnd(60, ".") }));
    const chunks: string[] = [];
    for await (const chunk of await openJsonStream(streamJsonArray([long]), undefined)) chunks.push(chunk);
    expect(chunks.join("")).toBe(JSON.stringify(long));
    expect(chunks.length).toBeGreaterThan(4);
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThan(33 * 1024);
  });

  it("refuses a first batch that breaks the contract before any text, and closes the source", async () => {
    let closed = false;
    async function* source() {
      try {
        yield items(0, 1);
        yield items(1, 2);
      } finally {
        closed = true;
      }
    }
    const failing = openJsonStream(streamJsonArray(source()), () => "/0/id must be string");
    await expect(failing).rejects.toThrow(JsonStreamError);
    await expect(failing).rejects.toMatchObject({ message: "/0/id must be string", written: 0 });
    expect(closed).toBe(true);
  });

  it("stops at a later batch that breaks the contract, or a source that fails, naming what was written", async () => {
    const check: BatchCheck = (envelope) =>
      (envelope as unknown[]).some((item) => (item as { id: number }).id === 3) ? "/0/id must not be 3" : undefined;
    const chunks: string[] = [];
    const cut = (async () => {
      for await (const chunk of await openJsonStream(streamJsonArray([items(0, 3), items(3, 4)]), check))
        chunks.push(chunk);
    })();
    await expect(cut).rejects.toMatchObject({ name: "JsonStreamError", message: "/0/id must not be 3", written: 3 });
    expect(chunks).toEqual(['[{"id":0},{"id":1},{"id":2}']);
    async function* broken() {
      yield items(0, 2);
      throw new Error("connection lost");
    }
    const failed = textOf(streamJsonArray(broken()));
    await expect(failed).rejects.toMatchObject({
      message: "reading the list failed after 2 items: connection lost",
      written: 2,
    });
    await expect(failed).rejects.toHaveProperty("cause.message", "connection lost");
  });
});

describe("a JsonStream answered by the responder, over HTTP", () => {
  const LIST: Route = route({
    operationId: "listThings",
    responses: { "200": [content("application/json")] },
    validators: {
      body: {},
      responses: {
        "200": (value: unknown) => {
          const data = (value as { data: { id: unknown }[] }).data;
          const bad = data.findIndex((item) => typeof item.id !== "number");
          return bad === -1
            ? { valid: true }
            : {
                valid: false,
                errors: [
                  {
                    instancePath: `/data/${bad}/id`,
                    schemaPath: "#",
                    keyword: "type",
                    params: {},
                    message: `/data/${bad}/id must be number`,
                  },
                ],
              };
        },
      },
    } as never,
  });

  async function serve(
    batches: () => AsyncIterable<readonly { id: unknown }[]>,
  ): Promise<{ url: string; errors: string[]; close: () => Promise<void> }> {
    const errors: string[] = [];
    const app = fastify({
      logger: { level: "error", stream: { write: (line: string) => void errors.push(String(JSON.parse(line).msg)) } },
    });
    const respond = compileResponder(LIST, true, "listThings");
    app.get("/things", async (request, reply) => {
      sendOutcome(
        reply,
        await respond(
          { status: 200, body: new JsonStream("data", batches(), {}, (count) => ({ total_count: count })) },
          request,
        ),
      );
      return reply;
    });
    const address = await app.listen({ host: "127.0.0.1", port: 0 });
    return { url: `${address}/things`, errors, close: () => app.close() };
  }

  it("sends the body as it is read: the same bytes, chunked, with JSON's media type", async () => {
    const server = await serve(() => slowly([items(0, 2000), items(2000, 2500)]));
    try {
      const response = await fetch(server.url);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(response.headers.get("transfer-encoding")).toBe("chunked");
      expect(await response.text()).toBe(JSON.stringify({ data: items(0, 2500), total_count: 2500 }));
    } finally {
      await server.close();
    }
  });

  it("answers 500 for a first batch that breaks the contract, and cuts the response at a later one", async () => {
    const server = await serve(() => slowly([[{ id: "one" }]]));
    try {
      const refused = await fetch(server.url);
      expect(refused.status).toBe(500);
      expect(await refused.json()).toMatchObject({
        type: "urn:problem-type:response-validation-failed",
        detail: expect.stringContaining("/data/0/id must be number"),
      });
      await server.close();
      const later = await serve(() => slowly<{ id: unknown }>([items(0, 10), [{ id: "eleven" }]]));
      const cut = await fetch(later.url);
      expect(cut.status).toBe(200);
      await expect(cut.text()).rejects.toThrow();
      await later.close();
      expect(
        later.errors.some((line) =>
          line.includes("streamed answer of listThings (status 200) cut short after 10 items"),
        ),
      ).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe("PreparedJson", () => {
  const checks: unknown[] = [];
  const ROUTE: Route = route({
    validators: {
      body: {},
      responses: {
        "200": (value: unknown) => {
          checks.push(value);
          return (value as { ok?: unknown }).ok === true
            ? { valid: true }
            : {
                valid: false,
                errors: [
                  { instancePath: "/ok", schemaPath: "#", keyword: "const", params: {}, message: "/ok must be true" },
                ],
              };
        },
      },
    } as never,
  });
  const answer = (body: unknown, check = true) => {
    const { request } = fakeRequest();
    const { reply, sent } = fakeReply();
    writeOutcome(reply, compileResponder(ROUTE, check, "getThings")({ status: 200, body }, request) as Outcome);
    return sent;
  };

  it("is answered as its text in UTF-8, encoded and checked once however often it is answered", () => {
    checks.length = 0;
    const prepared = prepareJson({ ok: true, items: [1, "é"], skipped: undefined });
    expect(prepared.text).toBe('{"ok":true,"items":[1,"é"]}');
    const payloads = [answer(prepared), answer(prepared), answer(prepared)].map((sent) => {
      expect(sent).toMatchObject({ statusCode: 200, headers: { "content-type": "application/json; charset=utf-8" } });
      return sent.payload;
    });
    expect(new TextDecoder().decode(payloads[0] as Uint8Array)).toBe('{"ok":true,"items":[1,"é"]}');
    expect(payloads.every((payload) => payload === prepared.bytes)).toBe(true);
    expect(checks).toHaveLength(1);
  });

  it("is refused every time when it breaks the contract, and not checked with checks off", () => {
    checks.length = 0;
    const prepared = prepareJson({ ok: false });
    expect(answer(prepared).statusCode).toBe(500);
    expect(answer(prepared).statusCode).toBe(500);
    expect(checks).toHaveLength(1);
    expect(answer(prepared, false)).toMatchObject({ statusCode: 200, payload: prepared.bytes });
    expect(prepared.text).toBe('{"ok":false}');
    expect(() => prepareJson(undefined)).toThrow(/has no JSON text/);
  });
});
