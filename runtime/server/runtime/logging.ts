/**
 * Logging that never shows a credential: the request serializer redacts every header a security
 * scheme reads (and Authorization and Cookie), and the one line logged per request has the
 * method, the path without its query (which may carry a key), the status and the time taken, and,
 * for a problem answer, the problem's `type` and `detail`, so that a refusal's line says why. A
 * detail may quote what the client sent (a `Prefer` header, a media type), so it is written once
 * in a line: in its text; the line's `problem` field, for tools reading JSON lines, has the type.
 * Requests refused before routing (refusals.ts) are logged once too, in lines of the same form.
 */
import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from "fastify";
import type { Route } from "../../route-types.js";
import { pathOf } from "./errors.js";
import { ignoredPreferences, PREFERENCE_APPLIED } from "./prefer.js";

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

/** What a problem answer's line says of it. */
export interface LoggedProblem {
  readonly type: string;
  readonly detail?: string;
}

/** The problem each reply answered, noted as it is sent, for its line. */
const answeredProblems = new WeakMap<FastifyReply, LoggedProblem>();

/**
 * An onSend hook noting the `type` and `detail` of a problem answer (an error status with a
 * problem+json body), for the request's line. Other answers pass untouched and unread.
 */
export function noteProblem(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
): void {
  noteAnswer(reply, payload);
  done(null, payload);
}

/** What `noteProblem` does before it hands the answer on: for a hook doing more (stop-reading.ts). */
export function noteAnswer(reply: FastifyReply, payload: unknown): void {
  if (reply.statusCode >= 400 && typeof payload === "string" && isProblemType(reply.getHeader("content-type"))) {
    const problem = problemOf(payload);
    if (problem !== undefined) answeredProblems.set(reply, problem);
  }
}

function isProblemType(header: unknown): boolean {
  return typeof header === "string" && header.toLowerCase().startsWith("application/problem+json");
}

function problemOf(text: string): LoggedProblem | undefined {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body !== "object" || body === null) return undefined;
    const { type, detail } = body as { type?: unknown; detail?: unknown };
    if (typeof type !== "string") return undefined;
    return typeof detail === "string" ? { type, detail } : { type };
  } catch {
    return undefined;
  }
}

/**
 * Fastify's log controller for a server logging one line per request: Fastify's own lines per
 * request off (incoming, completed, errors), and each request's line written where Fastify would
 * write its "request completed", from the end of the answer it listens for with a logger on:
 * method, path, status and time, then, for a problem, its type and detail (also as the line's
 * `problem` field, for tools reading JSON lines), and, for an answer that is no problem, the
 * preferences of its Prefer header that were not honoured (RFC 7240 has them ignored; the line
 * says so, and lists them as its `prefer.ignored` field). An onResponse hook wrote the same line
 * with a turn of the hooks' runner of its own on every request.
 */
export class RequestLines extends LogController {
  constructor() {
    super({ disableRequestLogging: true });
  }

  override requestCompleted(_error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = `${request.method} ${pathOf(request.url)} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`;
    const prefer = request.headers.prefer;
    const problem = answeredProblems.get(reply);
    // a refused request had no preference applied or ignored: its problem says why (and may quote
    // the preference that made it, which the line then holds once)
    const ignored =
      prefer === undefined || problem !== undefined
        ? []
        : ignoredPreferences(prefer, reply.getHeader(PREFERENCE_APPLIED));
    logLine(request.log, line, problem, ignored);
  }
}

/**
 * Logs a request's line, `line` then, for a problem, its type and detail: each once (the detail
 * may quote the client), the type also as the line's `problem` field, for tools reading JSON
 * lines; then the preferences that were `ignored`, also as its `prefer.ignored` field.
 */
export function logLine(
  log: { info(object: unknown, message?: string): void },
  line: string,
  problem: LoggedProblem | undefined,
  ignored: readonly string[] = [],
): void {
  if (problem === undefined && ignored.length === 0) return log.info(line);
  const fields = {
    ...(problem === undefined ? {} : { problem: { type: problem.type } }),
    ...(ignored.length === 0 ? {} : { prefer: { ignored } }),
  };
  const said = [
    line,
    problem === undefined ? "" : `: ${problem.type}${problem.detail === undefined ? "" : ` (${problem.detail})`}`,
    ignored.length === 0 ? "" : ` (Prefer ignored: ${ignored.join(", ")})`,
  ].join("");
  log.info(fields, said);
}
