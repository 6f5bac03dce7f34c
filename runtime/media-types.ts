/**
 * The media-type rule, one for the generator, the client and the server: a media type's essence,
 * and how a body of that type travels (which decides how it is sent, parsed and validated).
 */
import type { BodyKind, SequenceKind } from "./route-types.js";

/** "Application/Problem+JSON; charset=utf-8" → "application/problem+json". */
export function mediaTypeEssence(mediaType: string): string {
  const end = mediaType.indexOf(";");
  return (end === -1 ? mediaType : mediaType.slice(0, end)).trim().toLowerCase();
}

/**
 * Whether a body of a media type travels as JSON: application/json, text/json, or any "+json" type
 * (its essence, `mediaTypeEssence`'s, read by one expression: a client page bundles no more).
 */
export function isJsonMediaType(mediaType: string): boolean {
  return JSON_ESSENCE.test(mediaType);
}

/** The essence of a JSON media type: the text before any ";", blanks around it, letters in any case. */
const JSON_ESSENCE = /^(?:\s*(?:application|text)\/json|[^;]*\+json)\s*(?:;|$)/i;

/** How a body of a media type travels: "application/vnd.api+json; charset=utf-8" → "json". */
export function bodyKindOf(mediaType: string): BodyKind {
  const essence = mediaTypeEssence(mediaType);
  if (isJsonMediaType(essence)) return "json";
  if (essence.startsWith("multipart/")) return "multipart";
  if (essence === "application/x-www-form-urlencoded") return "form";
  if (essence.startsWith("text/")) return "text";
  return "binary";
}

/**
 * How a sequence of items travels in a media type (an OpenAPI 3.2 `itemSchema`): server-sent
 * events, JSON Lines (`application/jsonl`, `application/x-ndjson`), JSON text sequences (RFC 7464),
 * the parts of `multipart/mixed`; undefined for a media type that is not one of these.
 */
export function sequenceOf(mediaType: string): SequenceKind | undefined {
  const essence = mediaTypeEssence(mediaType);
  if (essence === "text/event-stream") return "sse";
  if (essence === "application/jsonl" || essence === "application/x-ndjson" || essence === "application/x-jsonlines")
    return "jsonl";
  if (essence === "application/json-seq") return "json-seq";
  if (essence === "multipart/mixed") return "multipart";
  return undefined;
}
