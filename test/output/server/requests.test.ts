import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockHandlers, type Handlers } from "../../../generated/server/index.js";
import { expectProblem, venue } from "../../support/contract-bodies.js";
import { startServer, type TestServer } from "./helpers.js";

/** The last body the createVenue handler received. */
let received: unknown;
const handlers: Handlers = {
  ...createMockHandlers(),
  createVenue: ({ body }) => {
    received = body;
    return { status: 200, body: { venue_id: 1 } };
  },
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ handlers });
});
afterAll(() => server.close());

describe("content type", () => {
  it("a body of another media type → 415, naming what is accepted (the spec's example)", async () => {
    const problem = await expectProblem(
      await server.call("POST", "/venues", { body: "name=x", contentType: "text/plain" }),
      415,
      "urn:problem-type:unsupported-media-type",
    );
    expect(problem["detail"]).toBe("Content-Type text/plain is not accepted; use application/json.");
  });

  it("a body without Content-Type → 415", async () => {
    await expectProblem(
      await server.call("POST", "/venues", { body: new TextEncoder().encode("{}") }),
      415,
      "urn:problem-type:unsupported-media-type",
    );
  });

  it("JSON to the multipart upload, and multipart to a JSON operation → 415", async () => {
    await expectProblem(
      await server.call("POST", "/workers/7/documents", { json: { name: "x" } }),
      415,
      "urn:problem-type:unsupported-media-type",
    );
    const form = new FormData();
    form.set("name", "x");
    await expectProblem(
      await server.call("POST", "/venues", { body: form }),
      415,
      "urn:problem-type:unsupported-media-type",
    );
  });

  it("accepts parameters and any case: application/JSON; charset=utf-8", async () => {
    const response = await server.call("POST", "/venues", {
      body: JSON.stringify(venue()),
      contentType: "application/JSON; charset=utf-8",
    });
    expect(response.status).toBe(200);
  });
});

describe("body", () => {
  it("malformed JSON → 400 malformed-body", async () => {
    const problem = await expectProblem(
      await server.call("POST", "/venues", { body: '{"name": ', contentType: "application/json" }),
      400,
      "urn:problem-type:malformed-body",
    );
    expect(problem["detail"]).toBe(
      "The request body is not well-formed JSON: it ends at line 1, column 10, before the JSON value does.",
    );
  });

  it("JSON that is not UTF-8 → 400 naming the byte offset; the handler never sees U+FFFD", async () => {
    received = undefined;
    const text = JSON.stringify(venue({ name: "Café #" }));
    const raw = new TextEncoder().encode(text);
    const at = raw.indexOf(0x23);
    raw[at] = 0xff;
    const problem = await expectProblem(
      await server.call("POST", "/venues", { body: raw, contentType: "application/json" }),
      400,
      "urn:problem-type:malformed-body",
    );
    expect(problem["detail"]).toBe(
      `The request body is not valid UTF-8: the byte at offset ${at} (0xff) starts no well-formed UTF-8 character; send the text encoded as UTF-8.`,
    );
    expect(received).toBeUndefined();
  });

  it("a missing required body → 400 validation-error on the body", async () => {
    const empty = await expectProblem(
      await server.call("POST", "/venues", { body: "", contentType: "application/json" }),
      400,
      "urn:problem-type:validation-error",
    );
    expect(empty["errors"]).toEqual([expect.objectContaining({ in: "body", instancePath: "", keyword: "required" })]);
    await expectProblem(await server.call("POST", "/venues"), 400, "urn:problem-type:validation-error");
  });

  it("over 1 MiB of JSON → 413, as the spec's example", async () => {
    const big = JSON.stringify(venue({ name: "x".repeat(1_048_576) }));
    const problem = await expectProblem(
      await server.call("POST", "/venues", { body: big, contentType: "application/json" }),
      413,
      "urn:problem-type:payload-too-large",
    );
    expect(problem["detail"]).toBe("The request body is larger than 1048576 bytes.");
  });

  it("the JSON limit is configurable: at the limit accepted, one byte past rejected", async () => {
    const limited = await startServer({ handlers, bodyLimit: 200 });
    try {
      const atLimit = JSON.stringify(venue({ name: "" }));
      const padded = JSON.stringify(venue({ name: "n".repeat(200 - atLimit.length) }));
      expect(Buffer.byteLength(padded)).toBe(200);
      expect((await limited.call("POST", "/venues", { body: padded, contentType: "application/json" })).status).toBe(
        200,
      );
      const over = JSON.stringify(venue({ name: "n".repeat(201 - atLimit.length) }));
      await expectProblem(
        await limited.call("POST", "/venues", { body: over, contentType: "application/json" }),
        413,
        "urn:problem-type:payload-too-large",
      );
    } finally {
      await limited.close();
    }
  });

  it("nesting: 1000 levels (the body's own object counted, anywhere) accepted, 1001 refused; brackets in strings do not count", async () => {
    const nested = (depth: number): string =>
      JSON.stringify(venue()).replace(/}$/, `,"extra":${"[".repeat(depth)}${"]".repeat(depth)}}`);
    expect((await server.call("POST", "/venues", { body: nested(999), contentType: "application/json" })).status).toBe(
      200,
    );
    const problem = await expectProblem(
      await server.call("POST", "/venues", { body: nested(1000), contentType: "application/json" }),
      400,
      "urn:problem-type:malformed-body",
    );
    expect(problem["detail"]).toBe("The request body is nested more than 1000 levels deep.");
    const quoted = JSON.stringify(venue({ note: `\\"${"[".repeat(3000)}` }));
    expect((await server.call("POST", "/venues", { body: quoted, contentType: "application/json" })).status).toBe(200);
  });

  it("keeps __proto__ and constructor as own data keys and leaves Object.prototype untouched", async () => {
    const raw = JSON.stringify(venue()).replace(
      /}$/,
      ',"__proto__":{"polluted":"yes","saved":5},"constructor":{"prototype":{"polluted":"yes"}}}',
    );
    const response = await server.call("POST", "/venues", { body: raw, contentType: "application/json" });
    expect(response.status).toBe(200);
    const body = received as Record<string, unknown>;
    expect(Object.hasOwn(body, "__proto__")).toBe(true);
    expect(Object.hasOwn(body, "constructor")).toBe(true);
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(body["saved"]).toBe(1);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  it("validates a __proto__ key as data where the schema has one (nested objects too)", async () => {
    const raw = '{"name":"x","date":"2024-01-01","venue":{"__proto__":{"venue_id":"1"},"venue_id":7}}';
    const problem = await expectProblem(
      await server.call("POST", "/events", { body: raw, contentType: "application/json" }),
      400,
      "urn:problem-type:validation-error",
    );
    expect(problem["errors"]).toEqual([expect.objectContaining({ instancePath: "/venue/venue_id", keyword: "type" })]);
    expect(Object.prototype).not.toHaveProperty("venue_id");
  });
});
