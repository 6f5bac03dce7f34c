/**
 * buildServer: a Fastify instance serving the API of the route table, with problem answers
 * everywhere.
 */
import { type FastifyInstance, type FastifyServerOptions, fastify, LogController } from "fastify";
import { basePath, routes } from "../routes.js";
import { registerRoutes, type ServerOptions } from "./plugin.js";
import { handleError } from "./runtime/errors.js";
import { type LoggerOption, logRequestLine, secretHeaders, withRedaction } from "./runtime/logging.js";
import { createNotFoundHandler } from "./runtime/not-found.js";
import { createRefusals, DEFAULT_MAX_PARAM_LENGTH } from "./runtime/refusals.js";

/** How long a request may take to arrive in full (ms) before it is refused with 408. */
export const DEFAULT_REQUEST_TIMEOUT = 120_000;

/** Options of `buildServer`: those of `registerRoutes`, and how the Fastify instance logs. */
export interface BuildServerOptions<in out P = undefined> extends ServerOptions<P> {
  /** Fastify's logger: off (default), on, or pino options; credentials are redacted either way */
  readonly logger?: LoggerOption;
  /** log one line per request: method, path, status, time (default: when the logger is on) */
  readonly logRequests?: boolean;
  /** the longest path parameter in characters (default 1024); longer ones get 414 */
  readonly maxParamLength?: number;
  /** further Fastify server options (`requestTimeout` defaults to 120 s) */
  readonly fastify?: Omit<FastifyServerOptions, "logger" | "frameworkErrors" | "clientErrorHandler">;
}

/**
 * A Fastify instance serving the API: `registerRoutes` under the base path, and problem answers
 * everywhere else too: unknown paths, errors, and what Fastify and Node refuse before routing
 * (malformed URLs and HTTP, over-long parameters and headers, timeouts). Not yet listening: call
 * `listen` (or `inject` in tests).
 */
export async function buildServer<P = undefined>(options: BuildServerOptions<P>): Promise<FastifyInstance> {
  const logger = withRedaction(options.logger, secretHeaders(Object.values(routes)));
  // With a logger, Fastify's own two lines per request give way to ours (one line, no query).
  const logging = logger === false ? {} : { logController: new LogController({ disableRequestLogging: true }) };
  const refusals = createRefusals(options.maxParamLength ?? DEFAULT_MAX_PARAM_LENGTH);
  const routerOptions = { ...options.fastify?.routerOptions, ...refusals.options.routerOptions };
  const app = fastify({ requestTimeout: DEFAULT_REQUEST_TIMEOUT, ...options.fastify, logger, ...logging, ...refusals.options, routerOptions });
  refusals.attach(app);
  app.setErrorHandler(handleError);
  if ((options.basePath ?? basePath) !== "") app.setNotFoundHandler(createNotFoundHandler([], ""));
  if (options.logRequests ?? logger !== false) app.addHook("onResponse", logRequestLine);
  await registerRoutes<P>(app, options);
  return app;
}
