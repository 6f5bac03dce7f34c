/**
 * Sequences of items on the wire (an OpenAPI 3.2 `itemSchema`), the same for the client and the
 * server, in both directions: each item framed as its media type writes it (server-sent events,
 * JSON Lines, JSON text sequences of RFC 7464, the parts of multipart/mixed of RFC 2046), and text
 * cut back into records, events and parts as it arrives. Nothing here reads or writes a
 * connection, nor checks an item against its schema.
 */
import { isJsonMediaType } from "./media-types.js";
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
export function frameItem(item: unknown, sequence: Exclude<SequenceKind, "multipart">): string {
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

  constructor(sequence: "jsonl" | "json-seq") {
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
  if (sequence === "multipart") return partsOfText(text);
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

/** Writes a sequence's items one after the other: each framed as it comes, then what ends them. */
export interface SequenceWriter {
  /** the boundary of multipart/mixed parts, which the body's Content-Type names */
  readonly boundary?: string;
  item(item: unknown): string;
  /** what ends the items: multipart/mixed's close delimiter, else nothing */
  end(): string;
}

/** A writer of the items of a sequence (a new boundary for each multipart/mixed body). */
export function sequenceWriter(sequence: SequenceKind): SequenceWriter {
  if (sequence === "multipart") return new PartWriter(newBoundary());
  return { item: (item) => frameItem(item, sequence), end: () => "" };
}

/** A media type with the boundary of its parts, when it has one: "multipart/mixed; boundary=…". */
export function withBoundary(mediaType: string, boundary: string | undefined): string {
  return boundary === undefined ? mediaType : `${mediaType}; boundary=${boundary}`;
}

/** A boundary no part is likely to hold: 144 random bits. */
function newBoundary(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return `item-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * The parts of multipart/mixed (RFC 2046 §5.1), one per item: a string as `text/plain`, any other
 * value as `application/json`. Each part is followed at once by the delimiter that ends it, so a
 * reader has the item as soon as it is written; the close delimiter comes with the end.
 */
class PartWriter implements SequenceWriter {
  readonly boundary: string;
  #written = 0;

  constructor(boundary: string) {
    this.boundary = boundary;
  }

  item(item: unknown): string {
    const text = typeof item === "string" ? item : JSON.stringify(item);
    if (text === undefined) throw new FramingError("an item is not JSON");
    if (text.includes(`--${this.boundary}`)) throw new FramingError("an item holds the parts' boundary");
    const type = typeof item === "string" ? "text/plain; charset=utf-8" : "application/json";
    const open = this.#written++ === 0 ? `--${this.boundary}` : "";
    return `${open}\r\ncontent-type: ${type}\r\n\r\n${text}\r\n--${this.boundary}`;
  }

  end(): string {
    return this.#written === 0 ? `--${this.boundary}--\r\n` : "--\r\n";
  }
}

/** The boundary a multipart Content-Type names (`boundary=…`, quoted or not), if any. */
export function boundaryOf(contentType: string | null | undefined): string | undefined {
  const match = /;\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType ?? "");
  return match?.[1] ?? match?.[2];
}

/** One part of multipart/mixed: its media type (text/plain when it names none) and its body as text. */
export interface Part {
  readonly type: string;
  readonly body: string;
}

/**
 * Cuts multipart/mixed text into its parts as it arrives (RFC 2046 §5.1): the preamble before the
 * first delimiter and the epilogue after the close delimiter are ignored; each part's headers end
 * at a blank line; a part ends at CRLF, "--" and the boundary.
 */
export class PartSplitter {
  readonly #delimiter: string;
  #buffer = "";
  #state: "preamble" | "delimited" | "part" | "closed" = "preamble";
  /** where in the buffer the end of the part being read may be: what comes before was searched */
  #searched = 0;

  constructor(boundary: string) {
    this.#delimiter = `--${boundary}`;
  }

  /** The parts `text` completes. */
  push(text: string): Part[] {
    if (this.#state === "closed") return [];
    this.#buffer += text;
    const parts: Part[] = [];
    for (let part = this.#next(); part !== undefined; part = this.#next()) if (part !== null) parts.push(part);
    return parts;
  }

  /** Whether the close delimiter was read: without it the parts were cut short. */
  get closed(): boolean {
    return this.#state === "closed";
  }

  /** How many characters wait for the end of their part. */
  get pending(): number {
    return this.#buffer.length;
  }

  /** The next part, null for a step that completes none, undefined when more text is needed. */
  #next(): Part | null | undefined {
    const buffer = this.#buffer;
    if (this.#state === "preamble") {
      const at = buffer.startsWith(this.#delimiter) ? 0 : buffer.indexOf(`\r\n${this.#delimiter}`);
      if (at === -1) return undefined;
      this.#buffer = buffer.slice(at + (at === 0 ? 0 : 2) + this.#delimiter.length);
      this.#state = "delimited";
      return null;
    }
    if (this.#state === "delimited") {
      if (buffer.startsWith("--")) {
        this.#state = "closed";
        this.#buffer = "";
        return undefined;
      }
      const end = buffer.indexOf("\r\n");
      if (end === -1) return undefined;
      this.#buffer = buffer.slice(end + 2);
      this.#state = "part";
      return null;
    }
    if (this.#state !== "part") return undefined;
    const end = buffer.indexOf(`\r\n${this.#delimiter}`, this.#searched);
    if (end === -1) {
      // the next search starts where a delimiter cut by the end of this text could begin
      this.#searched = Math.max(0, buffer.length - this.#delimiter.length - 1);
      return undefined;
    }
    this.#searched = 0;
    this.#buffer = buffer.slice(end + 2 + this.#delimiter.length);
    this.#state = "delimited";
    return partOf(buffer.slice(0, end));
  }
}

/** A part's media type (from its headers) and body. */
function partOf(text: string): Part {
  const split = text.startsWith("\r\n") ? 0 : text.indexOf("\r\n\r\n");
  const head = split === -1 ? text : text.slice(0, split);
  const body = split === -1 ? "" : text.slice(split + (split === 0 ? 2 : 4));
  const type = /^content-type:[ \t]*(.*)$/im.exec(head)?.[1]?.trim();
  return { type: type === undefined || type === "" ? "text/plain" : type, body };
}

/** A part's item: a JSON part's value, any other part's text. Throws a `FramingError` on JSON that does not parse. */
export function partItem(part: Part): unknown {
  if (!isJsonMediaType(part.type)) return part.body;
  try {
    return JSON.parse(part.body) as unknown;
  } catch {
    throw new FramingError("a part of media type JSON is not valid JSON");
  }
}

/** The items of multipart/mixed text whose boundary is its first delimiter line's. */
function partsOfText(text: string): unknown[] {
  const first = /^--([^\r\n]+?)[ \t]*\r?$/m.exec(text)?.[1];
  if (first === undefined) throw new FramingError("no delimiter line starts a part");
  const splitter = new PartSplitter(first);
  const parts = splitter.push(text);
  if (!splitter.closed) throw new FramingError("the parts end without the close delimiter");
  return parts.map(partItem);
}
