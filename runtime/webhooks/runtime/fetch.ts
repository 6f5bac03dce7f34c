/**
 * The webhook receiver over the Fetch API: a `Request` in, a `Response` out, through the same
 * pipeline as the Fastify receiver. It needs no Node API: it serves in edge runtimes (a Worker's
 * `fetch`, Deno, Bun), in a service worker, and under MSW (`http.post(url, ({ request }) =>
 * receive(request))`). The generated `createWebhookReceiver` binds it to the spec's webhook table.
 */
import type { Route } from "../../route-types.js";
import { DEFAULT_BODY_LIMIT, DEFAULT_FILE_SIZE_LIMIT } from "../../server/runtime/core.js";
import type { RequestLog } from "../../server/runtime/exchange.js";
import { createFetchHandler } from "../../server/runtime/fetch.js";
import type { CookieReader } from "../../server/runtime/parameters.js";
import type { Authenticate } from "../../server/runtime/security.js";
import { pickWebhook, type ReceiverOptions, relocate, type WebhookPaths } from "./table.js";

/** Options of `createFetchReceiver`: a receiver's, where it listens, and where it logs. */
export interface FetchReceiverOptions<H, P = undefined> extends ReceiverOptions<H, P> {
  /**
   * The base every webhook is under: an absolute URL ("https://shop.example/webhooks") takes that
   * origin only; a path ("/webhooks", the default) takes it on any origin.
   */
  readonly baseUrl?: string;
  /** where failures are logged: answers that break the contract, handler errors (default: console.error) */
  readonly log?: RequestLog;
}

/** Receives a webhook: its answer, or a 404 problem for a request no webhook of the table is received at. */
export type FetchReceiver = (request: Request) => Promise<Response>;

/**
 * A Fetch receiver of every webhook of `table`, each with its handler: one missing is refused at
 * once. `cookies` reads the `Cookie` header, for a table whose webhooks have cookie parameters.
 */
export function createFetchReceiver<K extends string, H extends object, P>(
  table: Readonly<Record<K, Route>>,
  options: FetchReceiverOptions<H, P>,
  cookies?: CookieReader,
): FetchReceiver {
  const routes = relocate(table, options.paths as WebhookPaths<K> | undefined);
  const serve = createFetchHandler(routes, (key) => pickWebhook(options.handlers, key), {
    baseUrl: options.baseUrl ?? "/webhooks",
    authenticate: options.authenticate as Authenticate<unknown> | undefined,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    fileSizeLimit: options.fileSizeLimit ?? DEFAULT_FILE_SIZE_LIMIT,
    validateResponses: options.validateResponses ?? true,
    notFound: true,
    log: options.log ?? CONSOLE_LOG,
    ...(cookies !== undefined ? { cookies } : {}),
  });
  return async (request) => (await serve(request)) ?? notReceived(request);
}

/** The answer to a request outside the base: nothing is received there. */
function notReceived(request: Request): Response {
  const problem = {
    type: "about:blank",
    title: "Not Found",
    status: 404,
    detail: `no webhook is received at ${new URL(request.url).pathname}`,
  };
  return new Response(JSON.stringify(problem), {
    status: 404,
    headers: { "content-type": "application/problem+json" },
  });
}

/** Failures to the console; nothing else. */
const CONSOLE_LOG: RequestLog = {
  info: () => undefined,
  warn: () => undefined,
  error: (object, message) => console.error(message ?? object, message === undefined ? "" : object),
};
