/**
 * Sequences of items on the wire (an OpenAPI 3.2 `itemSchema`), the same for the client and the
 * server, in both directions: each item framed as its media type writes it (server-sent events,
 * JSON Lines, JSON text sequences of RFC 7464, the parts of multipart/mixed of RFC 2046), and text
 * cut back into records, events and parts as it arrives. Nothing here reads or writes a
 * connection, nor checks an item against its schema.
 */
import { bodyKindOf, mediaTypeEssence } from "./media-types.js";
import type { PartEncoding, PartEncodings, SequenceKind } from "./route-types.js";

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
  /** an item framed: text, or the bytes of a multipart/mixed part (once a Blob's bytes are read) */
  item(item: unknown): string | Uint8Array | Promise<Uint8Array>;
  /** what ends the items: multipart/mixed's close delimiter, else nothing */
  end(): string;
}

/**
 * A writer of the items of a sequence (a new boundary for each multipart/mixed body, whose parts
 * are encoded by position as `parts` says).
 */
export function sequenceWriter(sequence: SequenceKind, parts?: PartEncodings): SequenceWriter {
  if (sequence === "multipart") return new PartWriter(newBoundary(), parts);
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

const OCTET_STREAM = "application/octet-stream";
const UTF8 = new TextEncoder();

/** Whether a value is bytes: a Blob (or File), a Uint8Array (or Node Buffer), an ArrayBuffer. */
export function isBytes(value: unknown): value is Blob | Uint8Array | ArrayBuffer {
  return (
    value instanceof Uint8Array ||
    value instanceof ArrayBuffer ||
    (typeof Blob !== "undefined" && value instanceof Blob)
  );
}

/** The Encoding Object of the part at `position`: `prefixEncoding`'s for the first parts, else `itemEncoding`. */
export function encodingAt(parts: PartEncodings | undefined, position: number): PartEncoding | undefined {
  return parts?.prefix?.[position] ?? (position < (parts?.prefix?.length ?? 0) ? undefined : parts?.item);
}

/**
 * An item as its part carries it: `{ headers, body }` where its encoding declares headers, else the
 * item itself; and whether its body is bytes (which no JSON Schema checks).
 */
export function partValue(item: unknown, encoding: PartEncoding | undefined): { body: unknown; bytes: boolean } {
  const body =
    (encoding?.headers?.length ?? 0) > 0 && typeof item === "object" && item !== null && "body" in item
      ? item.body
      : item;
  return { body, bytes: isBytes(body) };
}

/**
 * The parts of multipart/mixed (RFC 2046 §5.1), one per item. Without an Encoding Object, bytes
 * (a Blob of its own type, else application/octet-stream) are the part's raw bytes, a string a
 * `text/plain` part, any other value an `application/json` one; an Encoding Object's
 * `contentType` decides the part's media type among those it lists, and its `headers` are
 * written from the item's `headers`. Each part is followed at once by the delimiter that ends it,
 * so a reader has the item as soon as it is written; the close delimiter comes with the end.
 */
class PartWriter implements SequenceWriter {
  readonly boundary: string;
  readonly #parts: PartEncodings | undefined;
  #written = 0;

  constructor(boundary: string, parts: PartEncodings | undefined) {
    this.boundary = boundary;
    this.#parts = parts;
  }

  item(item: unknown): Uint8Array | Promise<Uint8Array> {
    const position = this.#written++;
    const encoding = encodingAt(this.#parts, position);
    const head = partHeaders(item, encoding, position);
    const { body } = partValue(item, encoding);
    const type = writtenType(body, encoding, position);
    if (typeof Blob !== "undefined" && body instanceof Blob)
      return body.arrayBuffer().then((buffer) => this.#frame(position, type, head, new Uint8Array(buffer)));
    if (body instanceof Uint8Array || body instanceof ArrayBuffer)
      return this.#frame(position, type, head, new Uint8Array(body));
    const kind = bodyKindOf(type);
    if (kind !== "json" && kind !== "text")
      throw new FramingError(
        `part ${position + 1} is not bytes, but its encoding takes ${type}: give a Blob (or a Uint8Array) for it`,
      );
    const text = typeof body === "string" && kind === "text" ? body : JSON.stringify(body);
    if (text === undefined) throw new FramingError(`part ${position + 1} is not JSON`);
    return this.#frame(position, type, head, UTF8.encode(text));
  }

  #frame(position: number, type: string, head: string, body: Uint8Array): Uint8Array {
    const delimiter = UTF8.encode(`--${this.boundary}`);
    if (indexOfBytes(body, delimiter, 0) !== -1)
      throw new FramingError(`part ${position + 1} holds the parts' boundary`);
    const open = UTF8.encode(`${position === 0 ? `--${this.boundary}` : ""}\r\ncontent-type: ${type}\r\n${head}\r\n`);
    const close = UTF8.encode(`\r\n--${this.boundary}`);
    const frame = new Uint8Array(open.length + body.length + close.length);
    frame.set(open);
    frame.set(body, open.length);
    frame.set(close, open.length + body.length);
    return frame;
  }

  end(): string {
    return this.#written === 0 ? `--${this.boundary}--\r\n` : "--\r\n";
  }
}

/** The header lines of a part whose encoding declares headers: the item's `headers`, the required ones present. */
function partHeaders(item: unknown, encoding: PartEncoding | undefined, position: number): string {
  const declared = encoding?.headers ?? [];
  if (declared.length === 0) return "";
  const given =
    typeof item === "object" && item !== null && "headers" in item && typeof item.headers === "object"
      ? (item.headers as Readonly<Record<string, unknown>> | null)
      : undefined;
  if (given === undefined || given === null || !("body" in (item as object)))
    throw new FramingError(`part ${position + 1} is not { headers, body }, as its encoding declares headers`);
  let lines = "";
  for (const { name, required } of declared) {
    const value = Object.entries(given).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
    if (value === undefined || value === null) {
      if (required)
        throw new FramingError(`part ${position + 1} lacks the header ${name}, which its encoding requires`);
      continue;
    }
    const text = String(value);
    if (/[\r\n]/.test(text)) throw new FramingError(`part ${position + 1} has a line break in its header ${name}`);
    lines += `${name}: ${text}\r\n`;
  }
  return lines;
}

/** The media types and ranges an Encoding Object's `contentType` lists ("image/png, image/*"). */
function mediaRanges(contentType: string): string[] {
  return contentType
    .split(",")
    .map((range) => range.trim())
    .filter((range) => range !== "");
}

/** Whether a media type falls in a media range (`*\/*`, `image/*`, or the type itself, parameters aside). */
function inRange(mediaType: string, range: string): boolean {
  const essence = mediaTypeEssence(mediaType);
  const wanted = mediaTypeEssence(range);
  if (wanted === "*/*" || wanted === essence) return true;
  return wanted.endsWith("/*") && essence.startsWith(wanted.slice(0, -1));
}

/** Whether a part's media type is one its Encoding Object's `contentType` takes (any, without one). */
function typeTaken(mediaType: string, encoding: PartEncoding | undefined): boolean {
  const declared = encoding?.contentType;
  return declared === undefined || mediaRanges(declared).some((range) => inRange(mediaType, range));
}

/**
 * The media type a part is written with: a Blob's own type (which must be one the encoding takes);
 * else the first media type the encoding lists that suits the value (bytes, text, JSON); else, with
 * no encoding, application/octet-stream for bytes, text/plain for a string, JSON for the rest.
 */
function writtenType(body: unknown, encoding: PartEncoding | undefined, position: number): string {
  const declared = encoding?.contentType;
  const own = typeof Blob !== "undefined" && body instanceof Blob && body.type !== "" ? body.type : undefined;
  if (own !== undefined) {
    if (!typeTaken(own, encoding))
      throw new FramingError(
        `part ${position + 1} is a Blob of type ${own}, which its encoding does not take (${declared})`,
      );
    return own;
  }
  const bytes = isBytes(body);
  if (declared === undefined)
    return bytes ? OCTET_STREAM : typeof body === "string" ? "text/plain; charset=utf-8" : "application/json";
  const concrete = mediaRanges(declared).filter((range) => !range.includes("*"));
  const suits = (type: string): boolean => {
    const kind = bodyKindOf(type);
    if (bytes) return kind !== "json" && kind !== "text";
    return kind === "json" || (kind === "text" && typeof body === "string");
  };
  const type =
    concrete.find(suits) ??
    (bytes && typeTaken(OCTET_STREAM, encoding) ? OCTET_STREAM : undefined) ??
    (!bytes && typeof body === "string" && typeTaken("text/plain", encoding)
      ? "text/plain; charset=utf-8"
      : undefined) ??
    (!bytes && typeTaken("application/json", encoding) ? "application/json" : undefined);
  if (type === undefined)
    throw new FramingError(
      bytes
        ? `part ${position + 1} is bytes without a media type its encoding takes (${declared}): give a Blob of such a type`
        : `part ${position + 1} is not bytes, but its encoding takes ${declared}: give a Blob (or a Uint8Array) for it`,
    );
  return type;
}

/** The boundary a multipart Content-Type names (`boundary=…`, quoted or not), if any. */
export function boundaryOf(contentType: string | null | undefined): string | undefined {
  const match = /;\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType ?? "");
  return match?.[1] ?? match?.[2];
}

/** One part of multipart/mixed: its media type (text/plain when it names none), its headers (names in lower case), its bytes. */
export interface Part {
  readonly type: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

/** Where in `haystack`, from `from`, the bytes of `needle` start; -1 if nowhere. */
function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  const last = haystack.length - needle.length;
  for (
    let at = haystack.indexOf(first ?? 0, from);
    at !== -1 && at <= last;
    at = haystack.indexOf(first ?? 0, at + 1)
  ) {
    let matched = 1;
    while (matched < needle.length && haystack[at + matched] === needle[matched]) matched++;
    if (matched === needle.length) return at;
  }
  return -1;
}

const CRLF = UTF8.encode("\r\n");
const DASHES = UTF8.encode("--");

/**
 * Cuts multipart/mixed bytes into their parts as they arrive (RFC 2046 §5.1): the preamble before
 * the first delimiter and the epilogue after the close delimiter are ignored; each part's headers
 * end at a blank line; a part ends at CRLF, "--" and the boundary, and only there: its bytes may
 * hold anything else (CRLF, "--", the boundary without the CRLF before it).
 */
export class PartSplitter {
  /** CRLF "--" boundary: what ends a part */
  readonly #delimiter: Uint8Array;
  #store = new Uint8Array(1024);
  #length = 0;
  #state: "preamble" | "delimited" | "part" | "closed" = "preamble";
  /** where in the buffer the end of the part being read may be: what comes before was searched */
  #searched = 0;

  constructor(boundary: string) {
    this.#delimiter = UTF8.encode(`\r\n--${boundary}`);
  }

  /** The parts `chunk` completes (text is taken as its UTF-8 bytes). */
  push(chunk: Uint8Array | string): Part[] {
    if (this.#state === "closed") return [];
    this.#append(typeof chunk === "string" ? UTF8.encode(chunk) : chunk);
    const parts: Part[] = [];
    for (let part = this.#next(); part !== undefined; part = this.#next()) if (part !== null) parts.push(part);
    return parts;
  }

  /** Whether the close delimiter was read: without it the parts were cut short. */
  get closed(): boolean {
    return this.#state === "closed";
  }

  /** How many bytes wait for the end of their part. */
  get pending(): number {
    return this.#length;
  }

  #append(chunk: Uint8Array): void {
    const length = this.#length + chunk.length;
    if (length > this.#store.length) {
      const grown = new Uint8Array(Math.max(length, this.#store.length * 2));
      grown.set(this.#store.subarray(0, this.#length));
      this.#store = grown;
    }
    this.#store.set(chunk, this.#length);
    this.#length = length;
  }

  /** Drops the first `count` bytes of the buffer. */
  #drop(count: number): void {
    this.#store.copyWithin(0, count, this.#length);
    this.#length -= count;
  }

  /** The next part, null for a step that completes none, undefined when more bytes are needed. */
  #next(): Part | null | undefined {
    const buffer = this.#store.subarray(0, this.#length);
    const delimiter = this.#delimiter;
    if (this.#state === "preamble") {
      // the first delimiter may start the body, without the CRLF before it
      const opening = delimiter.subarray(2);
      const atStart =
        buffer.length >= opening.length && indexOfBytes(buffer.subarray(0, opening.length), opening, 0) === 0;
      const at = atStart ? 0 : indexOfBytes(buffer, delimiter, 0);
      if (at === -1) return undefined;
      this.#drop(at + (atStart ? opening.length : delimiter.length));
      this.#state = "delimited";
      return null;
    }
    if (this.#state === "delimited") {
      if (buffer.length >= 2 && buffer[0] === DASHES[0] && buffer[1] === DASHES[1]) {
        this.#state = "closed";
        this.#length = 0;
        return undefined;
      }
      // the rest of the delimiter line (transport padding) ends at CRLF
      const end = indexOfBytes(buffer, CRLF, 0);
      if (end === -1) return undefined;
      this.#drop(end + 2);
      this.#state = "part";
      return null;
    }
    if (this.#state !== "part") return undefined;
    const end = indexOfBytes(buffer, delimiter, this.#searched);
    if (end === -1) {
      // the next search starts where a delimiter cut by the end of these bytes could begin
      this.#searched = Math.max(0, buffer.length - delimiter.length + 1);
      return undefined;
    }
    this.#searched = 0;
    const part = partOf(buffer.slice(0, end));
    this.#drop(end + delimiter.length);
    this.#state = "delimited";
    return part;
  }
}

const BLANK_LINE = UTF8.encode("\r\n\r\n");

/** A part's media type and headers (from its header lines) and its bytes. */
function partOf(bytes: Uint8Array): Part {
  const bare = bytes[0] === CRLF[0] && bytes[1] === CRLF[1];
  const split = bare ? 0 : indexOfBytes(bytes, BLANK_LINE, 0);
  const head = new TextDecoder().decode(split === -1 ? bytes : bytes.subarray(0, split));
  const body = split === -1 ? new Uint8Array(0) : bytes.slice(split + (bare ? 2 : 4));
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const type = headers["content-type"];
  return { type: type === undefined || type === "" ? "text/plain" : type, headers, body };
}

/** A part that cannot be read as its encoding says: why (`keyword`: "json", "contentType", "headers"). */
export class PartError extends FramingError {
  readonly keyword: string;

  constructor(keyword: string, message: string) {
    super(message);
    this.keyword = keyword;
  }
}

/**
 * A part's item, read by its Encoding Object (`encoding`, if any): its media type must be one the
 * encoding takes and the headers it requires present; a JSON part is parsed, a text part is its
 * UTF-8 text, any other part its bytes, a Blob of the part's media type. Where the encoding
 * declares headers, the item is `{ headers, body }` (the declared headers, named as declared).
 * Throws a `PartError` saying why a part cannot be read.
 */
export function partItem(part: Part, encoding?: PartEncoding): unknown {
  if (!typeTaken(part.type, encoding))
    throw new PartError(
      "contentType",
      `is a part of media type ${mediaTypeEssence(part.type)}, which its encoding does not take (${encoding?.contentType}): send it as one of those`,
    );
  const body = partBody(part);
  const declared = encoding?.headers ?? [];
  if (declared.length === 0) return body;
  const headers: Record<string, string> = {};
  for (const { name, required } of declared) {
    const value = part.headers[name.toLowerCase()];
    if (value !== undefined) headers[name] = value;
    else if (required)
      throw new PartError("headers", `is a part without the header ${name}, which its encoding requires: send it`);
  }
  return { headers, body };
}

/** A part's body: JSON parsed, text decoded from UTF-8, anything else a Blob of its bytes. */
function partBody(part: Part): unknown {
  const kind = bodyKindOf(part.type);
  if (kind !== "json" && kind !== "text") return new Blob([part.body as Uint8Array<ArrayBuffer>], { type: part.type });
  const text = new TextDecoder().decode(part.body);
  if (kind === "text") return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new PartError("json", "is a part of media type JSON that is not valid JSON");
  }
}

/** The items of multipart/mixed text whose boundary is its first delimiter line's. */
function partsOfText(text: string): unknown[] {
  const first = /^--([^\r\n]+?)[ \t]*\r?$/m.exec(text)?.[1];
  if (first === undefined) throw new FramingError("no delimiter line starts a part");
  const splitter = new PartSplitter(first);
  const parts = splitter.push(text);
  if (!splitter.closed) throw new FramingError("the parts end without the close delimiter");
  return parts.map((part) => partItem(part));
}
