/** Starts the generated server on 127.0.0.1 (ephemeral port) and talks to it over real HTTP. */
import type { FastifyInstance } from "fastify";
import type { OperationId } from "../../../generated/routes.js";
import {
  type BuildServerOptions,
  buildServer,
  createKeyAuthenticator,
  createMockHandlers,
} from "../../../generated/server/index.js";
import { createSandbox } from "../../../sandbox/index.js";
import { event, venue } from "../../support/contract-bodies.js";

export const API_KEY = "test-key-1";
export const FORBIDDEN_KEY = "read-only-key";

/** A running server and a fetch bound to its base path. */
export interface TestServer {
  readonly app: FastifyInstance;
  /** http://127.0.0.1:<port>/api/1_12 */
  readonly base: string;
  call(method: string, path: string, init?: CallInit): Promise<Response>;
  close(): Promise<void>;
}

export interface CallInit {
  /** a JSON value (sent as application/json), or a raw body with `contentType` */
  readonly json?: unknown;
  readonly body?: string | Uint8Array | FormData;
  readonly contentType?: string;
  /** the X-API-KEY header; API_KEY by default, null to send none */
  readonly key?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
}

/** An authenticator accepting API_KEY, and FORBIDDEN_KEY as a valid key with no rights. */
export function testAuthenticator(): BuildServerOptions["authenticate"] {
  const known = createKeyAuthenticator([API_KEY]);
  return (key, request, scheme) => (key === FORBIDDEN_KEY ? "forbidden" : known(key, request, scheme));
}

export async function startServer(options: Partial<BuildServerOptions> = {}): Promise<TestServer> {
  const app = await buildServer({ handlers: createMockHandlers(), authenticate: testAuthenticator(), ...options });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  const base = `http://127.0.0.1:${address.port}/api/1_12`;
  return { app, base, call: (method, path, init = {}) => send(base, method, path, init), close: () => app.close() };
}

/** The key of the demo seed's first company, which a sandbox accepts. */
export const SANDBOX_KEY = "demo-key-harbor";

/** A sandbox (in memory, on the demo seed), called like a test server; its key is SANDBOX_KEY. */
export async function startSandboxServer(): Promise<TestServer> {
  const sandbox = await createSandbox();
  return {
    app: sandbox.server,
    base: sandbox.url,
    call: (method, path, init = {}) => send(sandbox.url, method, path, { key: SANDBOX_KEY, ...init }),
    close: () => sandbox.close(),
  };
}

function send(base: string, method: string, path: string, init: CallInit): Promise<Response> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== null) headers["x-api-key"] = init.key ?? API_KEY;
  let body: string | Uint8Array | FormData | undefined = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers["content-type"] = "application/json";
  }
  if (init.contentType !== undefined) headers["content-type"] = init.contentType;
  return fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body: body as BodyInit } : {}) });
}

/** One valid request per operation: its path (under the base path) and body. */
export function validRequests(): Record<OperationId, { readonly path: string; readonly init?: CallInit }> {
  const upload = new FormData();
  upload.set("p_id", "1042");
  upload.set("name", "Signed contract 2024");
  upload.set("type", "application/pdf");
  upload.set("file", new Blob(["%PDF-1.7"]), "contract-2024.pdf");
  return {
    addWorkerCredential: {
      path: "/workers/1042/credentials",
      init: { json: { credentials_id: "3", name: "Forklift licence" } },
    },
    addWorkerDocument: { path: "/workers/1042/documents", init: { body: upload } },
    createEvent: { path: "/events", init: { json: event() } },
    createPayrollGroup: { path: "/payroll-groups", init: { json: { name: "Weekend crew", locations: ["12"] } } },
    createVenue: { path: "/venues", init: { json: venue() } },
    listEvents: { path: "/events" },
    listWageRules: { path: "/wage-rules" },
    updateClient: { path: "/clients/HARBOR42", init: { json: { client_name: "Harbor Events Ltd" } } },
    updateEvent: { path: "/events/GALA2024", init: { json: event({ event_id: "GALA2024" }) } },
  };
}
