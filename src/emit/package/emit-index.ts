import type { EmitInput, GeneratedFile } from "../emitter.js";

/**
 * The client's names at the package root, listed one by one (not `export *`): the root also
 * carries every schema's type, so only names the naming authority reserves (RESERVED_TYPE_NAMES)
 * may appear here. The rest of the client stays under `./client/index.js`.
 */
const CLIENT_VALUES = [
  "ApiError",
  "ApiNetworkError",
  "ApiTimeoutError",
  "checkingAnswers",
  "Client",
  "createBaseClient",
  "createClient",
  "isApiError",
  "RequestValidationError",
  "ResponseValidationError",
  "retrying",
  "timingOut",
  "UnexpectedError",
];
const CLIENT_TYPES = [
  "AnswerCheck",
  "ApiErrorOf",
  "BaseClient",
  "BaseClientOptions",
  "CallOptions",
  "ClientOptions",
  "ErrorAnswers",
  "RetryOptions",
  "RetryPolicy",
  "TimeoutPolicy",
  "UnexpectedKind",
];

/** generated/index.ts: the package root, the types, the route table and the client. */
export function emitIndex(_input: EmitInput): GeneratedFile[] {
  const clientNames = [...CLIENT_VALUES, ...CLIENT_TYPES.map((name) => `type ${name}`)].map((name) => `  ${name},`);
  const lines = [
    `export type * from "./types.js";`,
    `export * from "./routes.js";`,
    `export {`,
    ...clientNames,
    `} from "./client/index.js";`,
  ];
  return [{ path: "index.ts", content: `${lines.join("\n")}\n` }];
}
