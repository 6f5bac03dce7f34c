/**
 * Sequences of items on the wire (an OpenAPI 3.2 `itemSchema`), the same for the client and the
 * server, in both directions: each item framed as its media type writes it (server-sent events,
 * JSON Lines, JSON text sequences of RFC 7464), and text cut back into records and events as it
 * arrives. Nothing here reads or writes a connection, nor checks an item against its schema.
 */
import type { SequenceKind } from "./route-types.js";

/** A server-sent event: its type, `data` as text, the last event id, the reconnection time. */
export interface EventFields {
  readonly event?: string;
  readonly data: string;
  readonly id?: string;
  readonly retry?: number;
}

/** An item that cannot be framed: a value that is not JSON, an event without `data`, a line break in a field. */
export class FramingError extends Error {
  override readonly name = "FramingError";
}

/**
 * One item as its sequence writes it: a JSON text and a line feed (after RS for a JSON text
 * sequence), or an event (`data` sent as JSON when it is not text), each field on its line.
 */
export function frameItem(item: unknown, sequence: SequenceKind): string {
  if (sequence !== "sse") {
    const text = JSON.stringify(item);
    if (text === undefined) throw new FramingError("an item is not JSON");
    return sequence === "json-seq" ? `\u001e${text}\n` : `${text}\n`;
  }
  if (typeof item !== "object" || item === null || !("data" in item))
    throw new FramingError("a server-sent event is not an object with `data`");
  const event = item as Omit<EventFields, "data"> & { readonly data: unknown };
  return eventText({ ...event, data: eventData(event.data) });
}

/** An event's `data` as sent: text as it is, any other value as JSON. */
export function eventData(data: unknown): string {
  return typeof data === "string" ? data : JSON.stringify(data);
}

/** An event as the event-stream format writes it: each field on its line, `data` once per line of it. */
function eventText(event: EventFields): string {
  let text = "";
  if (event.event !== undefined) text += `event: ${oneLine(event.event)}\n`;
  if (event.id !== undefined) text += `id: ${oneLine(event.id)}\n`;
  if (event.retry !== undefined) text += `retry: ${Math.max(0, Math.trunc(event.retry))}\n`;
  for (const line of event.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}

function oneLine(value: string): string {
  if (/[\r\n]/.test(value)) throw new FramingError("an event's `event` or `id` holds a line break");
  return value;
}

/** Cuts text into the records a separator ends (a line feed, or RS for RFC 7464), across chunks; blank records skipped. */
export class RecordSplitter {
  readonly #separator: string;
  #buffer = "";

  constructor(sequence: Exclude<SequenceKind, "sse">) {
    this.#separator = sequence === "json-seq" ? "\u001e" : "\n";
  }

  /** The records `text` completes. */
  push(text: string): string[] {
    this.#buffer += text;
    const records: string[] = [];
    let end = this.#buffer.indexOf(this.#separator);
    while (end !== -1) {
      const record = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 1);
      if (record.trim() !== "") records.push(record);
      end = this.#buffer.indexOf(this.#separator);
    }
    return records;
  }

  /** What is left once the text is over: the last record, when it was not ended. */
  end(): string | undefined {
    const rest = this.#buffer;
    this.#buffer = "";
    return rest.trim() === "" ? undefined : rest;
  }

  /** How many characters wait for the end of their record. */
  get pending(): number {
    return this.#buffer.length;
  }
}

/** Splits text into lines ended by CRLF, LF or CR, across chunks. */
export class LineReader {
  #line = "";
  #afterCr = false;

  push(text: string): string[] {
    const lines: string[] = [];
    for (const char of text) {
      const afterCr = this.#afterCr;
      this.#afterCr = char === "\r";
      if (afterCr && char === "\n") continue;
      if (char === "\r" || char === "\n") {
        lines.push(this.#line);
        this.#line = "";
      } else this.#line += char;
    }
    return lines;
  }
}

/** An event being read: the fields of its lines until a blank line dispatches it. */
export interface PendingEvent {
  data: string;
  hasData: boolean;
  type: string | undefined;
  retry: number | undefined;
}

/** What an event stream keeps across events (and, for a client, across reconnections). */
export interface EventStreamState {
  lastEventId: string;
  retry: number;
}

/** A pending event with no field read yet. */
export function pendingEvent(): PendingEvent {
  return { data: "", hasData: false, type: undefined, retry: undefined };
}

/**
 * Reads one line of an event stream as WHATWG's HTML standard says (§9.2.6): a line starting with
 * ":" is a comment; `field: value` (one space after the colon dropped); `data` lines joined by LF;
 * `id` without NULL sets the last event id, `retry` of digits only the reconnection time; a blank
 * line gives the event to dispatch, unless it has no data.
 */
export function readEventLine(line: string, pending: PendingEvent, state: EventStreamState): EventFields | undefined {
  if (line === "") return dispatch(pending, state);
  if (line.startsWith(":")) return undefined;
  const colon = line.indexOf(":");
  const field = colon === -1 ? line : line.slice(0, colon);
  let value = colon === -1 ? "" : line.slice(colon + 1);
  if (value.startsWith(" ")) value = value.slice(1);
  if (field === "data") {
    pending.data += `${value}\n`;
    pending.hasData = true;
  } else if (field === "event") pending.type = value;
  else if (field === "id" && !value.includes("\u0000")) state.lastEventId = value;
  else if (field === "retry" && /^[0-9]+$/.test(value)) {
    state.retry = Number(value);
    pending.retry = state.retry;
  }
  return undefined;
}

function dispatch(pending: PendingEvent, state: EventStreamState): EventFields | undefined {
  const { data, hasData, type, retry } = pending;
  pending.data = "";
  pending.hasData = false;
  pending.type = undefined;
  pending.retry = undefined;
  if (!hasData) return undefined;
  return {
    ...(type !== undefined && type !== "" ? { event: type } : {}),
    data: data.slice(0, -1),
    ...(state.lastEventId !== "" ? { id: state.lastEventId } : {}),
    ...(retry !== undefined ? { retry } : {}),
  };
}

/**
 * Whether a record of a JSON text sequence may have been cut short (RFC 7464): a top-level
 * number, `true`, `false` or `null` not followed by its line feed.
 */
export function cutShort(record: string, value: unknown): boolean {
  return !record.endsWith("\n") && (value === null || typeof value !== "object") && typeof value !== "string";
}

/**
 * The items of a whole sequence written out as text (an example's `serializedValue`, or a `value`
 * that is a string): JSON texts of JSON Lines or of a JSON text sequence, events (`data` as text)
 * of an event stream. Throws a `FramingError` on a record that is not JSON.
 */
export function itemsOfText(text: string, sequence: SequenceKind): unknown[] {
  if (sequence === "sse") {
    const state: EventStreamState = { lastEventId: "", retry: 0 };
    const pending = pendingEvent();
    // a last event not followed by its blank line is dispatched all the same
    return new LineReader().push(`${text}\n\n`).flatMap((line) => readEventLine(line, pending, state) ?? []);
  }
  const records = new RecordSplitter(sequence);
  const all = [...records.push(text), ...[records.end()].filter((record) => record !== undefined)];
  return all.map((record) => {
    try {
      return JSON.parse(record) as unknown;
    } catch {
      throw new FramingError(`a record is not JSON: ${record.slice(0, 40)}`);
    }
  });
}
