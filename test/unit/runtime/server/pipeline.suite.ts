import { type FastifyInstance, fastify } from "fastify";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Route } from "../../../../runtime/route-types.js";
import {
  type MultipartReader,
  mountRoutes,
  type PipelineSettings,
  type RouteHandler,
} from "../../../../runtime/server/runtime/pipeline.js";
import { createProblem, ProblemError } from "../../../../runtime/server/runtime/problems.js";
import type { RequestInput } from "../../../../runtime/server/runtime/request.js";
import type { Authenticate } from "../../../../runtime/server/runtime/security.js";
import { logLines } from "../support/fastify.js";
import { accepting, apiKey, content, param, route, stringProperties } from "../support/routes.js";

const json = content("application/json");

const TABLE = {
  createThing: route({
    operationId: "createThing",
    method: "POST",
    path: "/things",
    body: {
      required: true,
      pointer: "#/paths/~1things/post/requestBody",
      contents: [json, content("application/x-www-form-urlencoded")],
    },
    responses: { "201": [json] },
    validators: {
      body: {
        "application/json": stringProperties("name"),
        "application/x-www-form-urlencoded": stringProperties("name"),
      },
      responses: {},
    },
  }),
  getThing: route({
    operationId: "getThing",
    path: "/things/{thing-id}",
    pathParams: ["thing-id"],
    query: [param("tags", { array: true, explode: false })],
    headers: [param("X-Trace")],
    validators: {
      pathParams: accepting((value) => ({ "thing-id": Number((value as Record<string, string>)["thing-id"]) })),
      query: accepting(),
      headers: accepting(),
      body: {},
      responses: {},
    },
  }),
  getSecret: route({ operationId: "getSecret", path: "/secret", security: [[apiKey("header", "X-API-KEY")]] }),
  putFile: route({
    operationId: "putFile",
    method: "PUT",
    path: "/file",
    body: { required: false, pointer: "#/b", contents: [content("application/octet-stream"), content("text/plain")] },
    responses: { "200": [json] },
  }),
  uploadScan: route({
    operationId: "uploadScan",
    method: "POST",
    path: "/scans",
    body: { required: true, pointer: "#/s", contents: [content("multipart/form-data", ["file"])] },
    validators: { body: { "multipart/form-data": stringProperties("file") }, responses: {} },
  }),
} satisfies Record<string, Route>;

type Key = keyof typeof TABLE;
type Handler = (input: RequestInput) => unknown;

/** Handlers echoing what they received. */
const ECHO: Record<Key, Handler> = {
  createThing: ({ body }) => ({ status: 201, body: { got: body } }),
  getThing: ({ params, query, headers, body }) => ({
    status: 200,
    body: { params, query, headers, body: body ?? null },
  }),
  getSecret: () => ({ status: 200, body: { secret: true } }),
  putFile: ({ body }) => ({
    status: 200,
    body: {
      kind: Buffer.isBuffer(body) ? "bytes" : typeof body,
      text: Buffer.isBuffer(body) ? body.toString("hex") : body,
    },
  }),
  uploadScan: ({ body }) => ({ status: 200, body: { file: (body as { file: unknown }).file } }),
};

const keyAuth: Authenticate = (key) => (key === "good" ? true : key === "readonly" ? "forbidden" : false);

function settings(overrides: Partial<PipelineSettings> = {}): PipelineSettings {
  return { authenticate: keyAuth, bodyLimit: 64, fileSizeLimit: 128, validateResponses: true, ...overrides };
}

let app: FastifyInstance | undefined;

/** A bare Fastify instance with the table mounted. */
async function serve(
  handlers: Partial<Record<Key, Handler>> = ECHO,
  pipeline: PipelineSettings = settings(),
  table: Readonly<Record<string, Route>> = TABLE,
  logger?: object,
): Promise<FastifyInstance> {
  app = fastify(logger === undefined ? {} : { logger });
  const owner = { handlers };
  mountRoutes(
    app,
    table,
    (key) => {
      const handler = (handlers as Record<string, Handler | undefined>)[key];
      return handler === undefined ? undefined : { handler: handler as RouteHandler, owner };
    },
    pipeline,
  );
  await app.ready();
  return app;
}

