import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, type Client, createClient, RequestValidationError } from "../../../generated/index.js";
import { mockAnswers } from "../../../generated/server/index.js";
import { API_KEY, type MockServer, startMockServer } from "./mock-server.js";

const venue = { name: "Riverside Hall", address: "1 River Road", city: "Bristol", zip: "BS1 4DJ", saved: 1 };
const eventBody = { name: "Spring gala", date: "2024-04-20", venue: { venue_id: "318" } };

describe("every operation against the generated mock server, with validateResponses", () => {
  let server: MockServer;
  let client: Client;
  const last = () => server.requests.at(-1);

  beforeAll(async () => {
    server = await startMockServer();
    client = createClient({ apiKey: API_KEY, serverVariables: { base_url: server.origin }, validateResponses: true });
  });
  afterAll(() => server.close());

  it("createVenue sends the JSON body with the API key", async () => {
    await expect(client.createVenue({ body: venue })).resolves.toEqual(mockAnswers.createVenue?.body);
    expect([last()?.method, last()?.url]).toEqual(["POST", "/api/1_12/venues"]);
    expect([last()?.headers["x-api-key"], last()?.headers["content-type"]]).toEqual([API_KEY, "application/json"]);
    expect(last()?.headers.accept).toBe("application/json, application/problem+json");
  });

  it("createPayrollGroup", async () => {
    const body = { name: "Weekend crew", payroll_item_id: "PI-204", locationAll: false, locations: ["12", "15"] };
    await expect(client.createPayrollGroup({ body })).resolves.toEqual(mockAnswers.createPayrollGroup?.body);
  });

  it("addWorkerCredential fills the integer path parameter", async () => {
    const body = {
      credentials_id: "3",
      date_completed: "2024-03-01T09:00:00Z",
      clients_id: null,
      name: "Forklift licence",
    };
    await expect(client.addWorkerCredential({ path: { id: 1042 }, body })).resolves.toEqual(
      mockAnswers.addWorkerCredential?.body,
    );
    expect(last()?.url).toBe("/api/1_12/workers/1042/credentials");
  });

  it("addWorkerDocument uploads multipart form data", async () => {
    const file = new Blob(["%PDF-1.7"], { type: "application/pdf" });
    const body = { p_id: 1042, name: "Signed contract", type: "application/pdf", file_name: "c.pdf", file };
    await expect(client.addWorkerDocument({ path: { id: 1042 }, body })).resolves.toEqual(
      mockAnswers.addWorkerDocument?.body,
    );
    expect(last()?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(server.files.at(-1)?.fields).toEqual({
      p_id: 1042,
      name: "Signed contract",
      type: "application/pdf",
      file_name: "c.pdf",
    });
  });

  it("createEvent returns the bare integer of its 201", async () => {
    await expect(client.createEvent({ body: eventBody })).resolves.toBe(mockAnswers.createEvent?.body);
    expect(typeof mockAnswers.createEvent?.body).toBe("number");
  });

  it("updateEvent encodes the path parameter", async () => {
    await expect(
      client.updateEvent({ path: { id: "90 01/ä" }, body: { ...eventBody, event_id: "GALA2024" } }),
    ).resolves.toEqual(mockAnswers.updateEvent?.body);
    expect(last()?.url).toBe("/api/1_12/events/90%2001%2F%C3%A4");
    expect(last()?.method).toBe("PATCH");
  });

  it("updateClient returns the bare boolean", async () => {
    await expect(
      client.updateClient({ path: { id: "HARBOR42" }, body: { client_name: "Harbor Events Ltd" } }),
    ).resolves.toBe(true);
  });

  it("listEvents and listWageRules need no argument", async () => {
    await expect(client.listEvents()).resolves.toEqual(mockAnswers.listEvents?.body);
    await expect(client.listWageRules()).resolves.toEqual(mockAnswers.listWageRules?.body);
  });

  it("sends client and per-call headers, per-call ones winning", async () => {
    const withHeaders = createClient({
      apiKey: API_KEY,
      serverVariables: { base_url: server.origin },
      headers: { "X-Trace": "client", "X-Other": "o" },
    });
    await withHeaders.listWageRules(undefined, { headers: { "x-trace": "call" } });
    expect([last()?.headers["x-trace"], last()?.headers["x-other"], last()?.headers["x-api-key"]]).toEqual([
      "call",
      "o",
      API_KEY,
    ]);
  });

  it("takes baseUrl as given, and a per-scheme credential over apiKey", async () => {
    const direct = createClient({
      apiKey: "wrong",
      credentials: { ApiKeyAuth: API_KEY },
      baseUrl: `${server.origin}/api/1_12/`,
    });
    await direct.listWageRules();
    expect([last()?.url, last()?.headers["x-api-key"]]).toEqual(["/api/1_12/wage-rules", API_KEY]);
  });

  it("surfaces the server's problems as ApiError: a rejected key, and a request the client did not check", async () => {
    const wrongKey = createClient({ apiKey: "wrong", serverVariables: { base_url: server.origin } });
    const unauthorized = (await wrongKey.listEvents().catch((e: unknown) => e)) as ApiError;
    expect(unauthorized).toBeInstanceOf(ApiError);
    expect([unauthorized.status, unauthorized.problem?.type]).toEqual([
      401,
      expect.stringMatching(/^urn:problem-type:/),
    ]);
    const unchecked = createClient({
      apiKey: API_KEY,
      serverVariables: { base_url: server.origin },
      validateRequests: false,
    });
    const invalid = (await unchecked
      .createVenue({ body: { ...venue, name: "x".repeat(151) } })
      .catch((e: unknown) => e)) as ApiError;
    expect([invalid.status, invalid.problem?.type]).toEqual([400, "urn:problem-type:validation-error"]);
    expect(invalid.message).toBe("createVenue: 400 Bad Request: /name must be at most 150 characters");
  });
});

describe("the client refuses exactly what the server refuses, with the same issues", () => {
  let server: MockServer;
  let checked: Client;
  let unchecked: Client;

  beforeAll(async () => {
    server = await startMockServer();
    checked = createClient({ apiKey: API_KEY, serverVariables: { base_url: server.origin } });
    unchecked = createClient({
      apiKey: API_KEY,
      serverVariables: { base_url: server.origin },
      validateRequests: false,
    });
  });
  afterAll(() => server.close());

  type Call = (client: Client) => Promise<unknown>;
  const credential =
    (id: unknown): Call =>
    (client) =>
      client.addWorkerCredential({ path: { id: id as number }, body: {} });

  it.each<[string, Call]>([
    ["an integer ID of 2^53", credential(2 ** 53)],
    ["an integer ID of 1e21 (sent as 1e+21)", credential(1e21)],
    ["an integer ID given as the text 1e3", credential("1e3")],
    ["an integer ID given as the text 01", credential("01")],
    ["an integer ID given as the text -0", credential("-0")],
    ["an integer ID given as the text 1.0", credential("1.0")],
    ["a negative integer ID", credential(-1)],
    ["a missing body", (client) => client.createVenue({} as never)],
    ["a venue name that is too long", (client) => client.createVenue({ body: { ...venue, name: "x".repeat(151) } })],
    ["event_id on create", (client) => client.createEvent({ body: { ...eventBody, event_id: "E1" } as never })],
  ])("%s", async (_label, call) => {
    const local = (await call(checked).catch((e: unknown) => e)) as RequestValidationError;
    expect(local).toBeInstanceOf(RequestValidationError);
    const remote = (await call(unchecked).catch((e: unknown) => e)) as ApiError;
    expect(remote).toBeInstanceOf(ApiError);
    expect(remote.status).toBe(400);
    expect(local.errors).toEqual(remote.problem?.errors);
  });

  it.each<[string, unknown, string]>([
    ["2^53 - 1", 9007199254740991, "9007199254740991"],
    ["1e3, the number 1000", 1e3, "1000"],
    ["1.0, the number 1", 1.0, "1"],
    ["-0, the number 0", -0, "0"],
  ])("sends %s as canonical decimal, which the server accepts", async (_label, id, text) => {
    await expect(checked.addWorkerCredential({ path: { id: id as number }, body: {} })).resolves.toBeDefined();
    expect(server.requests.at(-1)?.url).toBe(`/api/1_12/workers/${text}/credentials`);
  });
});
