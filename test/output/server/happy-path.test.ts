import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OperationId, type Route, routes } from "../../../generated/routes.js";
import { mockAnswers } from "../../../generated/server/index.js";
import { event } from "../../support/contract-bodies.js";
import { startServer, type TestServer, validRequests } from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe("every operation, served by the mock handlers", () => {
  const requests = validRequests();
  for (const id of Object.keys(requests) as OperationId[]) {
    const request = requests[id];
    it(`${id}: ${routes[id].method} ${routes[id].path} answers its first 2xx response, valid against the spec`, async () => {
      const response = await server.call(routes[id].method, request.path, request.init);
      const answer = mockAnswers[id];
      expect(answer).toBeDefined();
      expect(response.status).toBe(answer?.status);
      expect(response.headers.get("content-type")).toMatch(/^application\/json\b/);
      const body: unknown = await response.json();
      expect(body).toEqual(answer?.body);
      const route: Route = routes[id];
      const validate = route.validators.responses[String(response.status)];
      expect(validate?.(body, { allErrors: true }).errors ?? []).toEqual([]);
      expect(validate).toBeDefined();
    });
  }

  it("creates an event with 201 and a bare integer", async () => {
    const response = await server.call("POST", "/events", { json: event() });
    expect(response.status).toBe(201);
    expect(await response.text()).toMatch(/^\d+$/);
  });

  it("edits a client with 200 and a bare boolean", async () => {
    const response = await server.call("PATCH", "/clients/HARBOR42", { json: { client_name: "Harbor" } });
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^(true|false)$/);
  });
});
