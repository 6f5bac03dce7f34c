/**
 * Answers that are sequences of items (an OpenAPI 3.2 `itemSchema`), read as they arrive: server-
 * sent events as WHATWG's HTML standard parses an event stream, JSON Lines (one JSON text per
 * line), JSON text sequences (RFC 7464: each record starts with RS, U+001E), and the parts of
 * multipart/mixed (RFC 2046). Each item is checked against its schema when answers are checked;
 * one that does not parse or does not match ends the items with a `ResponseValidationError` (the
 * items before it have been yielded), which a failure of the connection (`ApiNetworkError`) or
 * the caller's abort (its reason) is not. A media type that declares a `schema` beside its
 * `itemSchema` has the items checked as a whole (the list of them) once they end: a failure is a
 * `ResponseValidationError` after the last item. Server-sent events reconnect after a dropped connection, sending the last event's id as
 * `Last-Event-ID` and waiting the `retry` the server last gave. Only routes of operations that
 * answer such sequences name this module (`encoders.stream`), so a page without one bundles none.
 */
import type { PartEncoding, PartEncodings, StreamContext, StreamReader, Validator } from "../route-types.js";
import {
  boundaryOf,
  cutShort,
  type EventStreamState,
  encodingAt,
  LineReader,
  type Part,
  PartError,
  PartSplitter,
  partItem,
  partValue,
  pendingEvent,
  RecordSplitter,
  readEventLine,
} from "../sequences.js";
import { ApiNetworkError, ResponseValidationError } from "./errors.js";

/** A server-sent event as the client yields it: `data` decoded when it is JSON. */
export interface ServerSentEvent<D = string> {
  /** the event's type, when the server named one */
  readonly event?: string;
  readonly data: D;
  /** the last event id the stream set, when any */
  readonly id?: string;
  /** the reconnection time this event set, in milliseconds */
  readonly retry?: number;
}

/** The reader every route of a streaming operation names. */
export const streamReader: StreamReader = {
  read(content, response, context) {
    // the items as a whole are checked once they end, when the media type declares a `schema` too
    const whole = context.whole === undefined ? undefined : [];
    if (content.sequence === "sse") return serverSentEvents(response, context, content.mediaType, whole);
    if (content.sequence === "multipart") return partItems(response, context, content.parts, whole);
    return jsonItems(response, context, content.sequence === "json-seq" ? "json-seq" : "jsonl", whole);
  },
};

/** How many times server-sent events reconnect in a row without receiving an event. */
const RECONNECTS = 5;
/** The wait before reconnecting until the server gives a `retry`, in milliseconds (as EventSource's). */
const DEFAULT_RETRY = 1000;

/** The bytes of a body as they arrive; a read failure is the network's (the caller's abort, its reason). */
async function* chunksOf(response: Response, context: StreamContext): AsyncGenerator<Uint8Array> {
  const reader = response.body?.getReader();
  if (reader === undefined) return;
  try {
    for (;;) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await reader.read();
      } catch (error) {
        // the caller's abort is its reason, as for any call; anything else, the network's
        if (context.signal?.aborted === true) throw context.signal.reason;
        throw isAbort(error) ? error : new ApiNetworkError(context.operationId, error);
      }
      if (read.done) break;
      yield read.value;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/** Text chunks of a body as they arrive, decoded as UTF-8 (a leading BOM dropped). */
async function* textOf(response: Response, context: StreamContext): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: false });
  for await (const chunk of chunksOf(response, context)) yield decoder.decode(chunk, { stream: true });
  const rest = decoder.decode();
  if (rest !== "") yield rest;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

/** JSON items of a JSON Lines or JSON text sequence body, each parsed and checked. */
async function* jsonItems(
  response: Response,
  context: StreamContext,
  sequence: "jsonl" | "json-seq",
  whole: unknown[] | undefined,
): AsyncGenerator<unknown> {
  const records = new RecordSplitter(sequence);
  const seq = sequence === "json-seq";
  const kept = (item: unknown): unknown => {
    whole?.push(item);
    return item;
  };
  try {
    for await (const text of textOf(response, context))
      for (const record of records.push(text)) yield kept(checkedJson(record, seq, response, context));
    const last = records.end();
    if (last !== undefined) yield kept(checkedJson(last, false, response, context));
    checkWhole(whole, response, context);
  } finally {
    context.done();
  }
}

/**
 * The parts of multipart/mixed (RFC 2046), an item each, read from their bytes by the Encoding
 * Object of their position (`prefixEncoding`, `itemEncoding`): a JSON part parsed, a text part its
 * text, any other a Blob of its bytes and media type, `{ headers, body }` where the encoding declares
 * headers; a part of a media type its encoding does not take, or without a header it requires, is
 * refused. The boundary is the one the answer's Content-Type names. Parts that end without the
 * close delimiter were cut short: the items before are yielded, then that is a failure to read them.
 */
