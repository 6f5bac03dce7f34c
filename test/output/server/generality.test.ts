/**
 * The server generated from another document (test/output/server/fixtures/generality.yaml): a derived
 * operation id, a parameter named "item-id", deepObject, array, form object and JSON (content)
 * query parameters, a header parameter spelled in capitals, http bearer and optional
 * apiKey-in-query security, an operation without security, 204, 4XX and default responses, form,
 * text and binary bodies, a path with a literal suffix. It must typecheck under strict settings
 * and serve each of these.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../../src/index.js";
import { expectProblem } from "../../support/contract-bodies.js";
import { sharingHost } from "../../support/typecheck.js";

const out = fileURLToPath(new URL("./__tmp__/generality", import.meta.url));
const spec = fileURLToPath(new URL("./fixtures/generality.yaml", import.meta.url));

type Input = { params: unknown; query: unknown; headers: unknown; body: unknown };
interface GeneratedServer {
  buildServer(options: {
    handlers: Record<string, (input: Input) => unknown>;
    authenticate: (credential: string, request: unknown, scheme: { type: string }) => boolean;
  }): Promise<FastifyInstance>;
  createMockHandlers(): Record<string, (input: Input) => unknown>;
}

const seen: Record<string, Input> = {};
let app: FastifyInstance;
let base = "";

beforeAll(async () => {
  await generate({ spec, out });
  const server = (await import(join(out, "server/index.ts"))) as GeneratedServer;
  const mock = server.createMockHandlers();
  const record = (key: string, answer: (input: Input) => unknown) => (input: Input) => {
    seen[key] = input;
    return answer(input);
  };
  const handlers = Object.fromEntries(Object.entries(mock).map(([key, handler]) => [key, record(key, handler)]));
  handlers["putBlob"] = record("putBlob", ({ body }) => ({ status: 201, body: { size: (body as Buffer).length } }));
  handlers["getItemsByItemId"] = record("getItemsByItemId", (input) =>
    answerFor((input.query as { answer?: number }).answer, mock, input),
  );
  app = await server.buildServer({
    handlers,
    authenticate: (credential, _request, scheme) => credential === (scheme.type === "http" ? "token" : "key"),
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/v2`;
});
afterAll(() => app.close());

/** `answer` picks the answer: 404 and 503 (error bodies), 7 (a body breaking the schema), else the mock. */
function answerFor(answer: number | undefined, mock: Record<string, (input: Input) => unknown>, input: Input): unknown {
  if (answer === 404 || answer === 503) return { status: answer, body: { code: answer } };
  if (answer === 7) return { status: 200, body: { id: 0, tags: [], pet: { kind: "cat" } } };
  return mock["getItemsByItemId"]?.(input);
}

