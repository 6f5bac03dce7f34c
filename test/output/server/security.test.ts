import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createKeyAuthenticator,
  createMockHandlers,
  type Handlers,
  mockAnswers,
} from "../../../generated/server/index.js";
import { expectProblem, venue } from "../../support/contract-bodies.js";
import { API_KEY, FORBIDDEN_KEY, startServer, type TestServer } from "./helpers.js";

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(
      ...chunk
        .toString("utf8")
        .split("\n")
        .filter((line) => line !== ""),
    );
    done();
  },
});

/** Logs the whole request (headers included) from inside a handler, to see what the serializer keeps. */
const handlers: Handlers = {
  ...createMockHandlers(),
  createVenue: ({ request }) => {
    request.log.info({ req: request }, "handler saw the request");
    return { status: 200, body: { venue_id: 1 } };
  },
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ handlers, logger: { level: "info", stream: logStream } });
});
afterAll(() => server.close());

describe("X-API-KEY", () => {
  it("missing → 401 missing-api-key, as the spec's example", async () => {
    const problem = await expectProblem(
      await server.call("GET", "/events", { key: null }),
      401,
      "urn:problem-type:missing-api-key",
    );
    expect(problem).toEqual({
      type: "urn:problem-type:missing-api-key",
      title: "Missing API key",
      status: 401,
      detail: "The X-API-KEY header is required.",
    });
  });

  it("empty → 401 missing-api-key", async () => {
    await expectProblem(await server.call("GET", "/events", { key: "" }), 401, "urn:problem-type:missing-api-key");
  });

  it("rejected by the authenticate hook → 401 invalid-api-key", async () => {
    await expectProblem(
      await server.call("GET", "/events", { key: "not-a-key" }),
      401,
      "urn:problem-type:invalid-api-key",
    );
  });

  it("forbidden by the authenticate hook → 403 forbidden, as the spec's example", async () => {
    const problem = await expectProblem(
      await server.call("GET", "/events", { key: FORBIDDEN_KEY }),
      403,
      "urn:problem-type:forbidden",
    );
    expect(problem["detail"]).toBe("The API key is not allowed to perform this operation.");
  });

  it("is checked before the body: no key with a malformed or wrongly typed body is still 401", async () => {
    await expectProblem(
      await server.call("POST", "/venues", { key: null, body: "{", contentType: "application/json" }),
      401,
      "urn:problem-type:missing-api-key",
    );
    await expectProblem(
      await server.call("POST", "/venues", { key: null, body: "x", contentType: "text/plain" }),
      401,
      "urn:problem-type:missing-api-key",
    );
  });

  it("accepts an asynchronous authenticate hook", async () => {
    const slow = await startServer({ authenticate: async (key) => key === API_KEY || "forbidden" });
    try {
      expect((await slow.call("GET", "/events")).status).toBe(200);
      await expectProblem(await slow.call("GET", "/events", { key: "other" }), 403, "urn:problem-type:forbidden");
    } finally {
      await slow.close();
    }
  });

  it("never reaches the log: the request serializer redacts it, the request line has no query", async () => {
    logLines.length = 0;
    expect((await server.call("POST", "/venues?x=1", { json: venue() })).status).toBe(200);
    await server.call("GET", "/events", { key: "wrong-secret-key" });
    const seen = logLines.find((line) => line.includes("handler saw the request"));
    expect(seen).toContain("[redacted]");
    expect(logLines.join("\n")).not.toContain(API_KEY);
    expect(logLines.join("\n")).not.toContain("wrong-secret-key");
    expect(logLines.some((line) => /"msg":"POST \/api\/1_12\/venues 200 [\d.]+ ms"/.test(line))).toBe(true);
    expect(mockAnswers.createVenue).toBeDefined();
  });
});

describe("createKeyAuthenticator", () => {
  const authenticate = createKeyAuthenticator(["alpha", "beta-key"]);
  const check = (key: string): unknown =>
    authenticate(key, {} as never, { scheme: "ApiKeyAuth", type: "apiKey", in: "header", name: "x-api-key" });

  it("accepts exactly the listed keys", () => {
    expect(check("alpha")).toBe(true);
    expect(check("beta-key")).toBe(true);
    for (const key of ["alph", "alphaa", "ALPHA", "beta", " alpha", ""]) expect(check(key)).toBe(false);
  });

  it("accepts nothing when no key is listed", () => {
    expect(createKeyAuthenticator([])("alpha", {} as never, { scheme: "k", type: "apiKey" })).toBe(false);
  });
});
