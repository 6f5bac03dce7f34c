import { PassThrough } from "node:stream";
import { type FastifyError, fastify } from "fastify";
import { describe, expect, it, vi } from "vitest";
import {
  clientProblem,
  createRefusals,
  DEFAULT_MAX_PARAM_LENGTH,
} from "../../../../runtime/server/runtime/refusals.js";
import { parseAnswers, rawExchange } from "../../../support/raw-http.js";
import { fakeReply, fakeRequest, logLines } from "../support/fastify.js";

/** A connection error as Node's HTTP parser reports it. */
function clientError(code: string | undefined, reason?: string): Error & { code?: string; reason?: string } {
  return Object.assign(new Error(reason ?? "client error"), { code, reason });
}

/** A socket that collects what is written to it. */
function fakeSocket(): { socket: PassThrough; written: () => string; destroy: ReturnType<typeof vi.spyOn> } {
  const socket = new PassThrough();
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  const destroy = vi.spyOn(socket, "destroy");
  return { socket, written: () => Buffer.concat(chunks).toString("utf8"), destroy };
}

describe("clientProblem", () => {
  it.each([
    [
      "ERR_HTTP_REQUEST_TIMEOUT",
      clientError("ERR_HTTP_REQUEST_TIMEOUT"),
      408,
      "urn:problem-type:request-timeout",
      "The request was not received in time.",
    ],
    [
      "HPE_HEADER_OVERFLOW",
      clientError("HPE_HEADER_OVERFLOW", "Header overflow"),
      431,
      "urn:problem-type:header-fields-too-large",
      "The request line and headers are larger than the server accepts.",
    ],
    [
      "HPE_INVALID_METHOD",
      clientError("HPE_INVALID_METHOD", "Invalid method encountered"),
      400,
      "urn:problem-type:malformed-request",
      "The request is not valid HTTP/1.1: Invalid method encountered.",
    ],
    [
      "a reason ending in a full stop",
      clientError("HPE_INVALID_CHUNK_SIZE", "Invalid character in chunk size."),
      400,
      "urn:problem-type:malformed-request",
      "The request is not valid HTTP/1.1: Invalid character in chunk size.",
    ],
    [
      "an empty reason",
      clientError("HPE_X", ""),
      400,
      "urn:problem-type:malformed-request",
      "The request is not valid HTTP/1.1.",
    ],
    [
      "no code",
      clientError(undefined),
      400,
      "urn:problem-type:malformed-request",
      "The request is not valid HTTP/1.1.",
    ],
  ])("%s → %i", (_label, error, status, type, detail) => {
    expect(clientProblem(error)).toMatchObject({ status, type, detail });
  });
});

