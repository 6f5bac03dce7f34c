/**
 * Request bodies. The Content-Type selects one of the operation's declared media types (415 when
 * none does); the body is read from the request stream within a byte limit (413) and decoded by
 * its kind: JSON (400 when malformed), a URL-encoded form, text, or bytes.
 *
 * A JSON or form body must be UTF-8 (as RFC 8259 and the URL standard say), its percent-encoded
 * bytes included: one that is not is refused (400, naming the byte offset, or the form field),
 * never decoded with U+FFFD in place of what was sent, which would alter the data silently.
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

const MALFORMED_JSON = "The request body is not well-formed JSON";
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

/** Whether the headers announce bytes of a body: a non-zero Content-Length, or chunks. */
export function carriesContent(request: Pick<IncomingRequest, "headers">): boolean {
  const length = request.headers["content-length"];
  return request.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/** The 415 problem of a body sent to an operation that declares none: it is refused, never read. */
export const UNDECLARED_BODY = createProblem(
  "unsupportedMediaType",
  "This operation takes no request body; send the request without one.",
);

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
  if (kind === "form") return raw.length === 0 ? undefined : parseStrictForm(raw);
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

/** Decodes UTF-8 and throws on a malformed sequence (a byte order mark is kept, and JSON refuses it). */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Bytes as UTF-8 text, or a 400 problem naming the offset of the first byte that is not UTF-8.
 * `what` names the bytes in the problem: "The request body", "The form field \"note\"".
 */
export function strictUtf8Text(bytes: Uint8Array, what = "The request body"): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw new ProblemError(notUtf8(bytes, what));
  }
}

function notUtf8(bytes: Uint8Array, what: string): ProblemDetails {
  const at = firstMalformed(bytes);
  const byte = `0x${(bytes[at] ?? 0).toString(16).padStart(2, "0")}`;
  return createProblem(
    "malformedBody",
    `${what} is not valid UTF-8: the byte at offset ${at} (${byte}) starts no well-formed UTF-8 character; send the text encoded as UTF-8.`,
  );
}

/**
 * The offset of the first byte that does not start a well-formed UTF-8 character (the table of
 * well-formed sequences of the Unicode standard, 3.9: no overlong forms, no surrogates, nothing
 * above U+10FFFF), or the length when every byte does.
 */
export function firstMalformed(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const form = SEQUENCES.find(([first, last]) => lead >= first && lead <= last);
    if (form === undefined) return i;
    const [, , length, low, high] = form;
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) return i;
    }
    i += length;
  }
  return i;
}

/** Well-formed sequences: lead bytes from, to; length; the range of the second byte (the others are 0x80 to 0xbf). */
const SEQUENCES: readonly (readonly [number, number, number, number, number])[] = [
  [0xc2, 0xdf, 2, 0x80, 0xbf],
  [0xe0, 0xe0, 3, 0xa0, 0xbf],
  [0xe1, 0xec, 3, 0x80, 0xbf],
  [0xed, 0xed, 3, 0x80, 0x9f],
  [0xee, 0xef, 3, 0x80, 0xbf],
  [0xf0, 0xf0, 4, 0x90, 0xbf],
  [0xf1, 0xf3, 4, 0x80, 0xbf],
  [0xf4, 0xf4, 4, 0x80, 0x8f],
];

/**
 * A URL-encoded form whose bytes, and whose percent-encoded bytes, are UTF-8. URLSearchParams
 * decodes `%FF` as U+FFFD; a field holding such an escape is refused, by name.
 */
function parseStrictForm(raw: Uint8Array): Record<string, unknown> {
  const text = strictUtf8Text(raw);
  if (text.includes("%"))
    for (const field of text.split("&")) {
      for (const escapes of field.match(/(?:%[0-9A-Fa-f]{2})+/g) ?? []) {
        try {
          decodeURIComponent(escapes);
        } catch {
          const name = new URLSearchParams(field).keys().next().value ?? "";
          throw new ProblemError(
            createProblem(
              "malformedBody",
              `The form field ${JSON.stringify(name)} is not valid UTF-8 once percent-decoded (${escapes}): percent-encode its text as UTF-8.`,
            ),
          );
        }
      }
    }
  return parseForm(text);
}

