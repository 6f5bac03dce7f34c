import { describe, expect, it } from "vitest";
import { checkingAnswers } from "../../../../runtime/client/answer-check.js";
import { ApiError, ResponseValidationError } from "../../../../runtime/client/errors.js";
import { declaredContents, readFailure, readSuccess } from "../../../../runtime/client/response.js";
import type { Route } from "../../../../runtime/route-types.js";
import { rejection } from "../support/promises.js";
import { content, refusing, route, stringProperties } from "../support/routes.js";

const json = content("application/json");
const ROUTE = route({
  operationId: "getVenue",
  responses: {
    "200": [json],
    "201": [content("text/plain")],
    "202": [content("image/png")],
    "203": [json, content("text/csv"), content("application/octet-stream")],
    "204": [],
    "2XX": [content("application/vnd.api+json")],
    "404": [content("application/problem+json")],
    default: [content("text/html")],
  },
  validators: {
    body: {},
    responses: {
      "200": stringProperties("name"),
      "2XX": refusing("/data must be array"),
      default: refusing("never used for text"),
    },
  },
});

function response(status: number, body: BodyInit | null, contentType?: string, statusText?: string): Response {
  const init: ResponseInit = { status, headers: contentType === undefined ? {} : { "content-type": contentType } };
  return new Response(body, statusText === undefined ? init : { ...init, statusText });
}

describe("declaredContents", () => {
  it.each<[number, string | undefined]>([
    [200, "200"],
    [204, "204"],
    [250, "2XX"],
    [404, "404"],
    [400, "default"],
    [503, "default"],
  ])("%i → the contents of %j", (status, key) => {
    expect(declaredContents(ROUTE, status)).toBe(key === undefined ? undefined : ROUTE.responses[key]);
  });

  it("is undefined for a status nothing covers", () => {
    expect(declaredContents(route(), 404)).toBeUndefined();
    expect(declaredContents(route(), 201)).toBeUndefined();
  });
});

