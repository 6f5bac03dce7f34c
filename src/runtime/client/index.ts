/** The typed client: `createClient`, its options and the errors it throws. */

export type { BasicCredentials } from "./auth.js";
export type { Bytes, FileInput, NamedFile, RawBody, WithFiles } from "./body.js";
export { Client, type ClientOptions, createClient, type ErrorAnswers } from "./client.js";
export {
  ApiError,
  ApiNetworkError,
  ApiTimeoutError,
  type ProblemDetails,
  type RequestIssue,
  type RequestPart,
  RequestValidationError,
  ResponseValidationError,
} from "./errors.js";
export type { CallOptions, FetchFunction, NoArgs, TransportOptions } from "./runtime.js";
export type { RetryOptions } from "./transport.js";
export { type ApiErrorOf, isApiError } from "./typed-errors.js";
