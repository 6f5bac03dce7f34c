/**
 * Every error example in the spec is something the generated server really answers: for each
 * example of each error response of each operation, the request that provokes it is sent over
 * HTTP and the problem answered is compared with the example, field by field. The examples of the
 * sandbox's own answers (422) are provoked from a sandbox. An example with no request here fails,
 * so an example cannot be added (or drift) unchecked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Handlers } from "../../../generated/server/index.js";
import { event, venue } from "../../support/contract-bodies.js";
import { at, type Json, type JsonObject, readRawSpec } from "../../support/spec-document.js";
import { type CallInit, FORBIDDEN_KEY, startSandboxServer, startServer, type TestServer } from "./helpers.js";

const raw = readRawSpec();
const MiB = 1024 * 1024;

/** A request: method, path under the base path, what it carries, and whether a failing handler or the sandbox serves it. */
type Probe = readonly [method: string, path: string, init?: CallInit, target?: "failing" | "sandbox"];

interface ErrorExample {
  readonly operation: string;
  readonly method: string;
  readonly status: string;
  readonly name: string;
  readonly value: Json;
}

function deref(node: Json | undefined): JsonObject {
  const ref = (node as JsonObject | undefined)?.["$ref"];
  return (typeof ref === "string" ? at(raw, ref) : node) as JsonObject;
}

function errorExamples(): ErrorExample[] {
  const found: ErrorExample[] = [];
  for (const item of Object.values(raw["paths"] as JsonObject)) {
    for (const [method, operation] of Object.entries(item as JsonObject)) {
      const { operationId, responses } = operation as JsonObject;
      for (const [status, response] of Object.entries(responses as JsonObject)) {
        if (Number(status) < 400) continue;
        const content = deref(response)["content"] as JsonObject;
        const examples = (content["application/problem+json"] as JsonObject)["examples"] as JsonObject;
        for (const [name, example] of Object.entries(examples)) {
          found.push({
            operation: String(operationId),
            method: method.toUpperCase(),
            status,
            name,
            value: deref(example)["value"] ?? null,
          });
        }
      }
    }
  }
  return found;
}

function upload(fields: Record<string, string>, file = new Blob(["%PDF-1.7"])): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set("file", file, "contract.pdf");
  return form;
}

/** Each operation's path, and a body that is valid for it. */
const OPERATIONS: Readonly<Record<string, { path: string; body?: CallInit }>> = {
  createPayrollGroup: { path: "/payroll-groups", body: { json: { name: "Weekend crew" } } },
  addWorkerCredential: { path: "/workers/1042/credentials", body: { json: { credentials_id: "3" } } },
  addWorkerDocument: {
    path: "/workers/1042/documents",
    body: { body: upload({ name: "Contract", type: "application/pdf" }) },
  },
  updateClient: { path: "/clients/HARBOR42", body: { json: { client_name: "Harbor Events Ltd" } } },
  createVenue: { path: "/venues", body: { json: venue() } },
  createEvent: { path: "/events", body: { json: event() } },
  updateEvent: { path: "/events/9001", body: { json: event() } },
  listWageRules: { path: "/wage-rules" },
  listEvents: { path: "/events" },
};

