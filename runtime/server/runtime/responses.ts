/**
 * Answers. A handler's `{ status, body, headers }` is sent with a media type the operation
 * declares for that status (JSON first, or the one its "content-type" header names), serialised
 * once: JSON with `JSON.stringify`, text and bytes as they are. With response checks on
 * (development and test), the answer is first checked against the contract: a declared status, a
 * declared media type, and a body valid against the response validator. A mismatch is a 500
 * problem and one log line naming the operation, the status and the first error.
 */
import { mediaTypeEssence } from "../../media-types.js";
import type { Route, RouteContent, Validator } from "../../route-types.js";
import { failureOutcome } from "./errors.js";
import type { Outcome, ServerRequest } from "./exchange.js";
import {
  type BatchCheck,
  isJsonStream,
  type JsonStream,
  JsonStreamError,
  openJsonStream,
  PreparedJson,
} from "./json-stream.js";
import { createProblem, problemOutcome } from "./problems.js";
import { isItems, itemsOutcome } from "./streams.js";
import type { ResponseHeaders } from "./types.js";

/**
 * Decides what answers a handler's answer (after checking it, when checks are on): the transport
 * writes the outcome. A streamed body is decided once its first batch is read and checked, so its
 * outcome comes as a promise; its body is then the text still to come, which the transport writes
 * as it is read.
 */
export type Responder = (answer: unknown, request: ServerRequest) => Outcome | Promise<Outcome>;

interface AnswerLike {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: ResponseHeaders;
}

/** The declared response a status falls under: its contents, the one sent by default, its validator. */
interface DeclaredResponse {
  readonly contents: readonly RouteContent[];
  /** the content sent when the answer names none: the first JSON one, else the first */
  readonly preferred: RouteContent | undefined;
  readonly validator: Validator | undefined;
}

const FALLBACK_TYPES: Readonly<Record<string, string>> = {
  json: "application/json",
  text: "text/plain",
  form: "application/x-www-form-urlencoded",
};
const JSON_TYPE = "application/json; charset=utf-8";
const CONTENT_TYPES = new WeakMap<RouteContent, string>();

/**
 * The responder of a route. An operation that declares no response at all (OpenAPI 3.1 allows
 * that) says nothing its answers could break: they are sent unchecked.
 */
export function compileResponder(route: Route, checks: boolean, operation: string): Responder {
  const lookup = compileLookup(route);
  const check = checks && Object.keys(route.responses).length > 0;
  return (answer, request) => {
    if (!isAnswer(answer)) {
      request.log.error(`handler of ${operation} returned no { status, body } answer`);
      return problemOutcome(createProblem("internal", "The server failed to answer this request."));
    }
    const declared = lookup(answer.status);
    const content = answer.headers === undefined ? declared?.preferred : pickContent(declared, answer.headers);
    if (content?.sequence !== undefined && isItems(answer.body))
      return itemsOutcome(
        { ...answer, body: answer.body },
        route,
        { ...content, sequence: content.sequence },
        check,
        operation,
        request,
      );
    if (isJsonStream(answer.body))
      return streamOutcome(answer as AnswerLike & { body: JsonStream }, declared, content, check, operation, request);
    const mismatch = check ? findMismatch(declared, content, answer) : undefined;
    if (mismatch === undefined) return outcomeOf(answer, content);
    return refuseAnswer(operation, answer.status, mismatch, request);
  };
}

/** The 500 answer to an answer that does not match the contract, logged with why. */
function refuseAnswer(operation: string, status: number, mismatch: string, request: ServerRequest): Outcome {
  request.log.error(`response validation failed: ${operation} answered ${status}: ${mismatch}`);
  const detail = `The answer of ${operation} (status ${status}) does not match the contract: ${mismatch}`;
  return problemOutcome(createProblem("responseValidation", detail));
}

/**
 * The answer of a `JsonStream` body (./json-stream.ts): its first batch is read and checked before
 * the status is decided; the rest is written as it is read. A later batch that fails its check, or
 * a source that fails, ends the response early (logged), so the body a client receives is cut
 * short, never invalid.
 */
async function streamOutcome(
  answer: AnswerLike & { body: JsonStream },
  declared: DeclaredResponse | undefined,
  content: RouteContent | undefined,
  check: boolean,
  operation: string,
  request: ServerRequest,
): Promise<Outcome> {
  const mismatch = !check
    ? undefined
    : declared === undefined
      ? "the status is not declared"
      : content?.kind !== "json"
        ? "the content-type of a streamed body is not a declared JSON one"
        : undefined;
  if (mismatch !== undefined) return refuseAnswer(operation, answer.status, mismatch, request);
  let chunks: AsyncIterable<string>;
  try {
    chunks = await openJsonStream(answer.body, check ? batchCheck(declared?.validator) : undefined);
  } catch (error) {
    if (error instanceof JsonStreamError) return refuseAnswer(operation, answer.status, error.message, request);
    return failureOutcome(error, request);
  }
  const headers = answer.headers;
  const contentType =
    headers === undefined || headerValue(headers, "content-type") === undefined ? contentTypeOf(content) : undefined;
  return { status: answer.status, headers, contentType, body: logFailure(chunks, operation, answer.status, request) };
}

