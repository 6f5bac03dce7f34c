import { describe, expect, it, vi } from "vitest";
import type { Validator } from "../../../../runtime/route-types.js";
import { toRouterPath } from "../../../../runtime/server/runtime/parameters.js";
import type { ValidationIssue } from "../../../../runtime/server/runtime/problems.js";
import { InputReader, validationProblem } from "../../../../runtime/server/runtime/request.js";
import { fakeRequest } from "../support/fastify.js";
import { accepting, content, failure, param, refusing, route, stringProperties } from "../support/routes.js";

const JSON_BODY = content("application/json");

describe("InputReader", () => {
  it("hands over frozen empty parts and the body as it is when the route has no validators", () => {
    const { request } = fakeRequest({ params: { id: "1" }, query: { q: "x" }, headers: { "x-a": "1" } });
    const input = new InputReader(route(), toRouterPath("/things")).read(request, undefined, undefined);
    expect(input).toEqual({ params: {}, query: {}, headers: {}, cookies: {}, body: undefined, request });
    if (Array.isArray(input)) throw new Error("unexpected issues");
    expect(Object.isFrozen(input.params)).toBe(true);
    expect(input.request).toBe(request);
  });

  it("gives each validator its part, read as the spec names it, with every error collected, and hands over the converted values", () => {
    const seen: unknown[] = [];
    const spy =
      (convert: (value: unknown) => unknown): Validator =>
      (value, options) => {
        seen.push([value, options]);
        return { valid: true, value: convert(value) };
      };
    const reader = new InputReader(
      route({
        path: "/workers/{worker-id}",
        pathParams: ["worker-id"],
        query: [param("limit"), param("tags", { array: true, explode: false })],
        headers: [param("X-Trace")],
        body: { required: true, pointer: "#/paths/~1workers~1{worker-id}/post/requestBody", contents: [JSON_BODY] },
        validators: {
          pathParams: spy((value) => ({ ...(value as object), converted: true })),
          query: spy((value) => value),
          headers: spy((value) => value),
          body: { "application/json": spy(() => "converted body") },
          responses: {},
        },
      }),
      toRouterPath("/workers/{worker-id}"),
    );
    const { request } = fakeRequest({
      url: "/workers/7?limit=5&tags=a,b&other=x",
      params: { p0: "7" },
      headers: { "x-trace": "t1", host: "h" },
    });
    const input = reader.read(request, JSON_BODY, { raw: true });
    const all = { allErrors: true };
    expect(seen).toEqual([
      [{ "worker-id": "7" }, all],
      [{ limit: "5", tags: ["a", "b"] }, all],
      [{ "X-Trace": "t1" }, all],
      [{ raw: true }, all],
    ]);
    expect(input).toEqual({
      params: { "worker-id": "7", converted: true },
      query: { limit: "5", tags: ["a", "b"] },
      headers: { "X-Trace": "t1" },
      cookies: {},
      body: "converted body",
      request,
    });
  });

  it("collects the issues of every part, in the order path, query, header, body", () => {
    const reader = new InputReader(
      route({
        validators: {
          pathParams: refusing("/id must be integer"),
          query: refusing("must have required property 'limit'", "/q must be string"),
          headers: refusing("/X-A must be string"),
          body: { "application/json": stringProperties("name") },
          responses: {},
        },
        body: { required: false, pointer: "#/b", contents: [JSON_BODY] },
      }),
      toRouterPath("/things"),
    );
    const issues = reader.read(fakeRequest().request, JSON_BODY, { name: 5 });
    expect(Array.isArray(issues)).toBe(true);
    expect((issues as ValidationIssue[]).map((issue) => `${issue.in} ${issue.message}`)).toEqual([
      "path /id must be integer",
      "query must have required property 'limit'",
      "query /q must be string",
      "header /X-A must be string",
      "body /name must be string",
    ]);
    expect((issues as ValidationIssue[])[4]).toEqual({ in: "body", ...failure("/name must be string", "/name") });
  });

  it("reports a missing required body with the body's pointer, after the other issues, without running the body validator", () => {
    const body = vi.fn(accepting());
    const reader = new InputReader(
      route({
        body: { required: true, pointer: "#/paths/~1venues/post/requestBody", contents: [JSON_BODY] },
        validators: { query: refusing("/q must be string"), body: { "application/json": body }, responses: {} },
      }),
      toRouterPath("/venues"),
    );
    expect(reader.read(fakeRequest().request, undefined, undefined)).toEqual([
      { in: "query", ...failure("/q must be string") },
      {
        in: "body",
        instancePath: "",
        schemaPath: "#/paths/~1venues/post/requestBody/required",
        keyword: "required",
        params: {},
        message: "is required",
      },
    ]);
    expect(body).not.toHaveBeenCalled();
  });

  it("lets an optional body be absent", () => {
    const reader = new InputReader(
      route({
        body: { required: false, pointer: "#/b", contents: [JSON_BODY] },
        validators: { body: { "application/json": refusing("no") }, responses: {} },
      }),
      toRouterPath("/"),
    );
    expect(reader.read(fakeRequest().request, JSON_BODY, undefined)).toMatchObject({ body: undefined });
  });

  it("checks the body with the validator of the media type it came as, and leaves a type with no validator unchecked", () => {
    const text = content("text/plain");
    const other = content("application/octet-stream");
    const reader = new InputReader(
      route({
        body: { required: true, pointer: "#/b", contents: [JSON_BODY, text, other] },
        validators: {
          body: { "application/json": refusing("json refused"), "text/plain": accepting((v) => `${String(v)}!`) },
          responses: {},
        },
      }),
      toRouterPath("/"),
    );
    const { request } = fakeRequest();
    expect(reader.read(request, JSON_BODY, {})).toEqual([{ in: "body", ...failure("json refused") }]);
    expect(reader.read(request, text, "hi")).toMatchObject({ body: "hi!" });
    const bytes = Buffer.from([1, 2]);
    expect(reader.read(request, other, bytes)).toMatchObject({ body: bytes });
    expect(reader.read(request, content("__proto__"), "x")).toMatchObject({ body: "x" });
  });
});

describe("validationProblem", () => {
  const issue = (where: ValidationIssue["in"], message: string): ValidationIssue => ({
    in: where,
    instancePath: "",
    schemaPath: "#",
    keyword: "k",
    params: {},
    message,
  });

  it.each([
    [[issue("body", "/name must be at most 150 characters")], "body/name must be at most 150 characters"],
    [[issue("query", "must have required property 'limit'")], "query must have required property 'limit'"],
    [[issue("header", "/X-Ä must be string"), issue("path", "x")], "header/X-Ä must be string (and 1 more)"],
    [
      [issue("path", "/id must be integer"), issue("path", "b"), issue("query", "c")],
      "path/id must be integer (and 2 more)",
    ],
    [[], "the request is not valid"],
  ])("%j → detail %j", (issues, detail) => {
    expect(validationProblem(issues)).toEqual({
      type: "urn:problem-type:validation-error",
      title: "Request validation failed",
      status: 400,
      detail,
      errors: issues,
    });
  });
});
