/**
 * The OpenAPI 3.2 fixture's output (test/fixtures/openapi-3.2/) served over loopback and by its
 * MSW handlers in Node: what the suites that run that fixture share.
 */
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import type { HttpHandler } from "msw";
import { setupServer } from "msw/node";

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
