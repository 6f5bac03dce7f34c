/**
 * The server: a Fastify 5 plugin (registerRoutes), buildServer, the Handlers interface, stub and
 * mock handlers, and the problem and authentication helpers. fastify and @fastify/multipart are
 * peer dependencies of this entry point only.
 */
export { type BuildServerOptions, buildServer, DEFAULT_REQUEST_TIMEOUT } from "./app.js";
export type { Handlers, HandlerTypes } from "./handlers.js";
export { createMockHandlers, mockAnswers } from "./mock.js";
export { DEFAULT_BODY_LIMIT, DEFAULT_FILE_SIZE_LIMIT, registerRoutes, type ServerOptions } from "./plugin.js";
export type { MockAnswer } from "./runtime/answers.js";
export { DOCS_PATH, type ReferenceDocument, registerDocs } from "./runtime/docs.js";
export type { ServerRequest } from "./runtime/exchange.js";
export { type Batches, JsonStream, type JsonStreamParts, PreparedJson, prepareJson, streamJson, streamJsonArray } from "./runtime/json-stream.js";
export { createKeyAuthenticator } from "./runtime/key-authenticator.js";
export {
  createProblem,
  notImplemented,
  PROBLEM_MEDIA_TYPE,
  PROBLEM_TYPES,
  type ProblemDetails,
  ProblemError,
  type ProblemKind,
  serviceUnavailable,
  type ValidationIssue,
} from "./runtime/problems.js";
export { createRefusals, DEFAULT_MAX_PARAM_LENGTH, type Refusals } from "./runtime/refusals.js";
export type { AuthDenial, Authenticate, AuthResult } from "./runtime/security.js";
export type { Handler, HandlerInput, HandlerResult, NoInput, PrincipalOf, ResponseHeaders, StatusRange, UploadedFile, WithFiles } from "./runtime/types.js";
export { createStubHandlers } from "./stubs.js";
