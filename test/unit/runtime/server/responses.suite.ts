import { fastify } from "fastify";
import { describe, expect, it } from "vitest";
import type { Route } from "../../../../runtime/route-types.js";
import type { Outcome } from "../../../../runtime/server/runtime/exchange.js";
import { writeOutcome } from "../../../../runtime/server/runtime/reply.js";
import { compileResponder } from "../../../../runtime/server/runtime/responses.js";
import { fakeReply, fakeRequest, type SentReply } from "../support/fastify.js";
import { content, refusing, route, stringProperties } from "../support/routes.js";

const TABLE_ROUTE = route({
  operationId: "getVenue",
  responses: {
    "200": [content("application/json"), content("text/csv")],
    "201": [content("text/plain; charset=utf-8")],
    "204": [],
    "206": [content("image/*"), content("text/*")],
    "207": [content("application/x-www-form-urlencoded")],
    "208": [content("application/octet-stream")],
    "4XX": [content("application/problem+json")],
    "404": [content("application/json; charset=utf-8")],
    default: [content("text/html")],
  },
  validators: {
    body: {},
    responses: {
      "200": stringProperties("name"),
      "4XX": refusing("/type must be string"),
      "404": stringProperties("name"),
    },
  },
});

/** Sends `answer` through the responder; what the reply got, and what was logged as an error. */
function respond(answer: unknown, check = true, table: Route = TABLE_ROUTE): SentReply & { errors: unknown[][] } {
  const { request, log } = fakeRequest();
  const { reply, sent } = fakeReply();
  writeOutcome(reply, compileResponder(table, check, "getVenue")(answer, request) as Outcome);
  return { ...sent, errors: log.error.mock.calls };
}

/** The problem a responder sent. */
function problemOf(sent: SentReply): Record<string, unknown> {
  return JSON.parse(String(sent.payload)) as Record<string, unknown>;
}

