/**
 * Refusals made before any route is found, answered with the same problems as everything else:
 *
 * - Fastify's framework errors: a path that is not valid percent-encoded UTF-8 (400), a path
 *   parameter longer than the router's limit (414);
 * - Node's client errors: a request that is not valid HTTP/1.1 (400), a request line and headers
 *   over the size limit (431), a request not received in time (408).
 *
 * These come before the API key is read: no route, and so no security requirement, is known yet.
 * After a client error nothing more can be read from the connection, so it is closed; but first
 * every answer still owed on it (a pipelining client may have sent several complete requests
 * ahead of the broken one) is written, so the answers arrive in the order of the requests.
 *
 * `attach` also has every answer given before its request's body arrived whole stop the reading
 * of that body (stop-reading.ts), these refusals' included, and answers a request no route takes
 * before its body is read. With `logRequests`, each of these refusals gets its one log line, as
 * every other request does (logging.ts).
 */
/// <reference types="node" />
// types only: on Node 22 and later, importing a value of node:http as a module loads Node's fetch
// (undici, for the WebSocket it exports), about 18 MB of a server's memory on Node 24
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { errorCode, handleError, pathOf, reasonPhrase } from "./errors.js";
import { logLine, noteAnswer } from "./logging.js";
import { DEFAULT_MAX_PARAM_LENGTH } from "./parameters.js";
import { createProblem, MALFORMED_URL, PROBLEM_MEDIA_TYPE, type ProblemDetails, parameterTooLong } from "./problems.js";
import { sendProblem } from "./reply.js";
import {
  answerUnroutedEarly,
  DEFAULT_REFUSED_BODY_LIMIT,
  type RefusedBodyOptions,
  stopReading,
  stopReadingOnSend,
} from "./stop-reading.js";

export { DEFAULT_MAX_PARAM_LENGTH };

/** A connection error as Node reports it: an llhttp code ("HPE_INVALID_METHOD") and reason. */
interface ClientError extends Error {
  readonly code?: string;
  readonly reason?: string;
}

/** The Fastify server options and the set-up step that make every early refusal a problem. */
export interface Refusals {
  /** spread into the options of `fastify()` */
  readonly options: {
    readonly frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void;
    readonly clientErrorHandler: (error: ClientError, socket: Duplex) => void;
    readonly routerOptions: { readonly maxParamLength: number };
  };
  /**
   * call once with the instance built with `options`: follows the answers owed per connection,
   * and stops reading the bodies of requests answered before they arrived whole
   */
  attach(app: FastifyInstance): void;
}

const TIMEOUT = createProblem("requestTimeout", "The request was not received in time.");
const HEADERS_TOO_LARGE = createProblem(
  "headersTooLarge",
  "The request line and headers are larger than the server accepts.",
);

/** How the refusals are made: a refused body's bound, and whether each refusal gets its log line. */
export interface RefusalOptions extends RefusedBodyOptions {
  /**
   * log one line per refusal, as logging.ts logs a request's, and note every answer's problem for
   * its request's line (`noteAnswer`, in `attach`'s onSend hook) (default false)
   */
  readonly logRequests?: boolean;
}

/** Problem answers for the refusals Fastify and Node make before routing. */
export function createRefusals(
  maxParamLength: number = DEFAULT_MAX_PARAM_LENGTH,
  options: RefusalOptions = {},
): Refusals {
  const owed = new OwedAnswers();
  const tooLong = parameterTooLong(maxParamLength);
  const limit = options.refusedBodyLimit ?? DEFAULT_REFUSED_BODY_LIMIT;
  let log: FastifyBaseLogger | undefined;
  const frameworkErrors = (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    // these answers run no hook of the instance: the body's reading is stopped, and the line logged, here
    stopReading(request.raw, reply.raw, limit);
    const code = errorCode(error);
    const problem =
      code === "FST_ERR_BAD_URL" ? MALFORMED_URL : code === "FST_ERR_MAX_PARAM_LENGTH" ? tooLong : undefined;
    if (options.logRequests === true) logWhenAnswered(request, reply, problem);
    if (problem !== undefined) return sendProblem(reply, problem);
    handleError(error, request, reply);
  };
  const clientErrorHandler = (error: ClientError, socket: Duplex): void => {
    if (error.code === "ECONNRESET" || error.code === "EPIPE" || !socket.writable) return void socket.destroy();
    const problem = clientProblem(error);
    // the request could not be read: its line has neither method nor path
    if (options.logRequests === true && log !== undefined)
      logLine(log, `(unreadable request) ${problem.status}`, problem);
    owed.whenAnswered(socket, () => writeProblem(socket, problem));
  };
  return {
    options: { frameworkErrors, clientErrorHandler, routerOptions: { maxParamLength } },
    attach: (app) => {
      log = app.log;
      app.server.on("request", owed.track);
      app.addHook("onRequest", answerUnroutedEarly);
      // with the request's line, its problem is noted in the same hook
      stopReadingOnSend(app, limit, options.logRequests === true ? noteAnswer : undefined);
    },
  };
}

