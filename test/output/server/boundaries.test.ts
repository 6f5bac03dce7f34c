import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { event, expectProblem, venue } from "../../support/contract-bodies.js";
import { type CallInit, startServer, type TestServer } from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const ASTRAL = "\u{1D49C}"; // one code point, two UTF-16 units

async function accepted(method: string, path: string, init: CallInit): Promise<void> {
  const response = await server.call(method, path, init);
  expect(response.status, await response.clone().text()).toBeLessThan(300);
}

async function rejected(
  method: string,
  path: string,
  init: CallInit,
  where: string,
  instancePath: string,
  keyword: string,
): Promise<void> {
  const problem = await expectProblem(await server.call(method, path, init), 400, "urn:problem-type:validation-error");
  expect(problem["errors"]).toContainEqual(expect.objectContaining({ in: where, instancePath, keyword }));
}

describe("venue (VenueCreate)", () => {
  for (const [field, limit] of [
    ["name", 150],
    ["address", 150],
    ["city", 75],
    ["zip", 10],
  ] as const) {
    it(`${field}: ${limit} characters accepted, ${limit + 1} rejected`, async () => {
      await accepted("POST", "/venues", { json: venue({ [field]: "x".repeat(limit) }) });
      await rejected(
        "POST",
        "/venues",
        { json: venue({ [field]: "x".repeat(limit + 1) }) },
        "body",
        `/${field}`,
        "maxLength",
      );
    });
  }

  it("counts code points: 150 astral characters are accepted as a name, 151 are not", async () => {
    await accepted("POST", "/venues", { json: venue({ name: ASTRAL.repeat(150) }) });
    await rejected("POST", "/venues", { json: venue({ name: ASTRAL.repeat(151) }) }, "body", "/name", "maxLength");
  });

  it('saved: 0, 1 and 1.0 accepted; -1, 2 and "1" rejected', async () => {
    await accepted("POST", "/venues", { json: venue({ saved: 0 }) });
    await accepted("POST", "/venues", { json: venue({ saved: 1 }) });
    const withOnePointZero = JSON.stringify(venue({ saved: 7 })).replace('"saved":7', '"saved":1.0');
    await accepted("POST", "/venues", { body: withOnePointZero, contentType: "application/json" });
    await rejected("POST", "/venues", { json: venue({ saved: -1 }) }, "body", "/saved", "minimum");
    await rejected("POST", "/venues", { json: venue({ saved: 2 }) }, "body", "/saved", "maximum");
    await rejected("POST", "/venues", { json: venue({ saved: "1" }) }, "body", "/saved", "type");
  });

  it("requires name, address, city and zip, and reports every missing one", async () => {
    const problem = await expectProblem(
      await server.call("POST", "/venues", { json: {} }),
      400,
      "urn:problem-type:validation-error",
    );
    const missing = (problem["errors"] as { params: { missingProperty?: string } }[])
      .map((error) => error.params.missingProperty)
      .sort();
    expect(missing).toEqual(["address", "city", "name", "zip"]);
  });
});

describe("client (ClientUpdate)", () => {
  it("client_name: 1 to 255 characters", async () => {
    await accepted("PATCH", "/clients/HARBOR42", { json: { client_name: "x" } });
    await accepted("PATCH", "/clients/HARBOR42", { json: { client_name: "x".repeat(255) } });
    await rejected("PATCH", "/clients/HARBOR42", { json: { client_name: "" } }, "body", "/client_name", "minLength");
    await rejected(
      "PATCH",
      "/clients/HARBOR42",
      { json: { client_name: "x".repeat(256) } },
      "body",
      "/client_name",
      "maxLength",
    );
  });

  const others = [
    "client_contact_name",
    "client_contact_email",
    "client_invoice_customer_id",
    "client_city",
    "client_state",
    "client_postal_code",
  ];
  for (const field of others) {
    it(`${field}: 255 characters accepted, 256 rejected`, async () => {
      await accepted("PATCH", "/clients/HARBOR42", { json: { client_name: "x", [field]: "y".repeat(255) } });
      await rejected(
        "PATCH",
        "/clients/HARBOR42",
        { json: { client_name: "x", [field]: "y".repeat(256) } },
        "body",
        `/${field}`,
        "maxLength",
      );
    });
  }

  it("client_address: 65535 characters accepted, 65536 rejected", async () => {
    await accepted("PATCH", "/clients/HARBOR42", { json: { client_name: "x", client_address: "y".repeat(65535) } });
    await rejected(
      "PATCH",
      "/clients/HARBOR42",
      { json: { client_name: "x", client_address: "y".repeat(65536) } },
      "body",
      "/client_address",
      "maxLength",
    );
  });
});