describe("readSuccess", () => {
  it.each<[string, Response, unknown]>([
    ["JSON", response(200, '{"name":"Hall ✓"}', "application/json"), { name: "Hall ✓" }],
    ["JSON, whatever the Content-Type says", response(200, '{"name":"x"}', "text/plain"), { name: "x" }],
    ["empty JSON as nothing", response(200, "", "application/json"), undefined],
    ["text", response(201, "créé", "text/plain; charset=utf-8"), "créé"],
    ["nothing for 204", response(204, null), undefined],
    ["a 2XX JSON type", response(250, '{"data":1}', "application/vnd.api+json"), { data: 1 }],
    ["one of several contents, by its essence", response(203, "a,b", "TEXT/CSV; header=present"), "a,b"],
    ["one of several contents, JSON by its kind", response(203, "[1]", "application/hal+json"), [1]],
    [
      "one of several contents, the first when none matches",
      response(203, "[2]", "application/x-www-form-urlencoded"),
      [2],
    ],
    ["one of several contents, bytes by their kind", response(203, "<a/>", "application/xml"), expect.any(Blob)],
  ])("reads %s", async (_label, answer, body) => {
    expect(await readSuccess(ROUTE, answer)).toEqual(body);
  });

  it("reads bytes as a Blob", async () => {
    const blob = await readSuccess(ROUTE, response(202, new Uint8Array([0, 255]), "image/png"));
    expect(blob).toBeInstanceOf(Blob);
    expect([...new Uint8Array(await (blob as Blob).arrayBuffer())]).toEqual([0, 255]);
    const chosen = await readSuccess(ROUTE, response(203, new Uint8Array([1]), "application/octet-stream"));
    expect(chosen).toBeInstanceOf(Blob);
  });

  it("reads nothing from a HEAD answer, a 205, a 304 or a status declared without content, and cancels the body", async () => {
    const head = route({ method: "HEAD", responses: { "200": [json] } });
    expect(await readSuccess(head, response(200, "ignored", "application/json"), checkingAnswers())).toBeUndefined();
    const empty = route({ responses: { "200": [] } });
    const answer = response(200, "ignored", "application/json");
    expect(await readSuccess(empty, answer, checkingAnswers())).toBeUndefined();
    expect(answer.bodyUsed).toBe(true);
    expect(await readSuccess(ROUTE, response(205, null))).toBeUndefined();
  });

  it("reads a status nothing declares by its Content-Type, as text when there is none", async () => {
    const bare = route({ responses: {} });
    expect(await readSuccess(bare, response(200, '{"a":1}', "application/json"))).toEqual({ a: 1 });
    expect(await readSuccess(bare, response(200, "plain"))).toBe("plain");
    expect(await readSuccess(bare, response(200, "x", "image/gif"))).toBeInstanceOf(Blob);
  });

  it("reads JSON on a route whose answers are JSON and that names no answer reader, or text for an undeclared status", async () => {
    const jsonOnly = route({ responses: { "200": [json] }, encoders: undefined });
    expect(await readSuccess(jsonOnly, response(200, '{"a":1}', "text/plain"))).toEqual({ a: 1 });
    expect(await readSuccess(jsonOnly, response(201, '{"a":2}', "application/hal+json"))).toEqual({ a: 2 });
    expect(await readSuccess(jsonOnly, response(201, "<p>made</p>", "text/html"))).toBe("<p>made</p>");
    expect(await readSuccess(jsonOnly, response(201, "x"))).toBe("x");
  });

  it("refuses malformed JSON with a ResponseValidationError, checks on or off", async () => {
    for (const validate of [checkingAnswers(), undefined]) {
      const error = await rejection(readSuccess(ROUTE, response(200, "{oops", "application/json"), validate));
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error).toMatchObject({
        operationId: "getVenue",
        status: 200,
        body: "{oops",
        message: "getVenue: invalid 200 answer: is not valid JSON",
      });
    }
  });

  it("with checks on, checks a JSON body with the validator of its status, its class or default", async () => {
    expect(await readSuccess(ROUTE, response(200, '{"name":"x"}', "application/json"), checkingAnswers())).toEqual({
      name: "x",
    });
    const invalid = await rejection(
      readSuccess(ROUTE, response(200, '{"name":1}', "application/json"), checkingAnswers()),
    );
    expect(invalid).toMatchObject({ message: "getVenue: invalid 200 answer: /name must be string", body: { name: 1 } });
    const ranged = await rejection(
      readSuccess(ROUTE, response(299, '{"data":1}', "application/vnd.api+json"), checkingAnswers()),
    );
    expect(ranged).toMatchObject({ status: 299, message: "getVenue: invalid 299 answer: /data must be array" });
    expect(await readSuccess(ROUTE, response(201, "not JSON, not checked", "text/plain"), checkingAnswers())).toBe(
      "not JSON, not checked",
    );
  });

  it("with checks on, refuses a status nothing declares", async () => {
    const error = await rejection(
      readSuccess(
        route({ responses: { "200": [json] } }),
        response(201, '{"a":1}', "application/json"),
        checkingAnswers(),
      ),
    );
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({
      message: "getThings: invalid 201 answer: status 201 is not declared",
      body: { a: 1 },
    });
    expect((error as ResponseValidationError).errors).toEqual([
      {
        instancePath: "",
        schemaPath: "#/responses",
        keyword: "status",
        params: { status: 201 },
        message: "status 201 is not declared",
      },
    ]);
  });

  it("with checks on, reads any answer of an operation that declares no response unchecked", async () => {
    const undeclared = route({ responses: {} });
    expect(await readSuccess(undeclared, response(204, null), checkingAnswers())).toBeUndefined();
    expect(await readSuccess(undeclared, response(200, '{"a":1}', "application/json"), checkingAnswers())).toEqual({
      a: 1,
    });
  });
});

describe("readFailure", () => {
  it.each<[string, Response, unknown]>([
    [
      "a problem",
      response(
        404,
        '{"type":"urn:x","title":"Not Found","status":404,"detail":"No venue 7."}',
        "application/problem+json",
      ),
      { type: "urn:x", title: "Not Found", status: 404, detail: "No venue 7." },
    ],
    ["malformed JSON as text", response(500, "{oops", "application/json"), "{oops"],
    ["text", response(502, "Bad gateway\nmore", "text/html"), "Bad gateway\nmore"],
    ["a body without a Content-Type as text", response(500, '{"a":1}'), '{"a":1}'],
    ["an empty body as nothing", response(503, "", "application/json"), undefined],
    ["bytes as text", response(500, "bin", "application/octet-stream"), "bin"],
  ])("reads %s", async (_label, answer, body) => {
    const error = await readFailure(ROUTE, answer);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.body).toEqual(body);
    expect(error.status).toBe(answer.status);
    expect(error.operationId).toBe("getVenue");
    expect(error.response).toBe(answer);
  });

  it("reads a body that cannot be read as nothing", async () => {
    const broken = new Response(new ReadableStream({ pull: (controller) => controller.error(new Error("reset")) }), {
      status: 500,
    });
    expect((await readFailure(ROUTE, broken)).body).toBeUndefined();
  });

  it("reads a failure whatever the route declares for the status", async () => {
    const route404: Route = route({ responses: { "404": [content("text/plain")] } });
    expect((await readFailure(route404, response(404, '{"detail":"x"}', "application/json"))).body).toEqual({
      detail: "x",
    });
  });
});
