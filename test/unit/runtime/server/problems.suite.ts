import { fastify } from "fastify";
import { describe, expect, it } from "vitest";
import {
  createProblem,
  notImplemented,
  PROBLEM_MEDIA_TYPE,
  PROBLEM_TYPES,
  ProblemError,
  type ProblemKind,
} from "../../../../runtime/server/runtime/problems.js";
import { sendProblem } from "../../../../runtime/server/runtime/reply.js";

describe("createProblem", () => {
  it.each(Object.keys(PROBLEM_TYPES) as ProblemKind[])(
    "%s: the type, title and status of its kind, with the detail",
    (kind) => {
      const { type, title, status } = PROBLEM_TYPES[kind];
      expect(createProblem(kind, "what happened")).toEqual({ type, title, status, detail: "what happened" });
      expect(type).toMatch(/^urn:problem-type:[a-z-]+$/);
      expect(status).toBeGreaterThanOrEqual(400);
    },
  );

  it("lists the issues only when given, even an empty list", () => {
    const issue = {
      in: "body",
      instancePath: "/a",
      schemaPath: "#/a",
      keyword: "type",
      params: {},
      message: "/a must be string",
    } as const;
    expect(createProblem("validation", "x", [issue]).errors).toEqual([issue]);
    expect(createProblem("validation", "x", [])).toHaveProperty("errors", []);
    expect(createProblem("validation", "x")).not.toHaveProperty("errors");
  });

  it("gives each kind its own type", () => {
    const types = Object.values(PROBLEM_TYPES).map((entry) => entry.type);
    expect(new Set(types).size).toBe(types.length);
  });
});

describe("ProblemError", () => {
  it("carries the problem and extra headers; its message is the detail", () => {
    const problem = createProblem("methodNotAllowed", "use GET");
    const error = new ProblemError(problem, { allow: "GET" });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("ProblemError");
    expect(error.message).toBe("use GET");
    expect(error.problem).toBe(problem);
    expect(error.headers).toEqual({ allow: "GET" });
  });

  it("has no extra headers by default, and the title as message when there is no detail", () => {
    const error = new ProblemError({ type: "about:blank", title: "Teapot", status: 418 });
    expect(error.headers).toEqual({});
    expect(error.message).toBe("Teapot");
  });
});

describe("notImplemented", () => {
  it.each(["listVenues", "", "__proto__"])("throws the 501 problem of operation %j", (operationId) => {
    expect(() => notImplemented(operationId)).toThrow(ProblemError);
    try {
      notImplemented(operationId);
    } catch (error) {
      expect((error as ProblemError).problem).toEqual({
        type: "urn:problem-type:not-implemented",
        title: "Not Implemented",
        status: 501,
        detail: `The operation ${operationId} is not implemented.`,
      });
    }
  });
});

describe("sendProblem", () => {
  it("sends the status, the problem media type, the JSON body and any extra headers", async () => {
    const app = fastify();
    const problem = createProblem("methodNotAllowed", "The method PUT is not allowed on this path; use GET, HEAD.");
    app.get("/plain", (_request, reply) => sendProblem(reply, createProblem("notFound", "nothing here ✓")));
    app.get("/headers", (_request, reply) => sendProblem(reply, problem, { allow: "GET, HEAD", "retry-after": "5" }));
    app.get("/override", (_request, reply) => sendProblem(reply, problem, { "content-type": "text/plain" }));

    const plain = await app.inject("/plain");
    expect(plain.statusCode).toBe(404);
    expect(plain.headers["content-type"]).toBe(`${PROBLEM_MEDIA_TYPE}; charset=utf-8`);
    expect(plain.json()).toEqual({
      type: "urn:problem-type:not-found",
      title: "Not Found",
      status: 404,
      detail: "nothing here ✓",
    });
    expect(Number(plain.headers["content-length"])).toBe(Buffer.byteLength(plain.body));

    const withHeaders = await app.inject("/headers");
    expect(withHeaders.statusCode).toBe(405);
    expect(withHeaders.headers).toMatchObject({
      allow: "GET, HEAD",
      "retry-after": "5",
      "content-type": `${PROBLEM_MEDIA_TYPE}; charset=utf-8`,
    });
    expect(withHeaders.json()).toEqual(problem);

    expect((await app.inject("/override")).headers["content-type"]).toBe(`${PROBLEM_MEDIA_TYPE}; charset=utf-8`);
    await app.close();
  });
});
