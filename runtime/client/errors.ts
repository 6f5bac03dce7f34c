/**
 * The errors the client throws. Each is `instanceof`-checkable, names the operation it came from
 * and has a readable message ("createVenue: 400 Bad Request: /name must be at most 150 characters").
 * Their fields are declared and set by the constructors, which set every one: a field declaration
 * would be code in every page that bundles the client.
 */
import type { ValidationError } from "../validators/types.js";

/** An RFC 9457 problem body (`application/problem+json`), as far as the client reads it. */
export interface ProblemDetails {
  readonly type?: string;
  readonly title?: string;
  readonly status?: number;
  readonly detail?: string;
  readonly instance?: string;
  readonly errors?: readonly { readonly message?: string; readonly [member: string]: unknown }[];
  readonly [member: string]: unknown;
}

/** The part of a request a validation error is about. */
export type RequestPart = "path" | "query" | "header" | "cookie" | "body";

/** A request validation error: the validator's error and the part of the request it is about. */
export interface RequestIssue extends ValidationError {
  readonly in: RequestPart;
}

/** The server answered with a status that is not 2xx. */
export class ApiError extends Error {
  /** what an `UnexpectedError` of this error is (its `kind`) */
  static readonly kind: UnexpectedKind = "status";
  override readonly name = "ApiError";
  /** the HTTP status */
  declare readonly status: number;
  /** the operation that was called */
  declare readonly operationId: string;
  /** the answer's body: parsed when it is JSON, text otherwise, undefined when empty */
  declare readonly body: unknown;
  /** the body when it is a JSON object (a problem+json answer) */
  declare readonly problem: ProblemDetails | undefined;
  /** the raw answer (its body already read) */
  declare readonly response: Response;

  constructor(operationId: string, response: Response, body: unknown) {
    const problem = asProblem(body);
    super(describeAnswer(operationId, response, problem, body));
    this.status = response.status;
    this.operationId = operationId;
    this.body = body;
    this.problem = problem;
    this.response = response;
  }
}

/** The call took longer than its timeout; `cause` is what the aborted fetch threw. */
export class ApiTimeoutError extends Error {
  static readonly kind: UnexpectedKind = "timeout";
  override readonly name = "ApiTimeoutError";
  declare readonly operationId: string;
  /** the timeout that expired */
  declare readonly timeoutMs: number;

  constructor(operationId: string, timeoutMs: number, cause: unknown) {
    super(`${operationId}: no complete answer within ${timeoutMs} ms`, { cause });
    this.operationId = operationId;
    this.timeoutMs = timeoutMs;
  }
}

/** The request could not be sent or its answer not received; `cause` is what fetch threw. */
export class ApiNetworkError extends Error {
  static readonly kind: UnexpectedKind = "network";
  override readonly name = "ApiNetworkError";
  declare readonly operationId: string;

  constructor(operationId: string, cause: unknown) {
    super(`${operationId}: network failure: ${reasonOf(cause)}`, { cause });
    this.operationId = operationId;
  }
}

/**
 * The request breaks the contract; nothing was sent (of a body of items, the items before the one
 * that broke it, the upload then cut short). `errors` lists every failure.
 */
export class RequestValidationError extends Error {
  static readonly kind: UnexpectedKind = "request";
  override readonly name = "RequestValidationError";
  declare readonly operationId: string;
  declare readonly errors: readonly RequestIssue[];

  constructor(operationId: string, errors: readonly RequestIssue[]) {
    super(`${operationId}: invalid request: ${listIssues(errors.map((e) => `${e.in} ${e.message}`))}`);
    this.operationId = operationId;
    this.errors = errors;
  }
}

/** The server's answer breaks the contract (checked with `validateResponses`). */
export class ResponseValidationError extends Error {
  static readonly kind: UnexpectedKind = "response";
  override readonly name = "ResponseValidationError";
  declare readonly operationId: string;
  declare readonly status: number;
  declare readonly errors: readonly ValidationError[];
  /** the answer's body as received */
  declare readonly body: unknown;
  declare readonly response: Response;

  constructor(operationId: string, response: Response, errors: readonly ValidationError[], body: unknown) {
    super(`${operationId}: invalid ${response.status} answer: ${listIssues(errors.map((e) => e.message))}`);
    this.operationId = operationId;
    this.status = response.status;
    this.errors = errors;
    this.body = body;
    this.response = response;
  }
}

/** What an `UnexpectedError` stands for: a network failure, a timeout, a request or answer breaking the contract, or an error status the operation does not declare. */
export type UnexpectedKind = "network" | "timeout" | "request" | "response" | "status" | "other";

/**
 * A call's failure that is not one of the operation's declared error answers, as the TanStack
 * Query options report it: its `kind`, and the client's error as `cause` (an `ApiNetworkError`,
 * an `ApiTimeoutError`, a `RequestValidationError`, a `ResponseValidationError`, or an `ApiError`
 * of an undeclared status). Its `status` is undefined, so a check of `error.status` narrows a
 * query's error to the declared answers, as they are at run time.
 */
export class UnexpectedError extends Error {
  override readonly name = "UnexpectedError";
  declare readonly operationId: string;
  declare readonly kind: UnexpectedKind;
  /** never a status: see `cause` for an undeclared one */
  declare readonly status: undefined;

  constructor(operationId: string, cause: unknown) {
    super(cause instanceof Error ? cause.message : `${operationId}: ${String(cause)}`, { cause });
    this.operationId = operationId;
    // the kind the class of a client's error declares (its static `kind`), read from the error
    // itself, so that a page without timeouts bundles no `ApiTimeoutError`, which only the
    // timeout policy makes; "other" for any other failure
    this.kind = (cause instanceof Error && (cause.constructor as { kind?: UnexpectedKind }).kind) || "other";
    this.status = undefined;
  }
}

function asProblem(body: unknown): ProblemDetails | undefined {
  return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as ProblemDetails) : undefined;
}

/**
 * "createVenue: 400 Bad Request: /name must be at most 150 characters": the status text (else the
 * problem's title), then the first of the problem's errors' message, its detail, or the first line
 * of a text body (at most 200 characters), where there is one.
 */
function describeAnswer(
  operationId: string,
  response: Response,
  problem: ProblemDetails | undefined,
  body: unknown,
): string {
  const first = Array.isArray(problem?.errors) ? textOf(problem.errors[0]?.message) : undefined;
  const reason = first ?? textOf(problem?.detail) ?? textOf(body)?.trim().split("\n")[0]?.slice(0, 200);
  const statusText = response.statusText || textOf(problem?.title);
  return `${operationId}: ${response.status}${statusText ? ` ${statusText}` : ""}${reason ? `: ${reason}` : ""}`;
}

/** A value that is a string, else undefined. */
function textOf(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** The first message, and how many more there are. */
function listIssues(messages: readonly string[]): string {
  return (messages[0] ?? "unknown error") + (messages.length > 1 ? ` (and ${messages.length - 1} more)` : "");
}

/** A network failure's reason: the error's message, with its own cause's. */
function reasonOf(cause: unknown): string {
  return cause instanceof Error
    ? cause.message + (cause.cause instanceof Error ? `: ${cause.cause.message}` : "")
    : String(cause);
}
