/** The typed client: `createClient`, its options and the errors it throws. */
export { Client, createClient, type ClientOptions } from "./client.js";
export type { BasicCredentials } from "./auth.js";
export type { Bytes, FileInput, NamedFile, RawBody, WithFiles } from "./body.js";
export {
  ApiError,
  ApiNetworkError,
  ApiTimeoutError,
  RequestValidationError,
  ResponseValidationError,
  type ProblemDetails,
  type RequestIssue,
  type RequestPart,
} from "./errors.js";
export type { CallOptions, FetchFunction, NoArgs, TransportOptions } from "./runtime.js";
export type { RetryOptions } from "./transport.js";