describe("compileResponder", () => {
  it("sends a JSON answer once serialised, with the status and JSON's charset", () => {
    const sent = respond({ status: 200, body: { name: "Hall ✓" } });
    expect([sent.statusCode, sent.headers, sent.payload]).toEqual([
      200,
      { "content-type": "application/json; charset=utf-8" },
      '{"name":"Hall ✓"}',
    ]);
    expect(sent.errors).toEqual([]);
  });

  it("sends a declared body of another media type when the answer names it, as it is", () => {
    const sent = respond({ status: 200, body: "name\nHall", headers: { "Content-Type": "text/csv; header=present" } });
    expect([sent.payload, sent.headers["content-type"]]).toEqual(["name\nHall", "text/csv; header=present"]);
  });

  it("sends any answer of an operation that declares no response, unchecked", () => {
    const silent = route({ operationId: "getVenue", responses: {}, validators: { body: {}, responses: {} } });
    expect(respond({ status: 204 }, true, silent)).toMatchObject({ statusCode: 204, errors: [] });
    expect(respond({ status: 200, body: { any: 1 } }, true, silent)).toMatchObject({
      statusCode: 200,
      payload: '{"any":1}',
      errors: [],
    });
  });

  it("sends text and byte bodies as they are, with their media type", () => {
    expect(respond({ status: 201, body: "créé" })).toMatchObject({
      statusCode: 201,
      payload: "créé",
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
    const bytes = new Uint8Array([0, 1, 255]);
    expect(respond({ status: 208, body: bytes })).toMatchObject({
      payload: bytes,
      headers: { "content-type": "application/octet-stream" },
    });
  });

  it("resolves a declared media-type range to a concrete Content-Type", () => {
    expect(respond({ status: 206, body: new Uint8Array([1]) }).headers["content-type"]).toBe(
      "application/octet-stream",
    );
    expect(respond({ status: 206, body: "x", headers: { "content-type": "text/*" } }).headers["content-type"]).toBe(
      "text/*",
    );
  });

  it("encodes a form answer, and a non-string text answer as JSON text", () => {
    expect(respond({ status: 207, body: { a: "1", b: "x y" } }).payload).toBe("a=1&b=x+y");
    expect(respond({ status: 201, body: 42 }).payload).toBe("42");
  });

  it("adds JSON's charset to a +json type, and not twice", () => {
    expect(respond({ status: 418, body: { type: 1 } }, false).headers["content-type"]).toBe(
      "application/problem+json; charset=utf-8",
    );
    expect(respond({ status: 404, body: { name: "x" } }).headers["content-type"]).toBe(
      "application/json; charset=utf-8",
    );
  });

  it("finds the declared response by exact status, then its class, then default", () => {
    expect(respond({ status: 404, body: { name: "x" } })).toMatchObject({ statusCode: 404, errors: [] });
    expect(problemOf(respond({ status: 409, body: { type: 1 } }))).toMatchObject({
      status: 500,
      detail: "The answer of getVenue (status 409) does not match the contract: /type must be string",
    });
    expect(respond({ status: 503, body: "<p>down</p>" })).toMatchObject({
      statusCode: 503,
      payload: "<p>down</p>",
      headers: { "content-type": "text/html" },
    });
  });

  it("sends no body and no Content-Type for an answer without one, keeping its headers", () => {
    const sent = respond({ status: 204, headers: { etag: '"v1"', "x-count": 3 } });
    expect([sent.statusCode, sent.payload, sent.headers]).toEqual([204, undefined, { etag: '"v1"', "x-count": 3 }]);
  });

  it.each([
    ["a body where none is declared", { status: 204, body: "" }, "the response declares no body"],
    [
      "an undeclared media type",
      { status: 200, body: "x", headers: { "content-type": "text/xml" } },
      "the content-type is not declared for this status",
    ],
    ["a body the validator refuses", { status: 200, body: { name: 7 } }, "/name must be string"],
  ])("with checks on, answers %s with a 500 problem and one log line", (_label, answer, mismatch) => {
    const sent = respond(answer);
    expect(sent.statusCode).toBe(500);
    expect(sent.headers).toEqual({ "content-type": "application/problem+json" });
    expect(problemOf(sent)).toEqual({
      type: "urn:problem-type:response-validation-failed",
      title: "Response validation failed",
      status: 500,
      detail: `The answer of getVenue (status ${answer.status}) does not match the contract: ${mismatch}`,
    });
    expect(sent.errors).toEqual([[`response validation failed: getVenue answered ${answer.status}: ${mismatch}`]]);
  });

  it("with checks on, answers a status no response covers (no class, no default) with a 500 problem", () => {
    const sent = respond({ status: 202, body: {} }, true, route());
    expect(problemOf(sent)).toMatchObject({
      status: 500,
      detail: "The answer of getVenue (status 202) does not match the contract: the status is not declared",
    });
  });

  it("with checks off, sends whatever the handler answered", () => {
    expect(respond({ status: 202, body: { any: true } }, false, route())).toMatchObject({
      statusCode: 202,
      payload: '{"any":true}',
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(respond({ status: 200, body: { name: 7 } }, false).statusCode).toBe(200);
  });

  it("checks only JSON bodies against the validator", () => {
    expect(respond({ status: 200, body: "not an object", headers: { "content-type": "text/csv" } }).statusCode).toBe(
      200,
    );
  });

  it.each([
    undefined,
    null,
    "ok",
    200,
    {},
    { status: "200" },
    { status: 99 },
    { status: 600 },
    { status: 200.5 },
    { body: {} },
  ])("answers %j, which is no answer, with a 500 and a log line, checks on or off", (answer) => {
    for (const check of [true, false]) {
      const sent = respond(answer, check);
      expect(problemOf(sent)).toEqual({
        type: "urn:problem-type:internal-error",
        title: "Internal Server Error",
        status: 500,
        detail: "The server failed to answer this request.",
      });
      expect(sent.errors).toEqual([["handler of getVenue returned no { status, body } answer"]]);
    }
  });

  it("answers the same status the same way every time", () => {
    const { request } = fakeRequest();
    const responder = compileResponder(TABLE_ROUTE, true, "getVenue");
    const payloads = [1, 2, 3].map(() => {
      const { reply, sent } = fakeReply();
      writeOutcome(reply, responder({ status: 404, body: { name: "x" } }, request) as Outcome);
      return [sent.statusCode, sent.headers["content-type"], sent.payload];
    });
    expect(new Set(payloads.map((p) => JSON.stringify(p))).size).toBe(1);
  });

  it("sends through Fastify as it would on the wire", async () => {
    const app = fastify();
    const responder = compileResponder(TABLE_ROUTE, true, "getVenue");
    app.get("/:status", (request, reply) => {
      const status = Number((request.params as { status: string }).status);
      writeOutcome(
        reply,
        responder(status === 200 ? { status, body: { name: "ä" } } : { status, body: "plain" }, request) as Outcome,
      );
    });
    const json = await app.inject("/200");
    expect([json.statusCode, json.headers["content-type"], json.json()]).toEqual([
      200,
      "application/json; charset=utf-8",
      { name: "ä" },
    ]);
    const text = await app.inject("/201");
    expect([text.statusCode, text.headers["content-type"], text.body]).toEqual([
      201,
      "text/plain; charset=utf-8",
      "plain",
    ]);
    await app.close();
  });
});