describe("event (EventCreate, EventUpdate)", () => {
  it("job_id: 150 characters accepted, 151 rejected", async () => {
    await accepted("POST", "/events", { json: event({ job_id: "j".repeat(150) }) });
    await rejected("POST", "/events", { json: event({ job_id: "j".repeat(151) }) }, "body", "/job_id", "maxLength");
  });

  for (const field of ["comments", "admin_comments"]) {
    it(`${field}: 65535 characters accepted, 65536 rejected`, async () => {
      await accepted("POST", "/events", { json: event({ [field]: "c".repeat(65535) }) });
      await rejected(
        "POST",
        "/events",
        { json: event({ [field]: "c".repeat(65536) }) },
        "body",
        `/${field}`,
        "maxLength",
      );
    });
  }

  it("client_id matches ^[A-Za-z0-9]+ anchored at the start only: abc-1 accepted, -abc rejected", async () => {
    await accepted("POST", "/events", { json: event({ client_id: "abc-1" }) });
    await rejected("POST", "/events", { json: event({ client_id: "-abc" }) }, "body", "/client_id", "pattern");
  });

  it("event_id on edit matches the same pattern: abc-1 accepted, -abc rejected", async () => {
    await accepted("PATCH", "/events/GALA2024", { json: event({ event_id: "abc-1" }) });
    await rejected("PATCH", "/events/GALA2024", { json: event({ event_id: "-abc" }) }, "body", "/event_id", "pattern");
  });

  it("date is a calendar date: 2024-02-29 accepted, 2023-02-29 rejected", async () => {
    await accepted("POST", "/events", { json: event({ date: "2024-02-29" }) });
    await rejected("POST", "/events", { json: event({ date: "2023-02-29" }) }, "body", "/date", "format");
  });

  it("event_id is not accepted on create", async () => {
    await rejected("POST", "/events", { json: event({ event_id: "GALA2024" }) }, "body", "/event_id", "false");
  });
});

describe("document upload (WorkerDocumentUpload, multipart)", () => {
  const form = (fields: Record<string, string>): FormData => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.set(name, value);
    data.set("file", new Blob(["bytes"]), "a.txt");
    return data;
  };

  it("name: 1 to 100 characters", async () => {
    await accepted("POST", "/workers/7/documents", { body: form({ name: "n".repeat(100) }) });
    await rejected(
      "POST",
      "/workers/7/documents",
      { body: form({ name: "n".repeat(101) }) },
      "body",
      "/name",
      "maxLength",
    );
    await rejected("POST", "/workers/7/documents", { body: form({ name: "" }) }, "body", "/name", "minLength");
  });

  it("type: 1 to 20 characters", async () => {
    await accepted("POST", "/workers/7/documents", { body: form({ type: "t".repeat(20) }) });
    await rejected(
      "POST",
      "/workers/7/documents",
      { body: form({ type: "t".repeat(21) }) },
      "body",
      "/type",
      "maxLength",
    );
    await rejected("POST", "/workers/7/documents", { body: form({ type: "" }) }, "body", "/type", "minLength");
  });

  it("p_id is converted from the form's string", async () => {
    await accepted("POST", "/workers/7/documents", { body: form({ p_id: "1042" }) });
    await rejected("POST", "/workers/7/documents", { body: form({ p_id: "x" }) }, "body", "/p_id", "type");
  });
});

describe("worker id (path parameter, integer >= 0)", () => {
  it("7 is accepted and converted", async () => {
    await accepted("POST", "/workers/7/credentials", { json: {} });
  });

  for (const [id, keyword] of [
    ["-1", "minimum"],
    ["abc", "type"],
    ["1.5", "type"],
  ] as const) {
    it(`${id} is rejected (${keyword})`, async () => {
      await rejected("POST", `/workers/${id}/credentials`, { json: {} }, "path", "/id", keyword);
    });
  }
});
