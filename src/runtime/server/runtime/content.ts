/**
 * Request bodies. The Content-Type selects one of the operation's declared media types (415 when
 * none does); the body is read from the request stream within a byte limit (413) and decoded by
 * its kind: JSON (400 when malformed), a URL-encoded form, text, or bytes.
 *
 * JSON is parsed with plain `JSON.parse`, not Fastify's secure-json-parse: "__proto__" and
 * "constructor" stay ordinary own data keys (which is what JSON means by them), the validators
 * treat them as data, and no body is ever merged into an existing object, so nothing can reach
 * `Object.prototype`. A JSON body nested more than 1000 levels deep is refused (400), wherever the
 * nesting is: the validators stop there too, and deeper values break `JSON.stringify` in a handler.
 */
import { mediaTypeEssence } from "../../media-types.js";
import type { BodyKind, RouteContent } from "../../route-types.js";
import type { IncomingRequest } from "./exchange.js";
import { parseForm } from "./form.js";
import { createProblem, type ProblemDetails, ProblemError } from "./problems.js";

/** Picks the declared content a Content-Type header selects, if any. */
export type ContentMatcher = (header: string) => RouteContent | undefined;

const MALFORMED_JSON = createProblem("malformedBody", "The request body is not well-formed JSON.");
/** The deepest nesting of arrays and objects a JSON body may have. */
export const MAX_JSON_DEPTH = 1000;
const TOO_DEEP = createProblem("malformedBody", `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`);
/** The problem of a body that could not be read (the connection broke, the stream failed). */
export const UNREADABLE = createProblem("malformedBody", "The request body could not be read.");

/** Matches exact media types first, then ranges the spec declares ("image/*", "*\/*"). */
export function compileContentMatcher(contents: readonly RouteContent[]): ContentMatcher {
  const exact = new Map(contents.map((content) => [content.mediaType, content] as const));
  const byEssence = contents.map((content) => ({ essence: mediaTypeEssence(content.mediaType), content }));
  const find = (essence: string): RouteContent | undefined =>
    byEssence.find((entry) => entry.essence === essence)?.content;
  return (header) => {
    const hit = exact.get(header);
    if (hit !== undefined) return hit;
    const essence = mediaTypeEssence(header);
    return find(essence) ?? find(`${essence.slice(0, essence.indexOf("/"))}/*`) ?? find("*/*");
  };
}

/** Whether the request carries a body: a Content-Type, a non-zero Content-Length, or chunks. */
export function hasBody(request: Pick<IncomingRequest, "headers">): boolean {
  const headers = request.headers;
  if (headers["content-type"] !== undefined || headers["transfer-encoding"] !== undefined) return true;
  const length = headers["content-length"];
  return length !== undefined && length !== "0";
}

/** The 415 problem, naming what the operation accepts. */
export function unsupportedMediaType(header: string | undefined, contents: readonly RouteContent[]): ProblemDetails {
  const accepted = contents.map((content) => content.mediaType).join(" or ");
  if (header === undefined)
    return createProblem("unsupportedMediaType", `A Content-Type header is required; use ${accepted}.`);
  return createProblem(
    "unsupportedMediaType",
    `Content-Type ${mediaTypeEssence(header)} is not accepted; use ${accepted}.`,
  );
}

/** The 413 problem of a body over the limit. */
export function tooLarge(limit: number): ProblemDetails {
  return createProblem("payloadTooLarge", `The request body is larger than ${limit} bytes.`);
}

/** Decodes a read body by its kind; an empty JSON or form body counts as no body. */
export function decodeBody(kind: BodyKind, raw: Uint8Array): unknown {
  if (kind === "json") return raw.length === 0 ? undefined : parseJson(raw);
  if (kind === "form") return raw.length === 0 ? undefined : parseForm(utf8Text(raw));
  if (kind === "text") return utf8Text(raw);
  return raw;
}

/** Node's Buffer, where there is one (not in a browser). */
const NodeBuffer = (globalThis as { Buffer?: { isBuffer(value: unknown): boolean } }).Buffer;
/** Decodes as Buffer does: malformed sequences become U+FFFD and a byte order mark is kept. */
const UTF8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** Bytes as UTF-8 text: with Buffer's own decoder for a Buffer, else with TextDecoder (the same text). */
export function utf8Text(bytes: Uint8Array): string {
  return NodeBuffer?.isBuffer(bytes)
    ? (bytes as unknown as { toString(encoding: "utf8"): string }).toString("utf8")
    : UTF8.decode(bytes);
}

function parseJson(raw: Uint8Array): unknown {
  let value: unknown;
  try {
    value = JSON.parse(utf8Text(raw));
  } catch {
    throw new ProblemError(MALFORMED_JSON);
  }
  // Each level takes two bytes at least, so a shorter body cannot be too deep.
  if (raw.length > 2 * MAX_JSON_DEPTH && nestedDeeperThan(raw, MAX_JSON_DEPTH)) throw new ProblemError(TOO_DEEP);
  return value;
}

/** Whether well-formed JSON text nests arrays and objects more than `limit` deep (strings skipped). */
export function nestedDeeperThan(text: Uint8Array, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i];
    if (byte === 0x22) {
      // skip the string: to the next quote that no backslash escapes
      for (i++; i < text.length && text[i] !== 0x22; i++) if (text[i] === 0x5c) i++;
    } else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > limit) return true;
    } else if (byte === 0x5d || byte === 0x7d) depth--;
  }
  return false;
}
