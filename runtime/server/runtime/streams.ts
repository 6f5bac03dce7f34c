/**
 * Answers that are sequences of items (an OpenAPI 3.2 `itemSchema`): a handler answers an async
 * iterable (or any iterable) of items for a response declared as server-sent events, JSON Lines,
 * JSON text sequences or multipart/mixed (a part each, the boundary new for each answer), and
 * each item is framed and written as it comes, so the client reads it at once. With response
 * checks on, each item is checked before it is written (an event's `data` decoded, when it is
 * JSON, against its `contentSchema`); one that fails, or a handler's iterator that throws, ends
 * the response where it is (logged), so a client never reads an item that breaks the contract. A media type that declares a `schema` beside its `itemSchema` has the items
 * checked as a whole (the list of them, as sent) once the handler's items end: a failure ends the
 * response without its normal end, as a failed item does. When the client goes away, the
 * handler's iterator is closed (its `return`, so a generator's `finally` runs) and no more items
 * are asked of it.
 */
import type { Route, RouteContent, SequenceKind, Validator } from "../../route-types.js";
import {
  encodingAt,
  eventData,
  partValue,
  type SequenceWriter,
  sequenceWriter,
  withBoundary,
} from "../../sequences.js";
import type { Outcome, ServerRequest } from "./exchange.js";
import type { ResponseHeaders } from "./types.js";

/** A server-sent event as a handler answers it: `data` as text, or a value sent as JSON. */
export interface ServerSentEventItem<D = unknown> {
  readonly event?: string;
  readonly data: D;
  readonly id?: string;
  readonly retry?: number;
}

/** The items of an answer: async or not (a generator, a list, a database cursor). */
export type Items<T> = AsyncIterable<T> | Iterable<T>;

/** Whether an answer's body is items to stream (a string is text, never items). */
export function isItems(body: unknown): body is Items<unknown> {
  return (
    typeof body === "object" &&
    body !== null &&
    !(body instanceof Uint8Array) &&
    (Symbol.asyncIterator in body || Symbol.iterator in body)
  );
}

/** An item that breaks the contract, or cannot be framed. */
class ItemError extends Error {
  override readonly name = "ItemError";
}

/** The outcome of an answer whose body is items, for a declared content that is a sequence. */
export function itemsOutcome(
  answer: { readonly status: number; readonly body: Items<unknown>; readonly headers?: ResponseHeaders },
  route: Route,
  content: RouteContent & { readonly sequence: SequenceKind },
  check: boolean,
  operation: string,
  request: ServerRequest,
): Outcome {
  const status = String(answer.status);
  const range = `${status[0]}XX`;
  const pick = (byStatus: Readonly<Record<string, Readonly<Record<string, Validator>>>> | undefined) =>
    check ? (byStatus?.[status] ?? byStatus?.[range] ?? byStatus?.["default"])?.[content.mediaType] : undefined;
  const validators = {
    item: pick(route.validators.items),
    data: pick(route.validators.itemData),
    whole: pick(route.validators.sequences),
  };
  const writer = sequenceWriter(content.sequence, content.parts);
  const frames = framed(answer.body, { ...content, writer }, validators, (written, error) =>
    request.log.error(
      { err: error },
      `streamed answer of ${operation} (status ${answer.status}) cut short after ${written} items: ${error instanceof Error ? error.message : String(error)}`,
    ),
  );
  const sse = content.sequence === "sse";
  return {
    status: answer.status,
    headers: sse ? { "cache-control": "no-cache", ...answer.headers } : answer.headers,
    contentType: content.mediaType.includes("*") ? undefined : withBoundary(content.mediaType, writer.boundary),
    body: frames,
  };
}

/** Each item framed as its sequence writes it, checked first; a failure is logged, then ends the body. */
async function* framed(
  items: Items<unknown>,
  content: RouteContent & { readonly sequence: SequenceKind; readonly writer: SequenceWriter },
  validators: ItemValidators,
  logFailure: (written: number, error: unknown) => void,
): AsyncGenerator<string | Uint8Array> {
  const { sequence, writer } = content;
  let written = 0;
  // the items as sent, when the media type's `schema` checks them as a whole once they end
  const whole: unknown[] | undefined = validators.whole === undefined ? undefined : [];
  try {
    // a for-of over the handler's iterator: leaving it early (the client gone) closes that iterator
    for await (const item of items) {
      // a multipart/mixed part's body is what its schema describes, bytes aside (no JSON Schema checks them)
      const part = sequence === "multipart" ? partValue(item, encodingAt(content.parts, written)) : undefined;
      if (part === undefined) checkItem(item, sequence, validators);
      else if (!part.bytes) check(validators.item, part.body);
      yield await writer.item(item);
      whole?.push(part === undefined ? asSent(item, sequence) : part.body);
      written++;
    }
    if (whole !== undefined) check(validators.whole, whole, "the items as a whole do not match the contract");
    const end = writer.end();
    if (end !== "") yield end;
  } catch (error) {
    logFailure(written, error);
    throw error;
  }
}

/** The validators of a sequence's items: each item's, an event's JSON `data`'s, and the whole's. */
interface ItemValidators {
  readonly item: Validator | undefined;
  readonly data: Validator | undefined;
  readonly whole: Validator | undefined;
}

/** An item as the client reads it before decoding: an event's `data` as text. */
function asSent(item: unknown, sequence: SequenceKind): unknown {
  if (sequence !== "sse" || typeof item !== "object" || item === null || !("data" in item)) return item;
  return { ...item, data: eventData(item.data) };
}

function checkItem(item: unknown, sequence: SequenceKind, validators: ItemValidators): void {
  if (sequence !== "sse") check(validators.item, item);
  else if (typeof item === "object" && item !== null && "data" in item) {
    const event = item as ServerSentEventItem;
    if (typeof event.data !== "string") check(validators.data, event.data);
    check(validators.item, { ...event, data: eventData(event.data) });
  }
}

function check(validator: Validator | undefined, value: unknown, what = "an item does not match the contract"): void {
  const result = validator?.(value);
  if (result !== undefined && !result.valid) throw new ItemError(`${what}: ${result.errors[0]?.message ?? "invalid"}`);
}