function batchCheck(validator: Validator | undefined): BatchCheck | undefined {
  if (validator === undefined) return undefined;
  return (envelope) => {
    const result = validator(envelope);
    return result.valid ? undefined : (result.errors[0]?.message ?? "the body is not valid");
  };
}

/** The chunks of a stream, with a failure logged (naming the operation) before the response is cut. */
async function* logFailure(
  chunks: AsyncIterable<string>,
  operation: string,
  status: number,
  request: ServerRequest,
): AsyncGenerator<string> {
  try {
    yield* chunks;
  } catch (error) {
    const written = error instanceof JsonStreamError ? error.written : 0;
    request.log.error(
      { err: error },
      `streamed answer of ${operation} (status ${status}) cut short after ${written} items: ${error instanceof Error ? error.message : String(error)}`,
    );
    throw error;
  }
}

/** The declared response of a status (exact, then its class "4XX", then "default"), cached by status. */
function compileLookup(route: Route): (status: number) => DeclaredResponse | undefined {
  const cache = new Map<number, DeclaredResponse | null>();
  const at = (key: string): DeclaredResponse | undefined => {
    if (!Object.hasOwn(route.responses, key)) return undefined;
    const contents = route.responses[key] ?? [];
    const validator = Object.hasOwn(route.validators.responses, key) ? route.validators.responses[key] : undefined;
    return { contents, preferred: contents.find((content) => content.kind === "json") ?? contents[0], validator };
  };
  return (status) => {
    const known = cache.get(status);
    if (known !== undefined) return known ?? undefined;
    const found = at(String(status)) ?? at(`${Math.trunc(status / 100)}XX`) ?? at("default");
    if (cache.size < 1000) cache.set(status, found ?? null);
    return found;
  };
}

function isAnswer(value: unknown): value is AnswerLike {
  if (typeof value !== "object" || value === null) return false;
  const status = (value as { status?: unknown }).status;
  return typeof status === "number" && Number.isInteger(status) && status >= 100 && status <= 599;
}

/** The declared content the answer's "content-type" header names, or the preferred one. */
function pickContent(declared: DeclaredResponse | undefined, headers: ResponseHeaders): RouteContent | undefined {
  const wanted = headerValue(headers, "content-type");
  if (wanted === undefined) return declared?.preferred;
  return declared?.contents.find((content) => mediaTypeEssence(content.mediaType) === mediaTypeEssence(wanted));
}

function findMismatch(
  declared: DeclaredResponse | undefined,
  content: RouteContent | undefined,
  answer: AnswerLike,
): string | undefined {
  if (declared === undefined) return "the status is not declared";
  if (declared.contents.length === 0) return answer.body === undefined ? undefined : "the response declares no body";
  if (content === undefined) return "the content-type is not declared for this status";
  if (content.kind !== "json" || declared.validator === undefined) return undefined;
  const validator = declared.validator;
  const run = (value: unknown): string | undefined => {
    const result = validator(value);
    return result.valid ? undefined : (result.errors[0]?.message ?? "the body is not valid");
  };
  return answer.body instanceof PreparedJson ? answer.body.verdict(validator, run) : run(answer.body);
}

/** The answer as sent: the handler's headers, the Content-Type (unless they name one) and the body serialised. */
function outcomeOf(answer: AnswerLike, content: RouteContent | undefined): Outcome {
  const headers = answer.headers;
  if (answer.body === undefined) return { status: answer.status, headers, contentType: undefined, body: undefined };
  const contentType =
    headers === undefined || headerValue(headers, "content-type") === undefined ? contentTypeOf(content) : undefined;
  return { status: answer.status, headers, contentType, body: serialize(content?.kind ?? "json", answer.body) };
}

/**
 * The Content-Type header of a content, worked out once per content: its media type (a fallback
 * for a range), with "; charset=utf-8" added to a JSON type as Fastify would add it on every send.
 */
function contentTypeOf(content: RouteContent | undefined): string {
  if (content === undefined) return JSON_TYPE;
  let header = CONTENT_TYPES.get(content);
  if (header === undefined) {
    const mediaType = content.mediaType.includes("*")
      ? (FALLBACK_TYPES[content.kind] ?? "application/octet-stream")
      : content.mediaType;
    header = mediaType.includes("json") && !mediaType.includes("charset") ? `${mediaType}; charset=utf-8` : mediaType;
    CONTENT_TYPES.set(content, header);
  }
  return header;
}

function serialize(kind: RouteContent["kind"], body: unknown): string | Uint8Array {
  if (body instanceof Uint8Array) return body;
  if (body instanceof PreparedJson) return body.bytes;
  if (kind === "json") return JSON.stringify(body);
  if (typeof body === "string") return body;
  if (kind === "form" && typeof body === "object" && body !== null)
    return new URLSearchParams(body as Record<string, string>).toString();
  return JSON.stringify(body);
}

function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name) return String(headers[key]);
  return undefined;
}
