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
/// <reference types="node" />
import type { Readable } from "node:stream";
import type { FastifyRequest } from "fastify";
import { mediaTypeEssence } from "../../media-types.js";
import type { BodyKind, RouteContent } from "../../route-types.js";
import { parseForm } from "./form.js";
import { createProblem, type ProblemDetails, ProblemError } from "./problems.js";

/** Picks the declared content a Content-Type header selects, if any. */
export type ContentMatcher = (header: string) => RouteContent | undefined;

/** Called once the body is read: a problem (413, unreadable), or the bytes. */
export type BodyCallback = (problem: ProblemDetails | undefined, body: Buffer) => void;

const NO_BYTES = Buffer.alloc(0);
const MALFORMED_JSON = createProblem("malformedBody", "The request body is not well-formed JSON.");
/** The deepest nesting of arrays and objects a JSON body may have. */
export const MAX_JSON_DEPTH = 1000;
const TOO_DEEP = createProblem("malformedBody", `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`);
const UNREADABLE = createProblem("malformedBody", "The request body could not be read.");

/** Matches exact media types first, then ranges the spec declares ("image/*", "*\/*"). */
export function compileContentMatcher(contents: readonly RouteContent[]): ContentMatcher {
  const exact = new Map(contents.map((content) => [content.mediaType, content] as const));
  const byEssence = contents.map((content) => ({ essence: mediaTypeEssence(content.mediaType), content }));
  const find = (essence: string): RouteContent | undefined => byEssence.find((entry) => entry.essence === essence)?.content;
  return (header) => {
    const hit = exact.get(header);
    if (hit !== undefined) return hit;
    const essence = mediaTypeEssence(header);
    return find(essence) ?? find(`${essence.slice(0, essence.indexOf("/"))}/*`) ?? find("*/*");
  };
}

/** Whether the request carries a body: a Content-Type, a non-zero Content-Length, or chunks. */
export function hasBody(request: FastifyRequest): boolean {
  const headers = request.headers;
  if (headers["content-type"] !== undefined || headers["transfer-encoding"] !== undefined) return true;
  const length = headers["content-length"];
  return length !== undefined && length !== "0";
}

/** The 415 problem, naming what the operation accepts. */
export function unsupportedMediaType(header: string | undefined, contents: readonly RouteContent[]): ProblemDetails {
  const accepted = contents.map((content) => content.mediaType).join(" or ");
  if (header === undefined) return createProblem("unsupportedMediaType", `A Content-Type header is required; use ${accepted}.`);
  return createProblem("unsupportedMediaType", `Content-Type ${mediaTypeEssence(header)} is not accepted; use ${accepted}.`);
}

/** The 413 problem of a body over the limit. */
export function tooLarge(limit: number): ProblemDetails {
  return createProblem("payloadTooLarge", `The request body is larger than ${limit} bytes.`);
}

/**
 * Reads the body (which the pass-through content-type parser left unread) up to `limit` bytes.
 * A declared Content-Length over the limit is refused before anything is read (Node then drains
 * the unread body); a body that grows past the limit while read has its rest thrown away.
 */
export function readBody(request: FastifyRequest, limit: number, done: BodyCallback): void {
  if (Number(request.headers["content-length"]) > limit) return done(tooLarge(limit), NO_BYTES);
  const stream: Readable = isReadable(request.body) ? request.body : request.raw;
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  stream.on("data", (chunk: Buffer | string) => {
    if (finished) return;
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size <= limit) return void chunks.push(bytes);
    finished = true;
    discardRest(request);
    done(tooLarge(limit), NO_BYTES);
  });
  stream.on("end", () => {
    if (finished) return;
    finished = true;
    done(undefined, chunks.length === 1 ? (chunks[0] ?? NO_BYTES) : Buffer.concat(chunks, size));
  });
  stream.on("error", () => {
    if (finished) return;
    finished = true;
    done(UNREADABLE, NO_BYTES);
  });
  stream.resume();
}

/** How long the rest of a refused body may take to arrive (and be thrown away) before the connection is cut. */
const DISCARD_WITHIN_MS = 10_000;

/**
 * Throws away the rest of a body that will not be read (it was refused part-way): the request is
 * detached from any parser and drained, so the client can finish sending and read the answer; a
 * client still sending after DISCARD_WITHIN_MS has its connection cut, so no request lingers.
 */
export function discardRest(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.readableEnded || raw.destroyed) return;
  raw.unpipe();
  raw.removeAllListeners("data");
  const timer = setTimeout(() => raw.destroy(), DISCARD_WITHIN_MS);
  timer.unref();
  raw.once("end", () => clearTimeout(timer));
  raw.once("close", () => clearTimeout(timer));
  raw.resume();
}

/** Decodes a read body by its kind; an empty JSON or form body counts as no body. */
export function decodeBody(kind: BodyKind, raw: Buffer): unknown {
  if (kind === "json") return raw.length === 0 ? undefined : parseJson(raw);
  if (kind === "form") return raw.length === 0 ? undefined : parseForm(raw.toString("utf8"));
  if (kind === "text") return raw.toString("utf8");
  return raw;
}

function parseJson(raw: Buffer): unknown {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString("utf8"));
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

function isReadable(value: unknown): value is Readable {
  return typeof value === "object" && value !== null && typeof (value as { resume?: unknown }).resume === "function";
}
