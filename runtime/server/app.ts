/**
 * buildApiServer: a Fastify instance serving the API of a route table, with problem answers
 * everywhere. The server's `buildServer` binds it to the spec's route table, base path and plugin.
 */
import { type FastifyInstance, type FastifyServerOptions, fastify, LogController } from "fastify";
import type { Route } from "../route-types.js";
import { handleError } from "./runtime/errors.js";
import { type LoggerOption, RequestLines, secretHeaders, withRedaction } from "./runtime/logging.js";
import { createNotFoundHandler } from "./runtime/not-found.js";
import { createRefusals, DEFAULT_MAX_PARAM_LENGTH } from "./runtime/refusals.js";
import { closeUnusedConnections, type RefusedBodyOptions } from "./runtime/stop-reading.js";

/** How long a request may take to arrive in full (ms) before it is refused with 408. */
export const DEFAULT_REQUEST_TIMEOUT = 120_000;

/** What `buildServer` takes beyond the options of `registerRoutes`: how the Fastify instance logs and refuses. */
export interface AppOptions extends RefusedBodyOptions {
  /** Fastify's logger: off (default), on, or pino options; credentials are redacted either way */
  readonly logger?: LoggerOption;
  /** log one line per request: method, path, status, time (default: when the logger is on) */
  readonly logRequests?: boolean;
  /** the longest path parameter in characters (default 1024); longer ones get 414 */
  readonly maxParamLength?: number;
  /** further Fastify server options (`requestTimeout` defaults to 120 s) */
  readonly fastify?: Omit<FastifyServerOptions, "logger" | "frameworkErrors" | "clientErrorHandler">;
}

/** The API a server serves: its route table, its base path, and the plugin registering its routes. */
export interface ServedApi<O> {
  readonly routes: Readonly<Record<string, Route>>;
  /** the spec's base path, where `options.basePath` does not say another */
  readonly basePath: string;
  readonly registerRoutes: (app: FastifyInstance, options: O) => Promise<void>;
}

/**
 * A Fastify instance serving the API: `api.registerRoutes` under the base path, and problem answers
 * everywhere else too: unknown paths, errors, and what Fastify and Node refuse before routing
 * (malformed URLs and HTTP, over-long parameters and headers, timeouts). Not yet listening: call
 * `listen` (or `inject` in tests).
 */
export async function buildApiServer<O extends { readonly basePath?: string }>(
  api: ServedApi<O>,
  options: O & AppOptions,
): Promise<FastifyInstance> {
  const logger = withRedaction(options.logger, secretHeaders(Object.values(api.routes)));
  // With a logger, Fastify's own two lines per request give way to ours (one line, no query),
  // which its log controller writes as each answer ends
  const logRequests = options.logRequests ?? logger !== false;
  const controller = logRequests ? new RequestLines() : new LogController({ disableRequestLogging: true });
  const logging = logger === false ? {} : { logController: controller };
  const refusals = createRefusals(options.maxParamLength ?? DEFAULT_MAX_PARAM_LENGTH, {
    ...(options.refusedBodyLimit === undefined ? {} : { refusedBodyLimit: options.refusedBodyLimit }),
    logRequests,
  });
  const routerOptions = { ...options.fastify?.routerOptions, ...refusals.options.routerOptions };
  const app = fastify({
    requestTimeout: DEFAULT_REQUEST_TIMEOUT,
    ...options.fastify,
    logger,
    ...logging,
    ...refusals.options,
    routerOptions,
  });
  refusals.attach(app);
  closeUnusedConnections(app);
  app.setErrorHandler(handleError);
  if ((options.basePath ?? api.basePath) !== "") app.setNotFoundHandler(createNotFoundHandler([], ""));
  // each answer's problem is noted for its line by the refusals' onSend hook (refusals.ts), and
  // the line written by the log controller (RequestLines)
  await api.registerRoutes(app, options);
  return app;
}