describe("mountRoutes", () => {
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it("serves each route with its input read, validated and converted", async () => {
    const server = await serve();
    const got = await server.inject({
      url: "/things/42?tags=a,b&other=x",
      headers: { "x-trace": "t1", "x-other": "y" },
    });
    expect(got.json()).toEqual({
      params: { "thing-id": 42 },
      query: { tags: ["a", "b"] },
      headers: { "X-Trace": "t1" },
      body: null,
    });
    const created = await server.inject({ method: "POST", url: "/things", payload: { name: "ä" } });
    expect([created.statusCode, created.json()]).toEqual([201, { got: { name: "ä" } }]);
    const form = await server.inject({
      method: "POST",
      url: "/things",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "name=b%C3%A4r&x[y]=1",
    });
    expect(form.json()).toEqual({ got: { name: "bär", x: { y: "1" } } });
  });

  it("calls each handler with its owner as `this`", async () => {
    const seen: unknown[] = [];
    const handlers = {
      getSecret(this: unknown) {
        seen.push(this);
        return { status: 200, body: {} };
      },
    };
    const server = await serve({ ...ECHO, ...handlers });
    await server.inject({ url: "/secret", headers: { "x-api-key": "good" } });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual({ handlers: { ...ECHO, ...handlers } });
  });

  it("hands each handler the principal the authenticate hook answered, synchronously or not", async () => {
    const principals = new Map<string, object>([["dana", { company: 1, person: 7 }]]);
    const seen: unknown[] = [];
    const getSecret: Handler = ({ principal }) => {
      seen.push(principal);
      return { status: 200, body: { secret: true } };
    };
    for (const authenticate of [
      (key: string) => principals.get(key) ?? false,
      async (key: string) => principals.get(key) ?? false,
    ]) {
      const server = await serve({ ...ECHO, getSecret }, settings({ authenticate }));
      expect((await server.inject({ url: "/secret", headers: { "x-api-key": "dana" } })).statusCode).toBe(200);
      expect((await server.inject({ url: "/secret", headers: { "x-api-key": "sam" } })).statusCode).toBe(401);
      await server.close();
    }
    expect(seen).toEqual([
      { company: 1, person: 7 },
      { company: 1, person: 7 },
    ]);
    const server = await serve({ ...ECHO, getSecret });
    await server.inject({ url: "/secret", headers: { "x-api-key": "good" } });
    await server.inject({ url: "/things/1" });
    expect(seen.slice(2)).toEqual([undefined]);
  });

  it("refuses to mount an operation without a handler", async () => {
    const { getSecret: _omitted, ...rest } = ECHO;
    await expect(serve(rest)).rejects.toThrow("no handler for operation getSecret");
  });

  it("serves the first (by key) of two operations on the same method and router path, and warns of the other", async () => {
    const logs = logLines();
    const table = {
      b: route({ operationId: "b", path: "/x/{a-b}" }),
      a: route({ operationId: "a", path: "/x/{c-d}" }),
    };
    const handlers = { a: () => ({ status: 200, body: "a" }), b: () => ({ status: 200, body: "b" }) };
    const server = await serve(handlers as unknown as Record<Key, Handler>, settings(), table, {
      level: "warn",
      stream: logs.stream,
    });
    expect((await server.inject("/x/1")).json()).toBe("a");
    expect(logs.lines().map((line) => line.msg)).toEqual([
      "operation b is not served: another operation already serves GET /x/:p0",
    ]);
  });

  describe("security", () => {
    it("checks the key first: a missing or wrong key is refused before the body is read", async () => {
      const server = await serve({ ...ECHO, getSecret: () => ({ status: 200, body: {} }) });
      const missing = await server.inject({
        url: "/secret",
        headers: { "content-type": "application/json" },
        payload: "{not json",
      });
      expect([missing.statusCode, missing.json().type]).toEqual([401, "urn:problem-type:missing-api-key"]);
      expect((await server.inject({ url: "/secret", headers: { "x-api-key": "bad" } })).json().type).toBe(
        "urn:problem-type:invalid-api-key",
      );
      expect((await server.inject({ url: "/secret", headers: { "x-api-key": "readonly" } })).statusCode).toBe(403);
      expect((await server.inject({ url: "/secret", headers: { "x-api-key": "good" } })).statusCode).toBe(200);
    });

    it("waits for an asynchronous hook, and answers its failure with a 500", async () => {
      let fail = false;
      const server = await serve(
        ECHO,
        settings({ authenticate: async (key) => (fail ? Promise.reject(new Error("down")) : key === "good") }),
      );
      expect((await server.inject({ url: "/secret", headers: { "x-api-key": "good" } })).statusCode).toBe(200);
      expect((await server.inject({ url: "/secret", headers: { "x-api-key": "bad" } })).statusCode).toBe(401);
      fail = true;
      const failed = await server.inject({ url: "/secret", headers: { "x-api-key": "good" } });
      expect([failed.statusCode, failed.json().type]).toEqual([500, "urn:problem-type:internal-error"]);
    });
  });

  describe("bodies", () => {
    it("answers an undeclared or missing Content-Type with 415, naming what is accepted", async () => {
      const server = await serve();
      const xml = await server.inject({
        method: "POST",
        url: "/things",
        headers: { "content-type": "application/xml" },
        payload: "<a/>",
      });
      expect([xml.statusCode, xml.json().detail]).toEqual([
        415,
        "Content-Type application/xml is not accepted; use application/json or application/x-www-form-urlencoded.",
      ]);
      const none = await server.inject({
        method: "POST",
        url: "/things",
        headers: { "content-length": "2" },
        payload: "{}",
      });
      expect([none.statusCode, none.json().detail]).toEqual([
        415,
        "A Content-Type header is required; use application/json or application/x-www-form-urlencoded.",
      ]);
    });

    it("refuses a body over its limit with 413 and closes the connection: bodyLimit for JSON, fileSizeLimit for bytes", async () => {
      const server = await serve();
      const big = await server.inject({ method: "POST", url: "/things", payload: { name: "x".repeat(64) } });
      expect([big.statusCode, big.headers.connection, big.json().detail]).toEqual([
        413,
        "close",
        "The request body is larger than 64 bytes.",
      ]);
      const bytes = Buffer.alloc(100, 1);
      const file = await server.inject({
        method: "PUT",
        url: "/file",
        headers: { "content-type": "application/octet-stream" },
        payload: bytes,
      });
      expect([file.statusCode, file.json().text]).toEqual([200, bytes.toString("hex")]);
      const text = await server.inject({
        method: "PUT",
        url: "/file",
        headers: { "content-type": "text/plain" },
        payload: "t".repeat(100),
      });
      expect(text.statusCode).toBe(413);
    });

    it("decodes each kind: text as a string, bytes as a Buffer", async () => {
      const server = await serve();
      expect(
        (
          await server.inject({
            method: "PUT",
            url: "/file",
            headers: { "content-type": "text/plain; charset=utf-8" },
            payload: "héllo",
          })
        ).json(),
      ).toEqual({ kind: "string", text: "héllo" });
      expect(
        (
          await server.inject({
            method: "PUT",
            url: "/file",
            headers: { "content-type": "application/octet-stream" },
            payload: Buffer.from([0, 255]),
          })
        ).json(),
      ).toEqual({
        kind: "bytes",
        text: "00ff",
      });
      expect((await server.inject({ method: "PUT", url: "/file" })).json()).toEqual({ kind: "undefined" });
    });

    it("answers malformed JSON with 400, and every validation issue with 400", async () => {
      const server = await serve();
      const malformed = await server.inject({
        method: "POST",
        url: "/things",
        headers: { "content-type": "application/json" },
        payload: "{",
      });
      expect([malformed.statusCode, malformed.json().detail]).toEqual([
        400,
        "The request body is not well-formed JSON: it ends at line 1, column 2, before the JSON value does.",
      ]);
      const invalid = await server.inject({ method: "POST", url: "/things", payload: { name: 1 } });
      expect([invalid.statusCode, invalid.json().detail, invalid.json().errors]).toEqual([
        400,
        "body/name must be string",
        [expect.objectContaining({ in: "body", instancePath: "/name" })],
      ]);
      const missing = await server.inject({ method: "POST", url: "/things" });
      expect(missing.json()).toMatchObject({
        status: 400,
        detail: "body is required",
        errors: [{ in: "body", schemaPath: "#/paths/~1things/post/requestBody/required" }],
      });
      const empty = await server.inject({
        method: "POST",
        url: "/things",
        headers: { "content-type": "application/json" },
        payload: "",
      });
      expect(empty.json()).toMatchObject({ status: 400, detail: "body is required" });
    });

    it("reads multipart bodies in the child scope with the multipart reader, and restores the files", async () => {
      const read = vi.fn<MultipartReader>(async () => ({
        form: { file: "scan.png" },
        restore: (validated) => ({ ...(validated as object), file: "restored bytes" }),
      }));
      const scopes: FastifyInstance[] = [];
      const multipart: PipelineSettings["multipart"] = {
        read,
        scope: (scope, mount) => {
          void scope.register(async (child) => {
            scopes.push(child);
            mount(child);
          });
        },
      };
      const server = await serve(ECHO, settings({ multipart }));
      expect(scopes).toHaveLength(1);
      const scopeRoutes = scopes[0]?.printRoutes({ commonPrefix: false }) ?? "";
      expect(scopeRoutes).toContain("scans");
      const answer = await server.inject({
        method: "POST",
        url: "/scans",
        headers: { "content-type": "multipart/form-data; boundary=x" },
        payload: "--x--",
      });
      expect(answer.json()).toEqual({ file: "restored bytes" });
      expect(read).toHaveBeenCalledWith(expect.anything(), TABLE.uploadScan.body?.contents[0]);
    });

    it("answers a multipart reader's refusal as a problem, and a form with an invalid field with 400", async () => {
      let outcome: "refuse" | "invalid" = "refuse";
      const read: MultipartReader = async () => {
        if (outcome === "refuse")
          throw new ProblemError(createProblem("payloadTooLarge", "An uploaded file is larger than 8 bytes."));
        return { form: { file: 7 }, restore: (validated) => validated };
      };
      const server = await serve(ECHO, settings({ multipart: { read, scope: (scope, mount) => mount(scope) } }));
      const headers = { "content-type": "multipart/form-data; boundary=x" };
      const refused = await server.inject({ method: "POST", url: "/scans", headers, payload: "--x--" });
      expect([refused.statusCode, refused.json().detail]).toEqual([413, "An uploaded file is larger than 8 bytes."]);
      outcome = "invalid";
      expect((await server.inject({ method: "POST", url: "/scans", headers, payload: "--x--" })).json()).toMatchObject({
        status: 400,
        detail: "body/file must be string",
      });
    });

    it("without multipart support, reads a multipart route's body as bytes like any other", async () => {
      const server = await serve(
        {
          ...ECHO,
          uploadScan: ({ body }) => ({ status: 200, body: { bytes: Buffer.isBuffer(body) ? body.toString() : null } }),
        },
        settings(),
        {
          uploadScan: { ...TABLE.uploadScan, validators: { body: {}, responses: {} } },
        },
      );
      const answer = await server.inject({
        method: "POST",
        url: "/scans",
        headers: { "content-type": "multipart/form-data; boundary=x" },
        payload: "--x--",
      });
      expect(answer.json()).toEqual({ bytes: "--x--" });
    });
  });

  describe("handlers and answers", () => {
    it.each<[string, Handler, number, string]>([
      ["throws a ProblemError", () => notFound(), 404, "urn:problem-type:not-found"],
      ["rejects with a ProblemError", async () => notFound(), 404, "urn:problem-type:not-found"],
      ["throws a bug", () => JSON.parse("{") as unknown, 500, "urn:problem-type:internal-error"],
      ["rejects with a bug", async () => Promise.reject(new Error("bug")), 500, "urn:problem-type:internal-error"],
      [
        "answers an undeclared status",
        () => ({ status: 299, body: {} }),
        500,
        "urn:problem-type:response-validation-failed",
      ],
      ["answers nothing", () => undefined, 500, "urn:problem-type:internal-error"],
    ])("a handler that %s → %i", async (_label, handler, status, type) => {
      const server = await serve({ ...ECHO, getSecret: handler });
      const answer = await server.inject({ url: "/secret", headers: { "x-api-key": "good" } });
      expect([answer.statusCode, answer.json().type]).toEqual([status, type]);
    });

    it("sends an undeclared answer as it is when response checks are off", async () => {
      const server = await serve(
        { ...ECHO, getSecret: async () => ({ status: 299, body: { late: true } }) },
        settings({ validateResponses: false }),
      );
      const answer = await server.inject({ url: "/secret", headers: { "x-api-key": "good" } });
      expect([answer.statusCode, answer.json()]).toEqual([299, { late: true }]);
    });
  });
});

function notFound(): never {
  throw new ProblemError(createProblem("notFound", "No thing 7."));
}
