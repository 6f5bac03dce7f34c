import { type FastifyRequest, fastify } from "fastify";
import { describe, expect, it } from "vitest";
import { noteProblem, RequestLines, secretHeaders, withRedaction } from "../../../../runtime/server/runtime/logging.js";
import { fakeReply, fakeRequest, logLines } from "../support/fastify.js";
import { apiKey, http, route } from "../support/routes.js";

type RequestSerializer = (request: FastifyRequest) => Record<string, unknown>;

/** The `req` serializer of a logger option made by withRedaction. */
function requestSerializer(option: ReturnType<typeof withRedaction>): RequestSerializer {
  if (typeof option !== "object" || option === null || !("serializers" in option)) throw new Error("no serializers");
  const serializers = option.serializers as Record<string, unknown> | undefined;
  const req = serializers?.req;
  if (typeof req !== "function") throw new Error("no req serializer");
  return req as RequestSerializer;
}

describe("secretHeaders", () => {
  it("always lists Authorization, Cookie and Proxy-Authorization", () => {
    expect(secretHeaders([])).toEqual(["authorization", "cookie", "proxy-authorization"]);
  });

  it("adds every apiKey header of the table, lower-cased, once, sorted; not query or cookie keys", () => {
    const routes = [
      route({ security: [[apiKey("header", "X-API-KEY")], [http("bearer")]] }),
      route({
        security: [
          [apiKey("header", "x-api-key"), apiKey("header", "X-Tenant-Key")],
          [apiKey("query", "api_key"), apiKey("cookie", "session")],
        ],
      }),
      route({ security: [[{ scheme: "nameless", type: "apiKey", in: "header" }]] }),
    ];
    expect(secretHeaders(routes)).toEqual([
      "authorization",
      "cookie",
      "proxy-authorization",
      "x-api-key",
      "x-tenant-key",
    ]);
  });
});

describe("withRedaction", () => {
  it.each([undefined, false])("leaves logging off for %j", (logger) => {
    expect(withRedaction(logger, ["x-api-key"])).toBe(false);
  });

  it("turns `true` into options with the redacting serializer", () => {
    const option = withRedaction(true, ["x-api-key"]);
    expect(option).toEqual({ serializers: { req: expect.any(Function) } });
  });

  it("keeps the other options and serializers of a logger", () => {
    const res = (): { statusCode: number } => ({ statusCode: 0 });
    const option = withRedaction({ level: "warn", serializers: { res } }, []);
    expect(option).toMatchObject({ level: "warn", serializers: { res, req: expect.any(Function) } });
  });

  it("serializes a request with its method, its path without the query, and its secret headers redacted", () => {
    const serialize = requestSerializer(withRedaction(true, ["authorization", "x-api-key"]));
    const headers = { authorization: "Bearer secret", "x-api-key": "k1", accept: "application/json", "x-other": "" };
    const { request } = fakeRequest({ method: "POST", url: "/venues?api_key=secret#x", headers });
    expect(serialize(request)).toEqual({
      method: "POST",
      url: "/venues",
      headers: { authorization: "[redacted]", "x-api-key": "[redacted]", accept: "application/json", "x-other": "" },
    });
    expect(request.headers.authorization).toBe("Bearer secret");
  });

  it("redacts through a real Fastify logger", async () => {
    const logs = logLines();
    const logger = withRedaction(
      { level: "info", stream: logs.stream },
      secretHeaders([route({ security: [[apiKey("header", "X-API-KEY")]] })]),
    );
    const app = fastify({ logger });
    app.get("/a", (request) => {
      request.log.info({ req: request }, "seen");
      return {};
    });
    await app.inject({ url: "/a?api_key=q-secret", headers: { "x-api-key": "h-secret", cookie: "s=c-secret" } });
    await app.close();
    const text = JSON.stringify(logs.lines());
    expect(text).toContain('"url":"/a"');
    expect(text).toContain("[redacted]");
    for (const secret of ["q-secret", "h-secret", "c-secret"]) expect(text).not.toContain(secret);
  });
});

describe("RequestLines", () => {
  it("logs the method, the path without the query, the status and the time in ms as a request completes", () => {
    const { request, log } = fakeRequest({ method: "DELETE", url: "/workers/7?key=secret" });
    const { reply, sent } = fakeReply();
    sent.statusCode = 204;
    sent.elapsedTime = 3.456;
    new RequestLines().requestCompleted(null, request, reply);
    expect(log.info).toHaveBeenCalledExactlyOnceWith("DELETE /workers/7 204 3.5 ms");
  });

  it("writes one line per request through a real Fastify, its own lines off, the answers' ends awaited", async () => {
    const logs = logLines();
    const app = fastify({ logger: { level: "info", stream: logs.stream }, logController: new RequestLines() });
    app.get("/ok", () => ({ ok: true }));
    app.get("/failed", () => {
      throw new Error("boom");
    });
    await app.inject({ url: "/ok?key=secret" });
    await app.inject({ url: "/failed" });
    await app.inject({ url: "/missing" });
    await app.close();
    const messages = (logs.lines() as { msg?: string }[]).map((line) => line.msg?.replace(/ [\d.]+ ms$/, " t ms"));
    expect(messages).toEqual(["GET /ok 200 t ms", "GET /failed 500 t ms", "GET /missing 404 t ms"]);
  });
});

describe("noteProblem", () => {
  it("gives a problem answer's line its type and detail, once each, through a real Fastify; other answers none", async () => {
    const logs = logLines();
    const app = fastify({ logger: { level: "info", stream: logs.stream }, logController: new RequestLines() });
    app.addHook("onSend", noteProblem);
    app.get("/refused", (_request, reply) =>
      reply
        .code(409)
        .header("content-type", "application/problem+json")
        .send(JSON.stringify({ type: "urn:problem-type:conflict", title: "Conflict", status: 409, detail: "Taken." })),
    );
    app.get("/no-detail", (_request, reply) =>
      reply.code(410).header("content-type", "application/problem+json").send('{"type":"urn:x","status":410}'),
    );
    app.get("/plain", (_request, reply) => reply.code(404).send("not a problem"));
    app.get("/ok", () => ({ type: "urn:not-a-problem" }));
    for (const url of ["/refused", "/no-detail", "/plain", "/ok"]) await app.inject({ url });
    await app.close();
    const lines = logs.lines() as { msg?: string; problem?: unknown }[];
    expect(lines.map((line) => [line.msg?.replace(/ [\d.]+ ms/, " t ms"), line.problem])).toEqual([
      ["GET /refused 409 t ms: urn:problem-type:conflict (Taken.)", { type: "urn:problem-type:conflict" }],
      ["GET /no-detail 410 t ms: urn:x", { type: "urn:x" }],
      ["GET /plain 404 t ms", undefined],
      ["GET /ok 200 t ms", undefined],
    ]);
  });
});
