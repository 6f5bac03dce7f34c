import { afterEach, describe, expect, it } from "vitest";
import { createClient, RequestValidationError, ResponseValidationError } from "../../../generated/index.js";
import { sendJson, startTestServer, type TestHandler, type TestServer } from "./http-harness.js";

const venue = { name: "Riverside Hall", address: "1 River Road", city: "Bristol", zip: "BS1 4DJ" };
const eventBody = { name: "Spring gala", date: "2024-04-20", venue: { venue_id: "318" } };
let server: TestServer | undefined;

async function serve(handler: TestHandler): Promise<TestServer> {
  server = await startTestServer(handler);
  return server;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("validateRequests (on by default)", () => {
  it("rejects a venue name over 150 characters before any request leaves", async () => {
    const s = await serve((_req, res) => sendJson(res, 200, venue));
    const client = createClient({ apiKey: "k", serverVariables: { base_url: s.origin } });
    const error = await client.createVenue({ body: { ...venue, name: "x".repeat(151) } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    const invalid = error as RequestValidationError;
    expect(invalid.message).toBe("createVenue: invalid request: body /name must be at most 150 characters");
    expect(invalid.errors).toEqual([
      expect.objectContaining({ in: "body", instancePath: "/name", keyword: "maxLength", params: { limit: 150 } }),
    ]);
    expect(s.requests).toHaveLength(0);
  });

  it("lists every error of every part (allErrors)", async () => {
    const s = await serve((_req, res) => sendJson(res, 200, {}));
    const client = createClient({ apiKey: "k", serverVariables: { base_url: s.origin } });
    const badBody = { date_completed: "yesterday", date_expired: "2027-02-30T00:00:00Z" };
    const error = (await client
      .addWorkerCredential({ path: { id: 2 ** 53 }, body: badBody })
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error.errors.map((e) => `${e.in} ${e.instancePath} ${e.keyword}`)).toEqual([
      "path /id type",
      "body /date_completed format",
      "body /date_expired format",
    ]);
    expect(error.message).toMatch(/\(and 2 more\)$/);
    expect(s.requests).toHaveLength(0);
  });

  it("rejects a missing required body and a missing path parameter", async () => {
    const client = createClient({ apiKey: "k", serverVariables: { base_url: "http://127.0.0.1:9" } });
    const noBody = (await client.createVenue({} as never).catch((e: unknown) => e)) as RequestValidationError;
    expect(noBody.errors[0]).toMatchObject({ in: "body", keyword: "required" });
    const unchecked = createClient({
      apiKey: "k",
      serverVariables: { base_url: "http://127.0.0.1:9" },
      validateRequests: false,
    });
    const noPath = (await unchecked
      .updateEvent({ body: eventBody } as never)
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(noPath).toBeInstanceOf(RequestValidationError);
    expect(noPath.message).toBe("updateEvent: invalid request: path must have required property 'id'");
  });

  it("can be turned off: the server then sees the bad request", async () => {
    const s = await serve((_req, res) => sendJson(res, 200, venue));
    const client = createClient({ apiKey: "k", serverVariables: { base_url: s.origin }, validateRequests: false });
    await client.createVenue({ body: { ...venue, name: "x".repeat(151) } });
    expect(s.requests).toHaveLength(1);
  });
});

describe("validateResponses (off by default)", () => {
  const stringForInteger: TestHandler = (_req, res) => sendJson(res, 201, "9001");

  it("catches a string where the contract says integer (createEvent)", async () => {
    const s = await serve(stringForInteger);
    const client = createClient({ apiKey: "k", serverVariables: { base_url: s.origin }, validateResponses: true });
    const error = (await client.createEvent({ body: eventBody }).catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect([error.status, error.body, error.operationId]).toEqual([201, "9001", "createEvent"]);
    expect(error.errors).toEqual([expect.objectContaining({ keyword: "type", params: { type: "integer" } })]);
    expect(error.message).toBe("createEvent: invalid 201 answer: must be integer");
  });

  it("lets the same answer through when off", async () => {
    const s = await serve(stringForInteger);
    const client = createClient({ apiKey: "k", serverVariables: { base_url: s.origin } });
    await expect(client.createEvent({ body: eventBody })).resolves.toBe("9001");
  });

  it("reports a success status the contract does not declare", async () => {
    const s = await serve((_req, res) => sendJson(res, 202, 1));
    const client = createClient({ apiKey: "k", serverVariables: { base_url: s.origin }, validateResponses: true });
    await expect(client.createEvent({ body: eventBody })).rejects.toThrow(
      "createEvent: invalid 202 answer: status 202 is not declared",
    );
  });

  it("reports a success body that is not JSON, whatever the setting", async () => {
    const s = await serve((_req, res) => void res.writeHead(200, { "content-type": "application/json" }).end("{oops"));
    const client = createClient({ apiKey: "k", serverVariables: { base_url: s.origin } });
    await expect(client.listEvents()).rejects.toThrow("listEvents: invalid 200 answer: is not valid JSON");
  });
});
