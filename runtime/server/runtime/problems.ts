/**
 * Every error answer is an RFC 9457 problem (`application/problem+json`): a `type` URI naming the
 * kind of problem, its `title`, the `status`, a `detail` for this occurrence and, for validation
 * failures, every failed check in `errors`. No stack trace or internal message ever reaches it.
 */
import type { Outcome } from "./exchange.js";

/** The media type of every error answer. */
export const PROBLEM_MEDIA_TYPE = "application/problem+json";

/** One failed check of a request part, in the shape of the generated validators' errors. */
export interface ValidationIssue {
  readonly in: "path" | "query" | "header" | "cookie" | "body";
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message: string;
}

/** An RFC 9457 problem: the body of every error answer. */
export interface ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail?: string;
  readonly instance?: string;
  readonly errors?: readonly ValidationIssue[];
}

/** The kinds of problem this server answers with: type URI, title and status of each. */
export const PROBLEM_TYPES = {
  validation: { type: "urn:problem-type:validation-error", title: "Request validation failed", status: 400 },
  malformedBody: { type: "urn:problem-type:malformed-body", title: "Malformed request body", status: 400 },
  malformedUrl: { type: "urn:problem-type:malformed-url", title: "Malformed URL", status: 400 },
  malformedRequest: { type: "urn:problem-type:malformed-request", title: "Malformed HTTP request", status: 400 },
  missingKey: { type: "urn:problem-type:missing-api-key", title: "Missing API key", status: 401 },
  invalidKey: { type: "urn:problem-type:invalid-api-key", title: "Invalid API key", status: 401 },
  forbidden: { type: "urn:problem-type:forbidden", title: "Forbidden", status: 403 },
  notFound: { type: "urn:problem-type:not-found", title: "Not Found", status: 404 },
  methodNotAllowed: { type: "urn:problem-type:method-not-allowed", title: "Method Not Allowed", status: 405 },
  requestTimeout: { type: "urn:problem-type:request-timeout", title: "Request Timeout", status: 408 },
  payloadTooLarge: { type: "urn:problem-type:payload-too-large", title: "Payload Too Large", status: 413 },
  uriTooLong: { type: "urn:problem-type:uri-too-long", title: "URI Too Long", status: 414 },
  unsupportedMediaType: {
    type: "urn:problem-type:unsupported-media-type",
    title: "Unsupported Media Type",
    status: 415,
  },
  headersTooLarge: {
    type: "urn:problem-type:header-fields-too-large",
    title: "Request Header Fields Too Large",
    status: 431,
  },
  responseValidation: {
    type: "urn:problem-type:response-validation-failed",
    title: "Response validation failed",
    status: 500,
  },
  internal: { type: "urn:problem-type:internal-error", title: "Internal Server Error", status: 500 },
  unsatisfiablePreference: {
    type: "urn:problem-type:unsatisfiable-preference",
    title: "Preference not declared",
    status: 400,
  },
  notImplemented: { type: "urn:problem-type:not-implemented", title: "Not Implemented", status: 501 },
  unavailable: { type: "urn:problem-type:service-unavailable", title: "Service Unavailable", status: 503 },
} as const;

/** A kind of problem, by its key in `PROBLEM_TYPES`. */
export type ProblemKind = keyof typeof PROBLEM_TYPES;

/** A problem of a known kind, with the detail of this occurrence. */
export function createProblem(kind: ProblemKind, detail: string, errors?: readonly ValidationIssue[]): ProblemDetails {
  const { type, title, status } = PROBLEM_TYPES[kind];
  return errors === undefined ? { type, title, status, detail } : { type, title, status, detail, errors };
}

/** Thrown by a handler (or the pipeline) to answer with a problem instead of a declared response. */
export class ProblemError extends Error {
  /** the problem answered */
  readonly problem: ProblemDetails;
  /** extra response headers (for example `Allow` or `Retry-After`) */
  readonly headers: Readonly<Record<string, string>>;

  constructor(problem: ProblemDetails, headers: Readonly<Record<string, string>> = {}) {
    super(problem.detail ?? problem.title);
    this.name = "ProblemError";
    this.problem = problem;
    this.headers = headers;
  }
}

/** The 400 problem of a path that is not valid percent-encoded UTF-8. */
export const MALFORMED_URL = createProblem("malformedUrl", "The request path is not valid percent-encoded UTF-8.");

/** The 414 problem of a path parameter over the router's limit. */
export function parameterTooLong(maxParamLength: number): ProblemDetails {
  return createProblem("uriTooLong", `A path parameter is longer than ${maxParamLength} characters.`);
}

/** Throws the 501 problem of an operation nobody has implemented yet. */
export function notImplemented(operationId: string): never {
  throw new ProblemError(createProblem("notImplemented", `The operation ${operationId} is not implemented.`));
}

/**
 * The 503 problem of a server that cannot answer for now (its database is away, say), with
 * `Retry-After`: thrown by a handler or a hook, it is answered at once rather than after a wait.
 */
export function serviceUnavailable(detail: string, retryAfterSeconds: number): ProblemError {
  return new ProblemError(createProblem("unavailable", detail), {
    "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
}

/** The answer of a problem, whatever the transport: its status, the problem media type and the JSON body. */
export function problemOutcome(problem: ProblemDetails, headers?: Readonly<Record<string, string>>): Outcome {
  return { status: problem.status, headers, contentType: PROBLEM_MEDIA_TYPE, body: JSON.stringify(problem) };
}
