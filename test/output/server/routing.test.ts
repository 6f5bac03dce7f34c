import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectProblem } from "../../support/contract-bodies.js";
import { startServer, type TestServer } from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe("unknown routes and wrong methods", () => {
  it("an unknown path under the base path → 404 not-found, as the spec's example", async () => {
    const problem = await expectProblem(await server.call("GET", "/nothing-here"), 404, "urn:problem-type:not-found");
    expect(problem).toEqual({
      type: "urn:problem-type:not-found",
      title: "Not Found",
      status: 404,
      detail: "No resource matches this path.",
    });
  });

  it("a path outside the base path → 404 not-found", async () => {
    const response = await fetch(server.base.replace("/api/1_12", "/elsewhere"));
    await expectProblem(response, 404, "urn:problem-type:not-found");
  });

  it("a known path with a wrong method → 405 with Allow", async () => {
    const response = await server.call("DELETE", "/venues");
    expect(response.headers.get("allow")).toBe("POST");
    await expectProblem(response, 405, "urn:problem-type:method-not-allowed");
  });

  it("lists every method of the path, with HEAD for GET", async () => {
    const response = await server.call("PUT", "/events");
    expect(response.headers.get("allow")).toBe("GET, HEAD, POST");
    await expectProblem(response, 405, "urn:problem-type:method-not-allowed");
  });

  it("matches path templates: GET /workers/7/documents → 405 Allow: POST", async () => {
    const response = await server.call("GET", "/workers/7/documents");
    expect(response.headers.get("allow")).toBe("POST");
    await expectProblem(response, 405, "urn:problem-type:method-not-allowed");
  });

  it("QUERY, which Fastify refuses without a Content-Type, → 405 with Allow, body or not", async () => {
    const bodies: { body?: Uint8Array; contentType?: string }[] = [
      {},
      { body: new TextEncoder().encode("{}") },
      { body: new TextEncoder().encode("{}"), contentType: "not a media type" },
      { body: new TextEncoder().encode("{}"), contentType: "application/json" },
    ];
    for (const init of bodies) {
      const response = await server.call("QUERY", "/events", init);
      expect(response.headers.get("allow")).toBe("GET, HEAD, POST");
      const problem = await expectProblem(response, 405, "urn:problem-type:method-not-allowed");
      expect(problem.detail).toBe("The method QUERY is not allowed on this path; use GET, HEAD, POST.");
    }
  });

  it("a body Fastify refuses on a path no operation has → 404, inside and outside the base path", async () => {
    await expectProblem(await server.call("QUERY", "/nothing-here"), 404, "urn:problem-type:not-found");
    const outside = server.base.replace("/api/1_12", "/elsewhere");
    await expectProblem(await fetch(outside, { method: "QUERY" }), 404, "urn:problem-type:not-found");
    const badType = await fetch(outside, { method: "POST", headers: { "content-type": "bad" }, body: "x" });
    await expectProblem(badType, 404, "urn:problem-type:not-found");
  });

  it("a wrong method is not a 401, even without a key", async () => {
    await expectProblem(
      await server.call("DELETE", "/venues", { key: null }),
      405,
      "urn:problem-type:method-not-allowed",
    );
  });
});
