/**
 * The error handler: turns whatever was thrown (a `ProblemError`, an error of Fastify or of the
 * multipart reader, or a bug) into a problem answer. Unexpected errors are logged with their stack
 * and answered with a generic 500 that reveals nothing of it.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Outcome, ServerRequest } from "./exchange.js";
import { createProblem, type ProblemDetails, ProblemError, problemOutcome } from "./problems.js";
import { writeOutcome } from "./reply.js";

/** The reason phrases of the 4xx statuses, as Node's `STATUS_CODES` has them (this module runs in browsers too). */
const CLIENT_ERRORS: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  407: "Proxy Authentication Required",
  408: "Request Timeout",
  409: "Conflict",
  410: "Gone",
  411: "Length Required",
  412: "Precondition Failed",
  413: "Payload Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  416: "Range Not Satisfiable",
  417: "Expectation Failed",
  418: "I'm a Teapot",
  421: "Misdirected Request",
  422: "Unprocessable Entity",
  423: "Locked",
  424: "Failed Dependency",
  425: "Too Early",
  426: "Upgrade Required",
  428: "Precondition Required",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  451: "Unavailable For Legal Reasons",
};

/** The reason phrase of a 4xx status, for a status line (`Error` for another status). */
export function reasonPhrase(status: number): string {
  return CLIENT_ERRORS[status] ?? "Error";
}

/** Fastify and @fastify/multipart error codes, by the problem they stand for. */
const KNOWN_CODES: Readonly<Record<string, ProblemDetails>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: createProblem("payloadTooLarge", "The request body is larger than the server accepts."),
  FST_REQ_FILE_TOO_LARGE: createProblem("payloadTooLarge", "An uploaded file is larger than the server accepts."),
  FST_FILES_LIMIT: createProblem("payloadTooLarge", "The multipart body has more files than the server accepts."),
  FST_PARTS_LIMIT: createProblem("payloadTooLarge", "The multipart body has more parts than the server accepts."),
  FST_FIELDS_LIMIT: createProblem("payloadTooLarge", "The multipart body has more fields than the server accepts."),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: createProblem(
    "unsupportedMediaType",
    "The Content-Type of the request is not accepted.",
  ),
  FST_INVALID_MULTIPART_CONTENT_TYPE: createProblem("unsupportedMediaType", "The request is not multipart/form-data."),
  FST_PROTO_VIOLATION: createProblem("malformedBody", "A form field has a name that is not allowed."),
  FST_INVALID_JSON_FIELD_ERROR: createProblem(
    "malformedBody",
    "A form field declared as JSON is not well-formed JSON.",
  ),
  FST_MP_PREMATURE_CLOSE: createProblem("malformedBody", "The multipart body ended before it was complete."),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: createProblem(
    "malformedBody",
    "The request body does not match its Content-Length.",
  ),
};

/**
 * Fastify's error handler: every error becomes a problem answer. A request no route takes is
 * answered by the not-found handler (404, or 405 with `Allow`) even when Fastify refused its body
 * before that handler ran: a `QUERY` without a Content-Type (which Fastify answers 400, as RFC
 * 10008 asks of a server serving QUERY), or a Content-Type it cannot parse. What is wrong with a
 * body no operation takes matters less than that no operation takes it.
 */
export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  if (request.is404 && refusedBeforeHandler(error))
    return void request.routeOptions.handler.call(request.server, request, reply);
  writeOutcome(reply, failureOutcome(error, request));
}

/** Whether Fastify refused the request while reading its body, before any handler ran. */
function refusedBeforeHandler(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && (code === "FST_ERR_ROUTE_MISSING_CONTENT_TYPE" || code.startsWith("FST_ERR_CTP_"));
}

/** The answer to an error, whatever the transport: its problem (unexpected errors logged with their stack). */
export function failureOutcome(error: unknown, request: ServerRequest): Outcome {
  if (error instanceof ProblemError) return problemOutcome(error.problem, error.headers);
  const problem = problemOf(error);
  if (problem.status >= 500)
    request.log.error({ err: error }, `request failed: ${request.method} ${pathOf(request.url)}`);
  return problemOutcome(problem, problem.status === 413 ? CLOSE : undefined);
}

const CLOSE: Readonly<Record<string, string>> = { connection: "close" };

/** The problem an error stands for: by its code, else by its 4xx status, else a 500. */
export function problemOf(error: unknown): ProblemDetails {
  const code = errorCode(error);
  if (code !== undefined && Object.hasOwn(KNOWN_CODES, code)) return KNOWN_CODES[code] ?? internalProblem();
  const status = propertyOf(error, "statusCode");
  if (typeof status !== "number" || !Number.isInteger(status) || status < 400 || status > 499) return internalProblem();
  if (status === 400) return createProblem("malformedBody", "The request could not be read.");
  if (status === 404) return createProblem("notFound", "No resource matches this path.");
  if (status === 413) return createProblem("payloadTooLarge", "The request body is larger than the server accepts.");
  if (status === 415) return createProblem("unsupportedMediaType", "The Content-Type of the request is not accepted.");
  const title = CLIENT_ERRORS[status] ?? "Client Error";
  return { type: "about:blank", title, status, detail: title };
}

function internalProblem(): ProblemDetails {
  return createProblem("internal", "The server failed to answer this request.");
}

/** The `code` of an error (Fastify's "FST_..."), if it has one. */
export function errorCode(error: unknown): string | undefined {
  const code = propertyOf(error, "code");
  return typeof code === "string" ? code : undefined;
}

function propertyOf(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** A request URL without its query (which may carry credentials). */
export function pathOf(url: string): string {
  const end = url.indexOf("?");
  return end === -1 ? url : url.slice(0, end);
}
