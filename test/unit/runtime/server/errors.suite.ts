import { fastify } from "fastify";
import { describe, expect, it } from "vitest";
import { errorCode, handleError, pathOf, problemOf } from "../../../../runtime/server/runtime/errors.js";
import { createProblem, ProblemError } from "../../../../runtime/server/runtime/problems.js";
import { fakeReply, fakeRequest, logLines } from "../support/fastify.js";

/** An error as Fastify and its plugins make them: a code and a status. */
function codedError(code: unknown, statusCode?: unknown): Error {
  return Object.assign(new Error(`error ${String(code)}`), { code, statusCode });
}

const INTERNAL = {
  type: "urn:problem-type:internal-error",
  title: "Internal Server Error",
  status: 500,
  detail: "The server failed to answer this request.",
};

describe("problemOf", () => {
  it.each([
    ["FST_ERR_CTP_BODY_TOO_LARGE", 413, "The request body is larger than the server accepts."],
    ["FST_REQ_FILE_TOO_LARGE", 413, "An uploaded file is larger than the server accepts."],
    ["FST_FILES_LIMIT", 413, "The multipart body has more files than the server accepts."],
    ["FST_PARTS_LIMIT", 413, "The multipart body has more parts than the server accepts."],
    ["FST_FIELDS_LIMIT", 413, "The multipart body has more fields than the server accepts."],
    ["FST_ERR_CTP_INVALID_MEDIA_TYPE", 415, "The Content-Type of the request is not accepted."],
    ["FST_INVALID_MULTIPART_CONTENT_TYPE", 415, "The request is not multipart/form-data."],
    ["FST_PROTO_VIOLATION", 400, "A form field has a name that is not allowed."],
    ["FST_INVALID_JSON_FIELD_ERROR", 400, "A form field declared as JSON is not well-formed JSON."],
    ["FST_MP_PREMATURE_CLOSE", 400, "The multipart body ended before it was complete."],
    ["FST_ERR_CTP_INVALID_CONTENT_LENGTH", 400, "The request body does not match its Content-Length."],
  ])("%s → %i, whatever its status", (code, status, detail) => {
    const problem = problemOf(codedError(code, 500));
    expect(problem.status).toBe(status);
    expect(problem.detail).toBe(detail);
    expect(problem.type).toMatch(/^urn:problem-type:/);
  });

  it.each([
    [400, "urn:problem-type:malformed-body", "The request could not be read."],
    [404, "urn:problem-type:not-found", "No resource matches this path."],
    [413, "urn:problem-type:payload-too-large", "The request body is larger than the server accepts."],
    [415, "urn:problem-type:unsupported-media-type", "The Content-Type of the request is not accepted."],
  ])("an unknown code with status %i → its problem", (statusCode, type, detail) => {
    expect(problemOf(codedError("FST_SOMETHING_NEW", statusCode))).toMatchObject({ type, status: statusCode, detail });
  });

  it.each([
    [401, "Unauthorized"],
    [418, "I'm a Teapot"],
    [429, "Too Many Requests"],
    [499, "Client Error"],
  ])("another 4xx status %i → about:blank with the status text", (statusCode, title) => {
    expect(problemOf({ statusCode })).toEqual({ type: "about:blank", title, status: statusCode, detail: title });
  });

  it.each([
    ["a plain Error", new Error("secret internals")],
    ["a 5xx status", { statusCode: 503 }],
    ["a 3xx status", { statusCode: 302 }],
    ["a fractional status", { statusCode: 404.5 }],
    ["a status as text", { statusCode: "404" }],
    ["an inherited code name", codedError("toString")],
    ["a __proto__ code", codedError("__proto__")],
    ["a numeric code", codedError(413)],
    ["a string", "boom"],
    ["null", null],
    ["undefined", undefined],
  ])("%s → a 500 that reveals nothing", (_label, error) => {
    expect(problemOf(error)).toEqual(INTERNAL);
  });
});

describe("errorCode", () => {
  it.each([
    [codedError("FST_X"), "FST_X"],
    [{ code: "" }, ""],
    [{ code: 7 }, undefined],
    [{}, undefined],
    [null, undefined],
    ["FST_X", undefined],
    [42, undefined],
  ])("%j → %j", (error, expected) => {
    expect(errorCode(error)).toBe(expected);
  });
});

describe("pathOf", () => {
  it.each([
    ["/a/b", "/a/b"],
    ["/a/b?key=secret", "/a/b"],
    ["/a?b?c", "/a"],
    ["?only=query", ""],
    ["", ""],
    ["/ä%20b?x", "/ä%20b"],
  ])("%j → %j", (url, path) => {
    expect(pathOf(url)).toBe(path);
  });
});

describe("handleError", () => {
  it("sends a ProblemError's problem and headers, logging nothing", () => {
    const { request, log } = fakeRequest();
    const { reply, sent } = fakeReply();
    handleError(new ProblemError(createProblem("requestTimeout", "late"), { "retry-after": "3" }), request, reply);
    expect(sent.statusCode).toBe(408);
    expect(sent.headers).toEqual({ "retry-after": "3", "content-type": "application/problem+json" });
    expect(JSON.parse(String(sent.payload))).toMatchObject({ status: 408, detail: "late" });
    expect(log.error).not.toHaveBeenCalled();
  });

  it("logs an unexpected error with its stack and the path without the query, and answers a bare 500", () => {
    const { request, log } = fakeRequest({ method: "POST", url: "/venues?api_key=secret" });
    const { reply, sent } = fakeReply();
    const error = new Error("database password is hunter2");
    handleError(error, request, reply);
    expect(sent.statusCode).toBe(500);
    expect(JSON.parse(String(sent.payload))).toEqual(INTERNAL);
    expect(String(sent.payload)).not.toContain("hunter2");
    expect(log.error).toHaveBeenCalledExactlyOnceWith({ err: error }, "request failed: POST /venues");
  });

  it("closes the connection after a 413, and does not log a 4xx", () => {
    const { request, log } = fakeRequest();
    const { reply, sent } = fakeReply();
    handleError(codedError("FST_ERR_CTP_BODY_TOO_LARGE", 413), request, reply);
    expect(sent.statusCode).toBe(413);
    expect(sent.headers.connection).toBe("close");
    expect(log.error).not.toHaveBeenCalled();
  });

  it("is Fastify's error handler: thrown errors become problems on the wire", async () => {
    const logs = logLines();
    const app = fastify({ logger: { level: "error", stream: logs.stream } });
    app.setErrorHandler(handleError);
    app.get("/bug", () => {
      throw new TypeError("cannot read x of undefined");
    });
    app.get("/gone", () => {
      throw Object.assign(new Error("gone"), { statusCode: 410 });
    });
    const bug = await app.inject("/bug?token=abc");
    expect(bug.statusCode).toBe(500);
    expect(bug.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(bug.json()).toEqual(INTERNAL);
    const gone = await app.inject("/gone");
    expect([gone.statusCode, gone.json()]).toEqual([
      410,
      { type: "about:blank", title: "Gone", status: 410, detail: "Gone" },
    ]);
    const errors = logs.lines().filter((line) => line.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.msg).toBe("request failed: GET /bug");
    expect(JSON.stringify(errors[0])).toContain("cannot read x of undefined");
    expect(JSON.stringify(logs.lines())).not.toContain("token=abc");
    await app.close();
  });
});