describe("createRefusals", () => {
  it("sets the router's parameter limit, 1024 by default", () => {
    expect(DEFAULT_MAX_PARAM_LENGTH).toBe(1024);
    expect(createRefusals().options.routerOptions).toEqual({ maxParamLength: 1024 });
    expect(createRefusals(8).options.routerOptions).toEqual({ maxParamLength: 8 });
  });

  it("answers Fastify's framework errors with problems: a bad URL 400, an over-long parameter 414", async () => {
    const refusals = createRefusals(4);
    const app = fastify({ ...refusals.options });
    app.get("/items/:id", (request) => request.params);
    expect((await app.inject("/items/abcd")).json()).toEqual({ id: "abcd" });
    const tooLong = await app.inject("/items/abcde");
    expect(tooLong.statusCode).toBe(414);
    expect(tooLong.json()).toEqual({
      type: "urn:problem-type:uri-too-long",
      title: "URI Too Long",
      status: 414,
      detail: "A path parameter is longer than 4 characters.",
    });
    const badUrl = await app.inject("/items/%zz");
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(badUrl.json()).toMatchObject({
      type: "urn:problem-type:malformed-url",
      detail: "The request path is not valid percent-encoded UTF-8.",
    });
    await app.close();
  });

  it("hands any other framework error to the error handler", () => {
    const { request, log } = fakeRequest({ url: "/x?key=secret" });
    const { reply, sent } = fakeReply();
    const error = Object.assign(new Error("constraint failed"), {
      code: "FST_ERR_ASYNC_CONSTRAINT",
      statusCode: 500,
    }) as FastifyError;
    createRefusals().options.frameworkErrors(error, request, reply);
    expect(sent.statusCode).toBe(500);
    expect(JSON.parse(String(sent.payload))).toMatchObject({ type: "urn:problem-type:internal-error" });
    expect(log.error).toHaveBeenCalledWith({ err: error }, "request failed: GET /x");
  });

  it("writes a connection error's problem straight to the socket, then closes it", async () => {
    const { socket, written, destroy } = fakeSocket();
    const closed = new Promise((resolve) => socket.once("close", resolve));
    createRefusals().options.clientErrorHandler(
      clientError("HPE_INVALID_METHOD", "Invalid method encountered"),
      socket,
    );
    await closed;
    expect(destroy).toHaveBeenCalled();
    const { answers, rest } = parseAnswers(Buffer.from(written()));
    expect(rest).toBe("");
    expect(answers).toHaveLength(1);
    expect(answers[0]?.status).toBe(400);
    expect(answers[0]?.headers).toEqual({
      "content-type": "application/problem+json",
      "content-length": String(Buffer.byteLength(answers[0]?.body ?? "")),
      connection: "close",
    });
    expect(JSON.parse(answers[0]?.body ?? "")).toEqual(
      clientProblem(clientError("HPE_INVALID_METHOD", "Invalid method encountered")),
    );
    expect(written()).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });

  it.each([
    ["a reset connection", clientError("ECONNRESET"), true],
    ["a broken pipe", clientError("EPIPE"), true],
    ["a socket no longer writable", clientError("HPE_INVALID_METHOD"), false],
  ])("only destroys %s, writing nothing", (_label, error, writable) => {
    const { socket, written, destroy } = fakeSocket();
    if (!writable) socket.end();
    createRefusals().options.clientErrorHandler(error, socket);
    expect(destroy).toHaveBeenCalledTimes(1);
    expect(written()).toBe("");
  });

  it("once attached, answers the requests read before a broken one first, in order", async () => {
    const refusals = createRefusals();
    const app = fastify({ ...refusals.options });
    refusals.attach(app);
    app.get("/slow", async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return { slow: true };
    });
    app.get("/fast", () => ({ fast: true }));
    await app.listen({ host: "127.0.0.1", port: 0 });
    try {
      const address = app.server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      const get = (path: string): string => `GET ${path} HTTP/1.1\r\nhost: x\r\n\r\n`;
      const exchange = await rawExchange(port, [`${get("/slow") + get("/fast")}NOT HTTP\r\n\r\n`]);
      expect(exchange.answers.map((answer) => [answer.status, answer.body])).toEqual([
        [200, '{"slow":true}'],
        [200, '{"fast":true}'],
        [400, JSON.stringify(clientProblem(clientError("HPE_INVALID_METHOD", "Invalid method encountered")))],
      ]);
      expect(exchange.closed).toBe(true);
    } finally {
      await app.close();
    }
  });

  it("with logRequests, logs every refusal once, in a line of the form of any other request's", async () => {
    const logs = logLines();
    const refusals = createRefusals(16, { logRequests: true });
    const app = fastify({ ...refusals.options, logger: { level: "info", stream: logs.stream } });
    refusals.attach(app);
    app.get("/items/:id", () => ({}));
    await app.listen({ host: "127.0.0.1", port: 0 });
    try {
      const address = app.server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      const get = (path: string): string => `GET ${path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`;
      for (const chunk of [get("/items/%zz"), get(`/items/${"7".repeat(17)}`), "NOT HTTP\r\n\r\n"])
        await rawExchange(port, [chunk]);
      await rawExchange(port, [`GET /items/1 HTTP/1.1\r\nhost: x\r\nx-big: ${"b".repeat(20_000)}\r\n\r\n`]);
    } finally {
      await app.close();
    }
    const lines = (logs.lines() as { msg?: string; problem?: unknown }[]).filter((line) => line.problem !== undefined);
    expect(lines.map((line) => [line.msg?.replace(/ [\d.]+ ms/, " t ms"), line.problem])).toEqual([
      [
        "GET /items/%zz 400 t ms: urn:problem-type:malformed-url (The request path is not valid percent-encoded UTF-8.)",
        { type: "urn:problem-type:malformed-url" },
      ],
      [
        `GET /items/${"7".repeat(17)} 414 t ms: urn:problem-type:uri-too-long (A path parameter is longer than 16 characters.)`,
        { type: "urn:problem-type:uri-too-long" },
      ],
      [
        "(unreadable request) 400: urn:problem-type:malformed-request (The request is not valid HTTP/1.1: Invalid method encountered.)",
        { type: "urn:problem-type:malformed-request" },
      ],
      [
        "(unreadable request) 431: urn:problem-type:header-fields-too-large (The request line and headers are larger than the server accepts.)",
        { type: "urn:problem-type:header-fields-too-large" },
      ],
    ]);
  });
});