const item = (query: string, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${base}/items/5${query}`, { headers: { authorization: "Bearer token", "x-request-id": "req-1", ...headers } });

describe("the generated code", () => {
  it("typechecks under strict and noUncheckedIndexedAccess", () => {
    const files = readdirSync(join(out, "server"), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .map((file) => join(out, "server", file));
    const options: ts.CompilerOptions = {
      strict: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: [],
    };
    const diagnostics = ts
      .getPreEmitDiagnostics(ts.createProgram(files, options, sharingHost(options)))
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(diagnostics).toEqual([]);
  });
});

describe("parameters", () => {
  it("reads a renamed path parameter, deepObject, exploded and comma-separated arrays, and a capitalised header", async () => {
    const response = await item("?filter[color]=red&filter[size]=3&ids=1&ids=2&csv=a,b");
    expect(response.status).toBe(200);
    expect(seen["getItemsByItemId"]).toMatchObject({
      params: { "item-id": 5 },
      query: { filter: { color: "red", size: 3 }, ids: [1, 2], csv: ["a", "b"] },
      headers: { "X-Request-ID": "req-1" },
    });
    const problem = await expectProblem(await item("?filter[size]=big"), 400, "urn:problem-type:validation-error");
    expect(problem["errors"]).toEqual([
      expect.objectContaining({ in: "query", instancePath: "/filter/size", keyword: "type" }),
    ]);
  });

  it("reads a nested deepObject, an encoded comma inside a comma-separated item, form objects and a JSON parameter", async () => {
    const where = encodeURIComponent(JSON.stringify({ min: 3 }));
    const response = await item(`?filter[range][min]=2&csv=a%2Cb,c&near=lat,1.5,lon,-2&w=4&h=5&where=${where}`);
    expect(response.status).toBe(200);
    expect(seen["getItemsByItemId"]?.query).toEqual({
      filter: { range: { min: 2 } },
      csv: ["a,b", "c"],
      near: { lat: 1.5, lon: -2 },
      box: { w: 4, h: 5 },
      where: { min: 3 },
    });
    const problem = await expectProblem(
      await item(`?where=${encodeURIComponent('{"min":"x"}')}`),
      400,
      "urn:problem-type:validation-error",
    );
    expect(problem["errors"]).toEqual([
      expect.objectContaining({ in: "query", instancePath: "/where/min", keyword: "type" }),
    ]);
  });

  it("validates the header parameter", async () => {
    const problem = await expectProblem(
      await item("", { "x-request-id": "ab" }),
      400,
      "urn:problem-type:validation-error",
    );
    expect(problem["errors"]).toEqual([
      expect.objectContaining({ in: "header", instancePath: "/X-Request-ID", keyword: "minLength" }),
    ]);
  });

  it("validates query parameters after conversion", async () => {
    const problem = await expectProblem(await item("?ids=1&ids=x"), 400, "urn:problem-type:validation-error");
    expect(problem["errors"]).toEqual([
      expect.objectContaining({ in: "query", instancePath: "/ids/1", keyword: "type" }),
    ]);
  });
});

describe("security", () => {
  it("http bearer: missing → 401, wrong → 401, right → 200", async () => {
    const missing = await expectProblem(
      await fetch(`${base}/items/5`, { headers: { "x-request-id": "req-1" } }),
      401,
      "urn:problem-type:missing-api-key",
    );
    expect(missing["detail"]).toBe("The Authorization header is required.");
    await expectProblem(await item("", { authorization: "Bearer nope" }), 401, "urn:problem-type:invalid-api-key");
  });

  it("an operation without security needs no credentials; 204 has no body", async () => {
    const response = await fetch(`${base}/items/5`, { method: "DELETE" });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
  });

  it("optional apiKey in the query: absent passes, wrong is refused", async () => {
    const form = { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "count=3" };
    expect((await fetch(`${base}/forms`, form)).status).toBe(200);
    expect((await fetch(`${base}/forms?api_key=key`, form)).status).toBe(200);
    await expectProblem(await fetch(`${base}/forms?api_key=other`, form), 401, "urn:problem-type:invalid-api-key");
  });
});

describe("bodies and answers", () => {
  it("a form body is converted; a text body is validated as a string; the answer is text", async () => {
    const response = await fetch(`${base}/forms`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "count=3&name=x",
    });
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toBe("done");
    expect(seen["postForm"]?.body).toEqual({ count: 3, name: "x" });
    const nested =
      "count=1&meta[level]=2&meta[tags][]=a&meta[tags][]=b&lines[0][qty]=4&lines[1][qty]=5&meta[__proto__][polluted]=1";
    expect(
      (
        await fetch(`${base}/forms`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: nested,
        })
      ).status,
    ).toBe(200);
    expect(seen["postForm"]?.body).toEqual({
      count: 1,
      meta: { level: 2, tags: ["a", "b"], ["__proto__"]: { polluted: "1" } },
      lines: [{ qty: 4 }, { qty: 5 }],
    });
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(
      (await fetch(`${base}/forms`, { method: "POST", headers: { "content-type": "text/plain" }, body: "hello" }))
        .status,
    ).toBe(200);
    expect(seen["postForm"]?.body).toBe("hello");
    await expectProblem(
      await fetch(`${base}/forms`, { method: "POST", headers: { "content-type": "text/plain" }, body: "too long" }),
      400,
      "urn:problem-type:validation-error",
    );
  });

  it("a binary body reaches the handler as bytes, on a path with a literal suffix", async () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => 255 - i);
    const response = await fetch(`${base}/blobs/photo.bin`, {
      method: "PUT",
      headers: { authorization: "Bearer token", "content-type": "application/octet-stream" },
      body: bytes,
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ size: 256 });
    expect(seen["putBlob"]?.params).toEqual({ name: "photo" });
    expect(Buffer.compare(seen["putBlob"]?.body as Buffer, Buffer.from(bytes))).toBe(0);
  });

  it("4XX and default responses are declared answers; a body breaking the schema is not", async () => {
    expect((await item("?answer=404")).status).toBe(404);
    expect((await item("?answer=503")).status).toBe(503);
    await expectProblem(await item("?answer=7"), 500, "urn:problem-type:response-validation-failed");
  });

  it("a wrong method on a templated path → 405 with every method of the path", async () => {
    const response = await fetch(`${base}/items/5`, { method: "POST" });
    expect(response.headers.get("allow")).toBe("DELETE, GET, HEAD");
    await expectProblem(response, 405, "urn:problem-type:method-not-allowed");
  });
});

describe("the generated client and server together", () => {
  interface GeneratedClient {
    createClient(options: { baseUrl: string; bearerToken?: string; apiKey?: string }): {
      postForm(args: { body: unknown }): Promise<unknown>;
    };
  }

  it("a nested form body sent by the client arrives as the same structure", async () => {
    const { createClient } = (await import(join(out, "client/index.ts"))) as GeneratedClient;
    const client = createClient({ baseUrl: base });
    const body = { count: 2, meta: { level: 5, tags: ["x", "y"] }, lines: [{ qty: 1 }, { qty: 9 }] };
    await client.postForm({ body });
    expect(seen["postForm"]?.body).toEqual(body);
  });
});
