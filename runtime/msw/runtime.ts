/**
 * MSW 2 request handlers serving a route table with any implementation of its `Handlers`: the
 * example handlers (`createMockHandlers`), the sandbox's, or your own. Requests go through the same
 * pipeline as the Fastify server's (core.ts): the key, the media type, the body limits, the
 * generated validators, the same problem answers, and every answer checked against the contract.
 * Works with `setupServer` (msw/node) and `setupWorker` (msw/browser). The MSW entry point
 * (index.ts) binds it to the spec's route table, base path and `Handlers`.
 */
import { type HttpHandler, http } from "msw";
import type { Route } from "../route-types.js";
import { DEFAULT_BODY_LIMIT, DEFAULT_FILE_SIZE_LIMIT, type RouteHandler } from "../server/runtime/core.js";
import type { RequestLog } from "../server/runtime/exchange.js";
import { createFetchHandler } from "../server/runtime/fetch.js";
import type { CookieReader } from "../server/runtime/parameters.js";
import type { Authenticate } from "../server/runtime/security.js";

export type { FetchRequest } from "../server/runtime/fetch.js";

/** Options of `createMswHandlers`: `H` is the handlers' type, `P` the principal the authenticate hook answers. */
export interface MswHandlerOptions<H, P = undefined> {
  /**
   * Where the API is: an absolute URL ("http://localhost:3000/api/1_12") answers that origin only;
   * a path answers it on any origin. Default: the spec's base path on any origin.
   */
  readonly baseUrl?: string;
  /** decides whether a presented credential is valid, and who presents it (needed when an operation is secured) */
  readonly authenticate?: Authenticate<P>;
  /** handlers taking the place of some of `handlers`, typed per operation: only declared answers compile */
  readonly overrides?: Partial<H>;
  /** check every answer against the contract (default true) */
  readonly validateResponses?: boolean;
  /** the largest JSON, form or text body in bytes (default 1 MiB) */
  readonly bodyLimit?: number;
  /** the largest uploaded file in bytes (default 10 MiB) */
  readonly fileSizeLimit?: number;
  /** answer paths under the base that no operation serves with 404 and wrong methods with 405 (default: when the base path is not empty) */
  readonly notFound?: boolean;
  /** where failures are logged: answers that break the contract, handler errors (default: console.error) */
  readonly log?: RequestLog;
}

/** The API the handlers serve: its route table, and the base path its requests go to by default. */
export interface MswApi {
  readonly routes: Readonly<Record<string, Route>>;
  readonly basePath: string;
  /** reads the `Cookie` header (server/runtime/cookies.ts), for an API with cookie parameters */
  readonly cookies?: CookieReader;
}

/**
 * One MSW handler serving every operation of `api` under the base URL with `handlers` (and the
 * `overrides`): spread it into `setupServer(...)` or `setupWorker(...)`.
 */
export function createApiMswHandlers<H extends object, P = undefined>(
  api: MswApi,
  handlers: H,
  options: MswHandlerOptions<H, P> = {},
): HttpHandler[] {
  const baseUrl = options.baseUrl ?? api.basePath;
  // the overrides over the handlers, whose prototype keeps what they hold beside their own
  // functions (the hook of the mock handlers, under answerPreferred's wrapping)
  const chosen: object =
    options.overrides === undefined ? handlers : Object.assign(Object.create(handlers) as object, options.overrides);
  const serve = createFetchHandler(api.routes, (key) => pick(chosen, key), {
    baseUrl,
    authenticate: options.authenticate as Authenticate<unknown> | undefined,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    fileSizeLimit: options.fileSizeLimit ?? DEFAULT_FILE_SIZE_LIMIT,
    validateResponses: options.validateResponses ?? true,
    notFound: options.notFound ?? pathOf(baseUrl) !== "",
    log: options.log ?? CONSOLE_LOG,
    ...(api.cookies !== undefined ? { cookies: api.cookies } : {}),
  });
  if (api.cookies === undefined) return [http.all(matcherOf(baseUrl), async ({ request }) => serve(request))];
  return [http.all(matcherOf(baseUrl), async ({ request, cookies }) => serve(request, cookieText(request, cookies)))];
}

/**
 * The `Cookie` header of a request that has none, from the cookies MSW found for it (in a browser,
 * the page's: a script's `Request` cannot carry the header). MSW hands them decoded, so each is
 * encoded again, its commas kept as the list delimiters they most likely were.
 */
function cookieText(request: Request, cookies: Readonly<Record<string, string>>): string | undefined {
  if (request.headers.has("cookie")) return undefined;
  const pairs = Object.entries(cookies).map(
    ([name, value]) => `${name}=${encodeURIComponent(value).replace(/%2C/gi, ",")}`,
  );
  return pairs.length === 0 ? undefined : pairs.join("; ");
}

function pick(handlers: object, key: string): { handler: RouteHandler; owner: object } | undefined {
  const handler = (handlers as Readonly<Record<string, RouteHandler | undefined>>)[key];
  return handler === undefined ? undefined : { handler, owner: handlers };
}

/** Failures to the console; nothing else. */
const CONSOLE_LOG: RequestLog = {
  info: () => undefined,
  warn: () => undefined,
  error: (object, message) => console.error(message ?? object, message === undefined ? "" : object),
};

function pathOf(baseUrl: string): string {
  return (baseUrl.startsWith("/") || baseUrl === "" ? baseUrl : new URL(baseUrl).pathname).replace(/\/+$/, "");
}

/** The URLs under the base (the origin and the path without query), which MSW hands to this handler. */
function matcherOf(baseUrl: string): RegExp {
  const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const absolute = !(baseUrl.startsWith("/") || baseUrl === "");
  const origin = absolute ? literal(new URL(baseUrl).origin) : "[a-z][a-z0-9+.-]*:\\/\\/[^/]+";
  return new RegExp(`^${origin}${literal(pathOf(baseUrl))}(?:\\/.*)?$`, "i");
}