async function* partItems(
  response: Response,
  context: StreamContext,
  parts: PartEncodings | undefined,
  whole: unknown[] | undefined,
): AsyncGenerator<unknown> {
  try {
    const boundary = boundaryOf(response.headers.get("content-type"));
    if (boundary === undefined) fail(context, response, "multipart", "names no boundary in its Content-Type", "");
    const splitter = new PartSplitter(boundary);
    let index = 0;
    for await (const chunk of chunksOf(response, context))
      for (const part of splitter.push(chunk)) {
        const encoding = encodingAt(parts, index++);
        const item = readPart(part, encoding, response, context);
        const { body, bytes } = partValue(item, encoding);
        if (!bytes) checked(context.item, body, response, context, body);
        whole?.push(body);
        yield item;
      }
    if (!splitter.closed) fail(context, response, "multipart", "ends without its close delimiter (cut short)", "");
    checkWhole(whole, response, context);
  } finally {
    context.done();
  }
}

function readPart(part: Part, encoding: PartEncoding | undefined, response: Response, context: StreamContext): unknown {
  try {
    return partItem(part, encoding);
  } catch (error) {
    const keyword = error instanceof PartError ? error.keyword : "multipart";
    return fail(context, response, keyword, error instanceof Error ? error.message : String(error), part.type);
  }
}

/**
 * One record parsed and checked. RFC 7464: a record is RS, a JSON text, LF; a top-level number,
 * `true`, `false` or `null` not followed by its LF may have been cut short, and is refused.
 */
function checkedJson(record: string, sequence: boolean, response: Response, context: StreamContext): unknown {
  let value: unknown;
  try {
    value = JSON.parse(record);
  } catch {
    return fail(context, response, "json", "is not valid JSON", record);
  }
  if (sequence && cutShort(record, value))
    return fail(context, response, "json", "may have been cut short (no line feed after it)", record);
  return checked(context.item, value, response, context, record);
}

function checked(
  validator: Validator | undefined,
  value: unknown,
  response: Response,
  context: StreamContext,
  raw: unknown,
): unknown {
  const result = validator?.(value, { allErrors: true });
  if (result !== undefined && !result.valid)
    throw new ResponseValidationError(context.operationId, response, result.errors, raw);
  return value;
}

/** The items as a whole (as sent: an event's `data` as text), checked against the media type's `schema`. */
function checkWhole(whole: unknown[] | undefined, response: Response, context: StreamContext): void {
  if (whole !== undefined) checked(context.whole, whole, response, context, whole);
}

function fail(context: StreamContext, response: Response, keyword: string, message: string, raw: unknown): never {
  const issue = { instancePath: "", schemaPath: "", keyword, params: {}, message };
  throw new ResponseValidationError(context.operationId, response, [issue], raw);
}

/**
 * Server-sent events, as WHATWG's HTML standard parses an event stream (§9.2.6): lines end at CRLF,
 * LF or CR; a line starting with ":" is a comment; `field: value` (one space after the colon
 * dropped); `data` lines joined by LF; a blank line dispatches the event, unless it has no data;
 * `id` without NULL sets the last event id, `retry` of digits only the reconnection time. After a
 * dropped connection the request is sent again with `Last-Event-ID`, after that time.
 */
async function* serverSentEvents(
  first: Response,
  context: StreamContext,
  mediaType: string,
  whole: unknown[] | undefined,
): AsyncGenerator<unknown> {
  const state: EventStreamState = { lastEventId: "", retry: DEFAULT_RETRY };
  let response = first;
  let failures = 0;
  try {
    for (;;) {
      const lines = new LineReader();
      const pending = pendingEvent();
      try {
        for await (const text of textOf(response, context))
          for (const line of lines.push(text)) {
            const event = readEventLine(line, pending, state);
            if (event === undefined) continue;
            failures = 0;
            whole?.push(event);
            yield checkedEvent(event, response, context);
          }
        return checkWhole(whole, response, context);
      } catch (error) {
        if (!(error instanceof ApiNetworkError) || ++failures > RECONNECTS || context.signal?.aborted === true)
          throw error;
      }
      await wait(state.retry, context.signal);
      response = await context.reconnect(state.lastEventId === "" ? undefined : state.lastEventId);
      if (!(response.headers.get("content-type") ?? "").toLowerCase().startsWith(mediaType.toLowerCase()))
        throw new ApiNetworkError(context.operationId, new Error(`reconnection answered ${response.status}`));
    }
  } finally {
    context.done();
  }
}

/** An event checked as sent (`data` as text), then its `data` decoded from JSON and checked, when it is JSON. */
function checkedEvent(event: ServerSentEvent, response: Response, context: StreamContext): unknown {
  checked(context.item, event, response, context, event);
  if (!context.jsonData) return event;
  let data: unknown;
  try {
    data = JSON.parse(event.data);
  } catch {
    return fail(context, response, "json", "has data that is not valid JSON", event);
  }
  checked(context.data, data, response, context, event);
  return { ...event, data };
}

/** Waits `ms`, or until `signal` aborts (then rejects with its reason). */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
  });
}
