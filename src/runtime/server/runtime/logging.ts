/**
 * Logging that never shows a credential: the request serializer redacts every header a security
 * scheme reads (and Authorization and Cookie), and the one line logged per request has the
 * method, the path without its query (which may carry a key), the status and the time taken.
 */
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from "fastify";
import type { Route } from "../../route-types.js";
import { pathOf } from "./errors.js";

/** Fastify's logger option: off, on, or pino options. */
export type LoggerOption = FastifyServerOptions["logger"];

const REDACTED = "[redacted]";

/** The headers that carry credentials in some route of the table (lower-cased). */
export function secretHeaders(routes: readonly Route[]): string[] {
  const names = new Set(["authorization", "cookie", "proxy-authorization"]);
  for (const route of routes) {
    for (const schemes of route.security) {
      for (const scheme of schemes)
        if (scheme.type === "apiKey" && scheme.in === "header" && scheme.name !== undefined)
          names.add(scheme.name.toLowerCase());
    }
  }
  return [...names].sort();
}

/** The logger option with a request serializer that redacts `secrets`; false stays false. */
export function withRedaction(logger: LoggerOption, secrets: readonly string[]): LoggerOption {
  if (logger === undefined || logger === false) return false;
  const base = logger === true ? {} : logger;
  const serializers = {
    ...(base.serializers ?? {}),
    req: (request: FastifyRequest) => serializeRequest(request, secrets),
  };
  return { ...base, serializers };
}

function serializeRequest(request: FastifyRequest, secrets: readonly string[]): Record<string, unknown> {
  const headers: Record<string, unknown> = { ...request.headers };
  for (const name of secrets) if (headers[name] !== undefined) headers[name] = REDACTED;
  return { method: request.method, url: pathOf(request.url), headers };
}

/** An onResponse hook logging one line per request: method, path, status and time. */
export function logRequestLine(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  request.log.info(`${request.method} ${pathOf(request.url)} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`);
  done();
}
