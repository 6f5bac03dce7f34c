import { fastify } from "fastify";
import { describe, expect, it } from "vitest";
import type { HttpMethod, Route } from "../../../../runtime/route-types.js";
import { createNotFoundHandler } from "../../../../runtime/server/runtime/not-found.js";
import { fakeReply, fakeRequest } from "../support/fastify.js";
import { route } from "../support/routes.js";

const TABLE: readonly Route[] = (
  [
    ["GET", "/venues"],
    ["POST", "/venues"],
    ["GET", "/venues/{id}"],
    ["DELETE", "/venues/{id}"],
    ["PUT", "/venues/{id}/photo.png"],
    ["POST", "/search?beta=true"],
    ["PATCH", "/a+b/(x)"],
    ["POST", "/venues"],
  ] as const
).map(([method, path]: readonly [HttpMethod, string]) => route({ method, path }));

/** What the handler answers to `method url`: status, Allow header, problem. */
function answer(
  prefix: string,
  method: string,
  url: string,
  routes: readonly Route[] = TABLE,
): { status: number; allow: unknown; problem: Record<string, unknown> } {
  const { request } = fakeRequest({ method, url });
  const { reply, sent } = fakeReply();
  createNotFoundHandler(routes, prefix)(request, reply);
  return {
    status: sent.statusCode,
    allow: sent.headers.allow,
    problem: JSON.parse(String(sent.payload)) as Record<string, unknown>,
  };
}

describe("createNotFoundHandler", () => {
  it.each([
    ["PUT", "/venues", "GET, HEAD, POST"],
    ["DELETE", "/venues?x=1", "GET, HEAD, POST"],
    ["POST", "/venues/7", "DELETE, GET, HEAD"],
    ["GET", "/venues/ä%20b", "DELETE, GET, HEAD"],
    ["GET", "/venues/7/photo.png", "PUT"],
    ["GET", "/search", "POST"],
    ["GET", "/a+b/(x)", "PATCH"],
  ])("%s %s → 405, Allow: %s", (method, url, allow) => {
    const { status, allow: header, problem } = answer("", method, url);
    expect([status, header]).toEqual([405, allow]);
    expect(problem).toEqual({
      type: "urn:problem-type:method-not-allowed",
      title: "Method Not Allowed",
      status: 405,
      detail: `The method ${method} is not allowed on this path; use ${allow}.`,
    });
  });

  it.each(["/nothing", "/venues/", "/venues/7/extra", "/venues//", "/venues/7/photoXpng", "/aab/(x)", "/VENUES", ""])(
    "GET %j → 404",
    (url) => {
      const { status, allow, problem } = answer("", "GET", url);
      expect([status, allow]).toEqual([404, undefined]);
      expect(problem).toEqual({
        type: "urn:problem-type:not-found",
        title: "Not Found",
        status: 404,
        detail: "No resource matches this path.",
      });
    },
  );

  it("serves only paths under its prefix", () => {
    expect(answer("/api/v1", "PUT", "/api/v1/venues")).toMatchObject({ status: 405, allow: "GET, HEAD, POST" });
    expect(answer("/api/v1", "PUT", "/venues").status).toBe(404);
    expect(answer("/api/v1", "PUT", "/api/v1x/venues").status).toBe(404);
    expect(answer("/api/v1", "PUT", "/api/v1").status).toBe(404);
  });

  it("answers 404 to everything without routes", () => {
    expect(answer("", "GET", "/venues", []).status).toBe(404);
    expect(answer("/api", "GET", "/api/venues", []).status).toBe(404);
  });

  it("is Fastify's not-found handler", async () => {
    const app = fastify();
    app.get("/venues", () => []);
    app.setNotFoundHandler(createNotFoundHandler([route({ method: "GET", path: "/venues" })], ""));
    const wrongMethod = await app.inject({ method: "DELETE", url: "/venues" });
    expect([wrongMethod.statusCode, wrongMethod.headers.allow, wrongMethod.headers["content-type"]]).toEqual([
      405,
      "GET, HEAD",
      "application/problem+json; charset=utf-8",
    ]);
    expect((await app.inject("/elsewhere")).statusCode).toBe(404);
    await app.close();
  });
});