/** Logs the line of a request refused before routing once its answer is written. */
function logWhenAnswered(request: FastifyRequest, reply: FastifyReply, problem: ProblemDetails | undefined): void {
  const started = performance.now();
  reply.raw.once("finish", () => {
    const line = `${request.method} ${pathOf(request.url)} ${reply.statusCode} ${(performance.now() - started).toFixed(1)} ms`;
    logLine(request.log, line, problem);
  });
}

/** The problem of a connection error: 408, 431, or 400 naming what llhttp found wrong. */
export function clientProblem(error: ClientError): ProblemDetails {
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") return TIMEOUT;
  if (error.code === "HPE_HEADER_OVERFLOW") return HEADERS_TOO_LARGE;
  const reason = typeof error.reason === "string" && error.reason !== "" ? `: ${error.reason.replace(/\.$/, "")}` : "";
  return createProblem("malformedRequest", `The request is not valid HTTP/1.1${reason}.`);
}

/** Writes a problem straight to the connection (there is no response object), then closes it. */
function writeProblem(socket: Duplex, problem: ProblemDetails): void {
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify(problem);
  const head = [
    `HTTP/1.1 ${problem.status} ${reasonPhrase(problem.status)}`,
    `content-type: ${PROBLEM_MEDIA_TYPE}`,
    `content-length: ${Buffer.byteLength(body)}`,
    "connection: close",
  ].join("\r\n");
  socket.end(`${head}\r\n\r\n${body}`, () => socket.destroy());
}

/**
 * The answers each connection still owes: one per request read in full (or already being
 * answered) and not yet answered. A request whose body was still arriving when the connection
 * broke, and whose answer has not begun, is not waited for: it will never be complete, and the
 * problem written for the broken connection is its answer.
 *
 * Per request this costs one array entry and one listener, the same function for every response
 * (no closure, no map entry); a response leaves its connection's list when it closes.
 */
class OwedAnswers {
  /** The server's "request" listener. */
  readonly track = (request: IncomingMessage, response: ServerResponse): void => {
    const socket = request.socket;
    const connection = CONNECTIONS.get(socket);
    if (connection === undefined) CONNECTIONS.set(socket, { open: [response], onceAnswered: undefined });
    else connection.open.push(response);
    response.on("close", onResponseClose);
  };

  /** Runs `then` once every answer the connection owes has been written. */
  whenAnswered(socket: object, then: () => void): void {
    const connection = CONNECTIONS.get(socket);
    if (connection === undefined) return then();
    connection.onceAnswered = then;
    settle(connection);
  }
}

/** A connection's responses not yet closed (oldest first), and what to run once it owes none. */
interface Connection {
  readonly open: ServerResponse[];
  onceAnswered: (() => void) | undefined;
}

/** Per connection (its socket), while it has served a request. */
const CONNECTIONS = new WeakMap<object, Connection>();

/** Every response's "close" listener: the response leaves its connection's list. */
function onResponseClose(this: ServerResponse): void {
  const connection = CONNECTIONS.get(this.req.socket);
  if (connection === undefined) return;
  const open = connection.open;
  const at = open.indexOf(this);
  if (at === 0) open.shift();
  else if (at > 0) open.splice(at, 1);
  if (connection.onceAnswered !== undefined) settle(connection);
}

function settle(connection: Connection): void {
  for (const response of connection.open) if (response.req.complete || response.headersSent) return;
  const then = connection.onceAnswered;
  connection.onceAnswered = undefined;
  then?.();
}
