import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OperationId, routes } from "../../../generated/routes.js";
import {
  createMockHandlers,
  createProblem,
  createStubHandlers,
  type Handlers,
  ProblemError,
} from "../../../generated/server/index.js";
import { expectProblem, venue } from "../../support/contract-bodies.js";
import { startServer, type TestServer, validRequests } from "./helpers.js";

const logLines: string[] = [];
const logger = {
  level: "info",
  stream: new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString("utf8"));
      done();
    },
  }),
};

/** Handlers that break the contract on purpose (the casts stand for untyped code). */
const broken: Handlers = {
  ...createMockHandlers(),
  createVenue: () => ({ status: 200, body: { venue_id: "three hundred" } }) as never,
  listEvents: () => ({ status: 299, body: {} }) as never,
  listWageRules: () => {
    throw new Error("database password is hunter2");
  },
  updateClient: () => {
    throw new ProblemError(createProblem("notFound", "No client HARBOR42."));
  },
};

describe("stub handlers", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ handlers: createStubHandlers() });
  });
  afterAll(() => server.close());

  it("answer 501 naming the operation, for every operation", async () => {
    const requests = validRequests();
    for (const id of Object.keys(requests) as OperationId[]) {
      const route = routes[id];
      const response = await server.call(route.method, requests[id].path, requests[id].init);
      const problem = await expectProblem(response, 501, "urn:problem-type:not-implemented");
      expect(problem["detail"]).toBe(`The operation ${route.operationId} is not implemented.`);
    }
  });

  it("reach the handler once the request is valid", async () => {
    const problem = await expectProblem(
      await server.call("POST", "/venues", { json: venue() }),
      501,
      "urn:problem-type:not-implemented",
    );
    expect(problem["detail"]).toContain("createVenue");
  });
});

describe("answers that break the contract", () => {
  let checked: TestServer;
  let unchecked: TestServer;
  beforeAll(async () => {
    checked = await startServer({ handlers: broken, logger });
    unchecked = await startServer({ handlers: broken, validateResponses: false });
  });
  afterAll(async () => {
    await checked.close();
    await unchecked.close();
  });

  it("a body breaking the response schema → 500 in test mode, with one log line naming operation, status and error", async () => {
    logLines.length = 0;
    const problem = await expectProblem(
      await checked.call("POST", "/venues", { json: venue() }),
      500,
      "urn:problem-type:response-validation-failed",
    );
    expect(problem["detail"]).toContain("createVenue");
    const lines = logLines.filter((line) => line.includes("response validation failed"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("createVenue answered 200: /venue_id must be integer");
  });

  it("an undeclared status → 500 in test mode", async () => {
    await expectProblem(await checked.call("GET", "/events"), 500, "urn:problem-type:response-validation-failed");
  });

  it("passes through with validateResponses: false", async () => {
    const response = await unchecked.call("POST", "/venues", { json: venue() });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ venue_id: "three hundred" });
    expect((await unchecked.call("GET", "/events")).status).toBe(299);
  });

  it("a thrown error → 500 internal-error that reveals nothing of it", async () => {
    const response = await checked.call("GET", "/wage-rules");
    const text = await response.clone().text();
    await expectProblem(response, 500, "urn:problem-type:internal-error");
    expect(text).not.toContain("hunter2");
    expect(text).not.toMatch(/database|stack|at .*:\d+/);
  });

  it("a thrown ProblemError is answered as it is", async () => {
    const problem = await expectProblem(
      await checked.call("PATCH", "/clients/HARBOR42", { json: { client_name: "x" } }),
      404,
      "urn:problem-type:not-found",
    );
    expect(problem["detail"]).toBe("No client HARBOR42.");
  });
});
