/**
 * The OpenAPI 3.2 fixture's output (test/fixtures/openapi-3.2/) served over loopback and by its
 * MSW handlers in Node: what the suites that run that fixture share.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { HttpHandler } from "msw";
import { setupServer } from "msw/node";
import { generate } from "../../../src/index.js";
import { repoRoot } from "../../support/paths.js";

/** A handler of the generated output, as the suites type it. */
export type FlightsHandler = (input: never) => unknown;

/**
 * Runs `test` while the generated MSW handlers (from the output in `out`) answer under `baseUrl`
 * with `handlers`, requests checked with the key "k"; requests to other origins pass through.
 */
export async function withFlightsMsw(
  out: string,
  handlers: Record<string, FlightsHandler>,
  options: { readonly baseUrl: string; readonly authenticate: unknown },
  test: () => Promise<void>,
): Promise<void> {
  const { createMswHandlers } = (await import(join(out, "msw", "index.ts"))) as {
    createMswHandlers(handlers: Record<string, FlightsHandler>, options: object): HttpHandler[];
  };
  const msw = setupServer(...createMswHandlers(handlers, options));
  msw.listen({ onUnhandledRequest: "bypass" });
  try {
    await test();
  } finally {
    msw.close();
  }
}

/** Starts `app` on 127.0.0.1 (an ephemeral port); the base URL of the fixture's API there. */
export async function listenFlights(app: FastifyInstance): Promise<string> {
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/v1`;
}

/** The generated server's entry, as the suites use it. */
export interface FlightsServer {
  buildServer(options: {
    handlers: Record<string, FlightsHandler>;
    authenticate: unknown;
    validateResponses?: boolean;
  }): Promise<FastifyInstance>;
  createKeyAuthenticator(keys: string[]): unknown;
  createMockHandlers(): Record<string, FlightsHandler>;
  createStubHandlers(): Record<string, FlightsHandler>;
  answerPreferred(handlers: Record<string, FlightsHandler>, document: unknown): Record<string, FlightsHandler>;
}

/** The fixture's output generated into `out`, its Fastify server listening with `handlers` over the `fallback` ones. */
export interface ServedFlights {
  readonly out: string;
  readonly server: FlightsServer;
  readonly createClient: (options: {
    baseUrl: string;
    apiKey: string;
    validateResponses?: boolean;
    validateRequests?: boolean;
    fetch?: typeof fetch;
  }) => Record<string, (args?: object) => Promise<unknown>>;
  readonly base: string;
  /** stops the server and removes the output */
  close(): Promise<void>;
}

/**
 * Generates the fixture (or another 3.2 document whose API key is `x-api-key`, `spec` from the
 * repository's root) into `.tmp/<name>-<pid>` and serves it on loopback, the key "k" accepted.
 */
export async function serveFlights(
  name: string,
  handlers: Record<string, FlightsHandler>,
  fallback: "createMockHandlers" | "createStubHandlers",
  spec = "test/fixtures/openapi-3.2/openapi.yaml",
): Promise<ServedFlights> {
  const out = join(repoRoot, ".tmp", `${name}-${process.pid}`);
  await generate({ spec: join(repoRoot, spec), out });
  const server = (await import(join(out, "server", "index.ts"))) as FlightsServer;
  const { createClient } = (await import(join(out, "index.ts"))) as Pick<ServedFlights, "createClient">;
  const app = await server.buildServer({
    handlers: { ...server[fallback](), ...handlers },
    authenticate: server.createKeyAuthenticator(["k"]),
  });
  const base = await listenFlights(app);
  const close = async (): Promise<void> => {
    await app.close();
    await rm(out, { recursive: true, force: true });
  };
  return { out, server, createClient, base, close };
}

/**
 * A second server of an output already served, with `handlers` over the `fallback` ones and its
 * answers unchecked (`validateResponses: false`), so the client meets what breaks the contract.
 */
export async function serveUnchecked(
  served: ServedFlights,
  handlers: Record<string, FlightsHandler>,
  fallback: "createMockHandlers" | "createStubHandlers",
): Promise<{ readonly base: string; close(): Promise<void> }> {
  const { server } = served;
  const app = await server.buildServer({
    handlers: { ...server[fallback](), ...handlers },
    authenticate: server.createKeyAuthenticator(["k"]),
    validateResponses: false,
  });
  return { base: await listenFlights(app), close: () => app.close() };
}

/** `items` one by one, 5 ms apart (a body of items streamed as it comes). */
export async function* slowly(items: readonly unknown[]): AsyncGenerator<unknown> {
  for (const item of items) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    yield item;
  }
}