/** The request provoking an example of an operation: by status and example name. */
function probeFor(example: ErrorExample): Probe | undefined {
  const { path, body } = OPERATIONS[example.operation] ?? { path: "" };
  const method = example.method;
  const withBody = (init: CallInit): Probe => [method, path, init];
  const byName: Readonly<Record<string, () => Probe>> = {
    "401 missingKey": () => [method, path, { ...body, key: null }],
    "401 invalidKey": () => [method, path, { ...body, key: "not-a-key" }],
    "403 forbidden": () => [method, path, { ...body, key: FORBIDDEN_KEY }],
    "404 notFound": () => [method, `${path}/nothing-here`],
    "400 malformedJson": () => withBody({ body: "{", contentType: "application/json" }),
    "400 tooDeep": () =>
      withBody({ body: `{"extra":${"[".repeat(1001)}${"]".repeat(1001)}}`, contentType: "application/json" }),
    "413 tooLarge": () => withBody({ json: { name: "x".repeat(MiB) } }),
    "413 fileTooLarge": () => withBody({ body: upload({}, new Blob([new Uint8Array(10 * MiB + 1)])) }),
    "413 fieldTooLarge": () => withBody({ body: upload({ file_name: "x".repeat(MiB + 1) }) }),
    "414 tooLong": () => [method, path.replace(/\/(1042|HARBOR42|9001)(?=\/|$)/, `/${"7".repeat(1025)}`), body],
    "415 wrongType": () =>
      withBody(example.operation === "addWorkerDocument" ? { json: {} } : { body: "hello", contentType: "text/plain" }),
    "400 validation": () => withBody(invalidBody(example.operation)),
    "500 internal": () => [method, path, body, "failing"],
    "422 unknownWageRule": () => [method, path, { json: { name: "Weekend crew", wage_rules_id: "99" } }, "sandbox"],
    "422 unknownCredentialType": () => [method, path, { json: { credentials_id: "99" } }, "sandbox"],
    "422 unknownVenue": () => [method, path, { json: event({ venue: { venue_id: "999999" } }) }, "sandbox"],
    "422 unknownClient": () => [method, "/events/1", { json: event({ client_id: "NOBODY" }) }, "sandbox"],
    "422 nulCharacter": () => [method, path, nulBody(example.operation), "sandbox"],
  };
  return byName[`${example.status} ${example.name}`]?.();
}

/** The body each operation's example of text the sandbox cannot store describes: U+0000 in a name. */
function nulBody(operation: string): CallInit {
  const bodies: Readonly<Record<string, CallInit>> = {
    addWorkerDocument: { body: upload({ name: "Contract\u0000", type: "application/pdf" }) },
    updateClient: { json: { client_name: "Harbor\u0000" } },
    createVenue: { json: venue({ name: "Riverside\u0000Hall" }) },
  };
  return bodies[operation] ?? {};
}

/** The body each operation's validation example describes. */
function invalidBody(operation: string): CallInit {
  const bodies: Readonly<Record<string, CallInit>> = {
    createPayrollGroup: { json: { name: "Weekend crew", locationAll: "yes" } },
    addWorkerCredential: { json: { credentials_id: "3", date_completed: "yesterday" } },
    addWorkerDocument: { body: upload({ name: "", type: "application/pdf" }) },
    updateClient: { json: { client_city: "Portsmouth" } },
    createVenue: { json: venue({ name: "x".repeat(151) }) },
    createEvent: { json: event({ event_id: "GALA2024" }) },
    updateEvent: { json: event({ date: "2024-02-30" }) },
  };
  return bodies[operation] ?? {};
}

let server: TestServer;
/** A server whose every handler throws, as a bug would. */
let failing: TestServer;
/** The sandbox, on the demo seed, with event 1 created. */
let sandbox: TestServer;
beforeAll(async () => {
  server = await startServer();
  sandbox = await startSandboxServer();
  expect((await sandbox.call("POST", "/events", { json: event() })).status).toBe(201);
  const fail = (): never => {
    throw new Error("a handler failed");
  };
  failing = await startServer({
    handlers: Object.fromEntries(Object.keys(OPERATIONS).map((key) => [key, fail])) as unknown as Handlers,
  });
});
afterAll(async () => {
  await server.close();
  await failing.close();
  await sandbox.close();
});

const examples = errorExamples();

describe("the spec's error examples", () => {
  it("are many: every operation documents its error answers", () => {
    expect(new Set(examples.map((example) => example.operation)).size).toBe(9);
    expect(examples.length).toBeGreaterThan(50);
  });

  it.each(examples.map((example) => [`${example.operation} ${example.status} ${example.name}`, example] as const))(
    "%s is what the server answers",
    async (_label, example) => {
      const probe = probeFor(example);
      expect(probe, "add the request that provokes this example to probeFor").toBeDefined();
      const [method, path, init, target] = probe as Probe;
      const response = await (target === "failing" ? failing : target === "sandbox" ? sandbox : server).call(
        method,
        path,
        init,
      );
      expect(response.status).toBe(Number(example.status));
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toEqual(example.value);
    },
  );
});
