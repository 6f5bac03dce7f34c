/**
 * What is refused before any route runs (broken URLs, over-long parameters and headers, bytes
 * that are not HTTP) and the text of numbers in the path: every refusal is a problem, on the
 * wire as a client sees it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockHandlers, type Handlers } from "../../../generated/server/index.js";
import { validateProblem } from "../../../generated/validators/index.js";
import { expectProblem } from "../../support/contract-bodies.js";
import { type RawAnswer, rawExchange } from "../../support/raw-http.js";
import { API_KEY, startServer, type TestServer } from "./helpers.js";

const seen: unknown[] = [];
const mock = createMockHandlers();
const handlers: Handlers = {
  ...mock,
  // slow, so that pipelined requests behind it are answered after it
  listEvents: async (input) => {
    await new Promise((resolve) => setTimeout(resolve, 150));
    return mock.listEvents(input);
  },
  addWorkerCredential: (input) => {
    seen.push(input.params.id);
    return mock.addWorkerCredential(input);
  },
};

let server: TestServer;
let port = 0;
beforeAll(async () => {
  server = await startServer({ handlers });
  port = Number(new URL(server.base).port);
});
afterAll(() => server.close());

function get(path: string): string {
  return `GET /api/1_12${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: ${API_KEY}\r\n\r\n`;
}

function expectRawProblem(answer: RawAnswer | undefined, status: number, type: string): void {
  expect(answer?.status).toBe(status);
  expect(answer?.headers["content-type"]).toMatch(/^application\/problem\+json/);
  const problem = JSON.parse(answer?.body ?? "null") as unknown;
  expect(validateProblem(problem).valid).toBe(true);
  expect(problem).toMatchObject({ type, status });
}

describe("malformed URLs", () => {
  it.each(["/events/%zz", "/events/%", "/events/%C0%AF", "/events/%ED%A0%80", "/%zz/events"])(
    "%s → 400 malformed-url (before the key is read)",
    async (path) => {
      const exchange = await rawExchange(port, [
        `PATCH /api/1_12${path} HTTP/1.1\r\nhost: x\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`,
      ]);
      expectRawProblem(exchange.answers[0], 400, "urn:problem-type:malformed-url");
    },
  );
});

describe("path parameters up to 1024 characters", () => {
  it("accepts an ID of 1024 characters and refuses one of 1025 with 414", async () => {
    const body = { name: "Spring gala", date: "2024-04-20", venue: { venue_id: "1" } };
    expect((await server.call("PATCH", `/events/${"e".repeat(1024)}`, { json: body })).status).toBe(200);
    const problem = await expectProblem(
      await server.call("PATCH", `/events/${"e".repeat(1025)}`, { json: body }),
      414,
      "urn:problem-type:uri-too-long",
    );
    expect(problem["detail"]).toBe("A path parameter is longer than 1024 characters.");
  });

  it("counts characters after percent-decoding", async () => {
    const body = { client_name: "x" };
    expect((await server.call("PATCH", `/clients/${"%C3%A9".repeat(1024)}`, { json: body })).status).toBe(200);
    await expectProblem(
      await server.call("PATCH", `/clients/${"%C3%A9".repeat(1025)}`, { json: body }),
      414,
      "urn:problem-type:uri-too-long",
    );
  });

  it("is configurable", async () => {
    const narrow = await startServer({ maxParamLength: 8 });
    try {
      await expectProblem(
        await narrow.call("PATCH", "/clients/123456789", { json: { client_name: "x" } }),
        414,
        "urn:problem-type:uri-too-long",
      );
    } finally {
      await narrow.close();
    }
  });
});

describe("the text of an integer path parameter", () => {
  it.each(["9007199254740991", "0", "1042"])("%s reaches the handler exactly", async (id) => {
    seen.length = 0;
    expect((await server.call("POST", `/workers/${id}/credentials`, { json: {} })).status).toBe(200);
    expect(seen).toEqual([Number(id)]);
    expect(String(seen[0])).toBe(id);
  });

  it.each(["9007199254740992", "18446744073709551616", "1e3", "1.0", "-0", "01", "+1", "0x1f", "%201"])(
    "%s → 400, and the handler is not called",
    async (id) => {
      seen.length = 0;
      const problem = await expectProblem(
        await server.call("POST", `/workers/${id}/credentials`, { json: {} }),
        400,
        "urn:problem-type:validation-error",
      );
      expect(problem["errors"]).toEqual([
        expect.objectContaining({ in: "path", instancePath: "/id", keyword: "type" }),
      ]);
      expect(problem["detail"]).toMatch(/^path\/id must be integer \(an integer is written in decimal digits/);
      expect(seen).toEqual([]);
    },
  );
});

describe("bytes that are not HTTP", () => {
  it("a request line that is not HTTP → 400 malformed-request, then the connection closes", async () => {
    const exchange = await rawExchange(port, ["BREW /pot HTCPCP/1.0\r\n\r\n"]);
    expectRawProblem(exchange.answers[0], 400, "urn:problem-type:malformed-request");
    expect(exchange.answers[0]?.headers["connection"]).toBe("close");
    expect(exchange.closed).toBe(true);
  });

  it("headers over the size limit → 431", async () => {
    const exchange = await rawExchange(port, [
      `GET /api/1_12/events HTTP/1.1\r\nhost: x\r\nx-api-key: ${"k".repeat(20_000)}\r\n\r\n`,
    ]);
    expectRawProblem(exchange.answers[0], 431, "urn:problem-type:header-fields-too-large");
  });

  it("a broken chunked body → 400 problem", async () => {
    const head = `POST /api/1_12/venues HTTP/1.1\r\nhost: x\r\nx-api-key: ${API_KEY}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`;
    const exchange = await rawExchange(port, [head, "zz\r\n{}\r\n0\r\n\r\n"], { gapMs: 20 });
    expectRawProblem(exchange.answers[0], 400, "urn:problem-type:malformed-request");
    expect(exchange.answers).toHaveLength(1);
  });

  it("Content-Length and Transfer-Encoding together → 400 problem", async () => {
    const head = `POST /api/1_12/venues HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\ntransfer-encoding: chunked\r\n\r\n{}`;
    expectRawProblem((await rawExchange(port, [head])).answers[0], 400, "urn:problem-type:malformed-request");
  });

  it("on a pipelined connection, the answers owed come first, in order, then the problem", async () => {
    const exchange = await rawExchange(port, [`${get("/events") + get("/wage-rules")}NOT HTTP AT ALL\r\n\r\n`]);
    expect(exchange.answers.map((answer) => answer.status)).toEqual([200, 200, 400]);
    expect(JSON.parse(exchange.answers[0]?.body ?? "null")).toMatchObject({ total_count: 1 });
    expectRawProblem(exchange.answers[2], 400, "urn:problem-type:malformed-request");
    expect(exchange.closed).toBe(true);
  });

  it("a request whose body was cut off by a broken chunk is answered once, by the problem", async () => {
    const head = `POST /api/1_12/venues HTTP/1.1\r\nhost: x\r\nx-api-key: ${API_KEY}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`;
    const exchange = await rawExchange(port, [`${get("/events") + head}2\r\n{}\r\nxyz\r\n`]);
    expect(exchange.answers.map((answer) => answer.status)).toEqual([200, 400]);
    expect(exchange.closed).toBe(true);
  });
});
