import { describe, expect, it } from "vitest";
import {
  ApiError,
  ApiNetworkError,
  ApiTimeoutError,
  RequestValidationError,
  ResponseValidationError,
  UnexpectedError,
} from "../../../../runtime/client/errors.js";
import { failure } from "../support/routes.js";

const answer = (status: number, statusText = ""): Response => new Response(null, { status, statusText });

describe("ApiError", () => {
  it.each<[string, Response, unknown, string]>([
    [
      "the first validation error of a problem",
      answer(400, "Bad Request"),
      { detail: "d", errors: [{ message: "/name must be at most 150 characters" }, { message: "second" }] },
      "createVenue: 400 Bad Request: /name must be at most 150 characters",
    ],
    [
      "a problem's detail",
      answer(404, "Not Found"),
      { title: "Not Found", detail: "No venue 7." },
      "createVenue: 404 Not Found: No venue 7.",
    ],
    [
      "the problem's title when there is no status text",
      answer(404),
      { title: "Missing", detail: "No venue 7." },
      "createVenue: 404 Missing: No venue 7.",
    ],
    [
      "the detail when the first error has no message",
      answer(400),
      { detail: "d", errors: [{ keyword: "x" }] },
      "createVenue: 400: d",
    ],
    ["the status alone for an object without a reason", answer(500), { detail: 5, title: 7 }, "createVenue: 500"],
    [
      "the first line of a text body",
      answer(502, "Bad Gateway"),
      "  upstream down\nstack trace",
      "createVenue: 502 Bad Gateway: upstream down",
    ],
    ["at most 200 characters of it", answer(500), "x".repeat(300), `createVenue: 500: ${"x".repeat(200)}`],
    ["nothing of an empty body", answer(503, "Service Unavailable"), undefined, "createVenue: 503 Service Unavailable"],
    ["nothing of a blank body", answer(503), " \n", "createVenue: 503"],
    ["nothing of an array body", answer(409), [{ message: "no" }], "createVenue: 409"],
  ])("names the operation, the status and %s", (_label, response, body, message) => {
    const error = new ApiError("createVenue", response, body);
    expect(error.message).toBe(message);
  });

  it("carries the status, the operation, the body, the problem and the answer", () => {
    const response = answer(422);
    const problem = { type: "urn:x", detail: "d" };
    const error = new ApiError("createVenue", response, problem);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("ApiError");
    expect([error.status, error.operationId, error.body, error.problem, error.response]).toEqual([
      422,
      "createVenue",
      problem,
      problem,
      response,
    ]);
    expect(new ApiError("x", response, "text").problem).toBeUndefined();
    expect(new ApiError("x", response, ["a"]).problem).toBeUndefined();
    expect(new ApiError("x", response, null).problem).toBeUndefined();
  });
});

describe("ApiTimeoutError", () => {
  it("names the operation and the timeout, and keeps the cause", () => {
    const cause = new DOMException("timed out after 50 ms", "TimeoutError");
    const error = new ApiTimeoutError("listVenues", 50, cause);
    expect([error.name, error.message, error.operationId, error.timeoutMs, error.cause]).toEqual([
      "ApiTimeoutError",
      "listVenues: no complete answer within 50 ms",
      "listVenues",
      50,
      cause,
    ]);
    expect(error).toBeInstanceOf(Error);
  });
});

describe("ApiNetworkError", () => {
  it.each<[string, unknown, string]>([
    ["an error", new TypeError("fetch failed"), "listVenues: network failure: fetch failed"],
    [
      "an error and its cause",
      new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:1") }),
      "listVenues: network failure: fetch failed: connect ECONNREFUSED 127.0.0.1:1",
    ],
    [
      "an error with a cause that is no error",
      new TypeError("fetch failed", { cause: "x" }),
      "listVenues: network failure: fetch failed",
    ],
    ["a thrown string", "offline", "listVenues: network failure: offline"],
    ["undefined", undefined, "listVenues: network failure: undefined"],
  ])("describes %s", (_label, cause, message) => {
    const error = new ApiNetworkError("listVenues", cause);
    expect([error.name, error.message, error.operationId, error.cause]).toEqual([
      "ApiNetworkError",
      message,
      "listVenues",
      cause,
    ]);
  });
});

describe("RequestValidationError", () => {
  it.each<[string, readonly ("path" | "query" | "header" | "body")[], string]>([
    ["one issue", ["body"], "createVenue: invalid request: body m0"],
    ["the first of several", ["query", "body", "path"], "createVenue: invalid request: query m0 (and 2 more)"],
    ["no issue", [], "createVenue: invalid request: unknown error"],
  ])("lists %s", (_label, parts, message) => {
    const errors = parts.map((part, i) => ({ in: part, ...failure(`m${i}`) }));
    const error = new RequestValidationError("createVenue", errors);
    expect([error.name, error.message, error.operationId, error.errors]).toEqual([
      "RequestValidationError",
      message,
      "createVenue",
      errors,
    ]);
  });
});

describe("ResponseValidationError", () => {
  it("names the operation and the status and lists the errors", () => {
    const response = answer(200);
    const errors = [failure("/name must be string"), failure("/id must be integer")];
    const error = new ResponseValidationError("getVenue", response, errors, { name: 1 });
    expect([
      error.name,
      error.message,
      error.operationId,
      error.status,
      error.errors,
      error.body,
      error.response,
    ]).toEqual([
      "ResponseValidationError",
      "getVenue: invalid 200 answer: /name must be string (and 1 more)",
      "getVenue",
      200,
      errors,
      { name: 1 },
      response,
    ]);
    expect(new ResponseValidationError("getVenue", response, [], undefined).message).toBe(
      "getVenue: invalid 200 answer: unknown error",
    );
  });
});

describe("UnexpectedError", () => {
  it("is of the kind its cause's class declares, a subclass's too, and of none for another error", () => {
    class RetriedNetworkError extends ApiNetworkError {}
    const lookalike = Object.assign(new Error("down"), { name: "ApiNetworkError" });
    const kinds = [
      new ApiError("getVenue", answer(418), undefined),
      new ApiTimeoutError("getVenue", 5, undefined),
      new ApiNetworkError("getVenue", undefined),
      new RequestValidationError("getVenue", []),
      new ResponseValidationError("getVenue", answer(200), [], undefined),
      new RetriedNetworkError("getVenue", undefined),
      lookalike,
      new UnexpectedError("getVenue", undefined),
      "down",
    ].map((cause) => new UnexpectedError("getVenue", cause).kind);
    expect(kinds).toEqual([
      "status",
      "timeout",
      "network",
      "request",
      "response",
      "network",
      "other",
      "other",
      "other",
    ]);
  });
});