function parseJson(raw: Uint8Array): unknown {
  let value: unknown;
  const text = strictUtf8Text(raw);
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProblemError(createProblem("malformedBody", malformedJson(text)));
  }
  // Each level takes two bytes at least, so a shorter body cannot be too deep.
  if (raw.length > 2 * MAX_JSON_DEPTH && nestedDeeperThan(raw, MAX_JSON_DEPTH)) throw new ProblemError(TOO_DEEP);
  return value;
}

/**
 * What is wrong with JSON text that does not parse, and where, by line and column (columns count
 * UTF-16 code units from 1): JSON.parse's own messages differ between Node versions, and some
 * give no position at all.
 */
export function malformedJson(text: string): string {
  const offset = jsonErrorOffset(text);
  if (offset < 0) return `${MALFORMED_JSON}.`;
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  if (offset >= text.length)
    return `${MALFORMED_JSON}: it ends at line ${line}, column ${column}, before the JSON value does.`;
  const code = text.codePointAt(offset) ?? 0;
  const found =
    code < 0x20
      ? `control character U+${hex(code)}`
      : code < 0x7f
        ? `character ${JSON.stringify(String.fromCharCode(code))}`
        : `character U+${hex(code)}`;
  return `${MALFORMED_JSON}: unexpected ${found} at line ${line}, column ${column}.`;
}

function hex(code: number): string {
  return code.toString(16).toUpperCase().padStart(4, "0");
}

const JSON_NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const JSON_ESCAPE = /\\(?:["\\/bfnrt]|u[0-9A-Fa-f]{4})/y;

/**
 * The offset at which JSON text stops being well-formed (its length when it ends too early), or
 * -1 when it is well-formed. Iterative, with a stack of the closers expected, so any depth of
 * nesting is scanned without recursion.
 */
export function jsonErrorOffset(text: string): number {
  const closers: number[] = [];
  let i = 0;
  const skip = (): void => {
    for (let c = text.charCodeAt(i); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = text.charCodeAt(++i));
  };
  /** a string at i: answers whether it is well-formed, leaving i after it or at the fault */
  const string = (): boolean => {
    if (text.charCodeAt(i) !== 0x22) return false;
    for (i++; i < text.length; ) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c !== 0x5c) i++;
      else {
        JSON_ESCAPE.lastIndex = i;
        if (!JSON_ESCAPE.test(text)) return false;
        i = JSON_ESCAPE.lastIndex;
      }
    }
    return false;
  };
  /** a member's name and colon, leaving i at its value */
  const key = (): boolean => {
    skip();
    if (!string()) return false;
    skip();
    if (text.charCodeAt(i) !== 0x3a) return false;
    i++;
    return true;
  };
  for (;;) {
    skip();
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      i++;
      skip();
      const closer = c === 0x7b ? 0x7d : 0x5d;
      if (text.charCodeAt(i) !== closer) {
        closers.push(closer);
        if (closer === 0x7d && !key()) return i;
        continue;
      }
      i++;
    } else if (c === 0x22) {
      if (!string()) return i;
    } else {
      const literal = ["true", "false", "null"].find((word) => text.startsWith(word, i));
      if (literal !== undefined) i += literal.length;
      else {
        JSON_NUMBER.lastIndex = i;
        if (!JSON_NUMBER.test(text)) return i;
        i = JSON_NUMBER.lastIndex;
      }
    }
    // after a value: commas and closers until the next value
    for (;;) {
      skip();
      const closer = closers.at(-1);
      if (closer === undefined) return i < text.length ? i : -1;
      const next = text.charCodeAt(i);
      if (next === closer) {
        i++;
        closers.pop();
      } else if (next === 0x2c) {
        i++;
        if (closer === 0x7d && !key()) return i;
        break;
      } else return i;
    }
  }
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
