import { afterEach, describe, expect, it } from "vitest";
import { ApiError, ApiNetworkError, ApiTimeoutError, createClient } from "../../../generated/index.js";
import { closedPort, problem, sendJson, startTestServer, type TestHandler, type TestServer } from "./http-harness.js";

const venue = { name: "Riverside Hall", address: "1 River Road", city: "Bristol", zip: "BS1 4DJ" };
let server: TestServer | undefined;

async function clientFor(handler: TestHandler, options: { timeoutMs?: number } = {}) {
  server = await startTestServer(handler);
  return createClient({
    apiKey: "k",
    serverVariables: { base_url: server.origin },
    validateRequests: false,
    ...options,
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("the call should have failed"),
    (error: unknown) => error,
  );
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("error answers", () => {
  it("a 400 problem becomes an ApiError with status, problem, body and response", async () => {
    const issue = {
      in: "body",
      instancePath: "/name",
      schemaPath: "#/properties/name/maxLength",
      keyword: "maxLength",
      params: { limit: 150 },
      message: "/name must be at most 150 characters",
    };
    const body = problem(400, "Request validation failed", "body/name must be at most 150 characters", [issue]);
    const client = await clientFor((_req, res) => sendJson(res, 400, body));
    const error = await rejection(client.createVenue({ body: venue }));
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.message).toBe("createVenue: 400 Bad Request: /name must be at most 150 characters");
    expect([apiError.status, apiError.operationId, apiError.name]).toEqual([400, "createVenue", "ApiError"]);
    expect(apiError.problem).toEqual(body);
    expect(apiError.body).toEqual(body);
    expect(apiError.response.headers.get("content-type")).toBe("application/problem+json");
  });

  it("uses the problem's detail when it lists no errors", async () => {
    const client = await clientFor((_req, res) =>
      sendJson(res, 401, problem(401, "Missing API key", "The X-API-KEY header is required.")),
    );
    const error = (await rejection(client.listEvents())) as ApiError;
    expect(error.message).toBe("listEvents: 401 Unauthorized: The X-API-KEY header is required.");
  });

  it("keeps a text body and a body that is not valid JSON as text", async () => {
    const client = await clientFor((req, res) => {
      res.writeHead(req.url.endsWith("events") ? 502 : 500, {
        "content-type": req.url.endsWith("events") ? "application/json" : "text/plain",
      });
      res.end("upstream down\nmore");
    });
    const text = (await rejection(client.listWageRules())) as ApiError;
    expect([text.message, text.body, text.problem]).toEqual([
      "listWageRules: 500 Internal Server Error: upstream down",
      "upstream down\nmore",
      undefined,
    ]);
    const broken = (await rejection(client.listEvents())) as ApiError;
    expect([broken.status, broken.body]).toEqual([502, "upstream down\nmore"]);
  });

  it("an empty error body leaves body and problem undefined", async () => {
    const client = await clientFor((_req, res) => void res.writeHead(404).end());
    const error = (await rejection(client.updateClient({ path: { id: "x" }, body: { client_name: "n" } }))) as ApiError;
    expect([error.message, error.body, error.problem]).toEqual(["updateClient: 404 Not Found", undefined, undefined]);
  });
});

describe("transport failures", () => {
  it("a closed port gives an ApiNetworkError with the fetch failure as cause", async () => {
    const port = await closedPort();
    const client = createClient({ apiKey: "k", serverVariables: { base_url: `http://127.0.0.1:${port}` } });
    const error = (await rejection(client.listEvents())) as ApiNetworkError;
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect(error.operationId).toBe("listEvents");
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^listEvents: network failure: fetch failed.*ECONNREFUSED/);
  });

  it("a slow answer gives an ApiTimeoutError after the client's timeout", async () => {
    const client = await clientFor((_req, res) => void setTimeout(() => sendJson(res, 200, { data: [] }), 2_000), {
      timeoutMs: 50,
    });
    const started = performance.now();
    const error = (await rejection(client.listWageRules())) as ApiTimeoutError;
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect([error.timeoutMs, error.operationId]).toEqual([50, "listWageRules"]);
    expect((error.cause as Error).name).toBe("TimeoutError");
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("a per-call timeout overrides the client's, and a body that stalls also times out", async () => {
    const client = await clientFor((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"data":');
    });
    const error = await rejection(client.listWageRules(undefined, { timeoutMs: 80 }));
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect((error as ApiTimeoutError).timeoutMs).toBe(80);
  });

  it("the caller's abort rejects with the abort reason, not a client error", async () => {
    const client = await clientFor((_req, res) => void setTimeout(() => sendJson(res, 200, { data: [] }), 2_000), {
      timeoutMs: 5_000,
    });
    const controller = new AbortController();
    const pending = rejection(client.listWageRules(undefined, { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error("user left")), 20);
    expect(((await pending) as Error).message).toBe("user left");
    const aborted = await rejection(client.listWageRules(undefined, { signal: AbortSignal.abort("already") }));
    expect(aborted).toBe("already");
  });

  it("works where AbortSignal.any is missing (the caller's signal is forwarded)", async () => {
    const any = AbortSignal.any;
    Reflect.deleteProperty(AbortSignal, "any");
    try {
      const client = await clientFor((_req, res) => void setTimeout(() => sendJson(res, 200, { data: [] }), 300), {
        timeoutMs: 30,
      });
      const controller = new AbortController();
      expect(await rejection(client.listWageRules(undefined, { signal: controller.signal }))).toBeInstanceOf(
        ApiTimeoutError,
      );
    } finally {
      AbortSignal.any = any;
    }
  });
});
