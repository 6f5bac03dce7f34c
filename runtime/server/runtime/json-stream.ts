/**
 * Long lists answered as they are read. A handler whose JSON body holds a list too long to build in
 * memory (every event of a company, say) answers a `JsonStream` instead of the body: the fields
 * before the list, the list's items in batches (from a database cursor, or pages read by key), and
 * the fields after it, which may depend on how many items there were (a `total_count`). The
 * server writes it batch by batch, with the network's backpressure, and the bytes are exactly those
 * of `JSON.stringify` on the whole body.
 *
 * With response checks on, each batch is checked before it is written, inside the body's envelope
 * (`{ ...before, [list]: batch, ...after(count so far) }`), so every item and every other field is
 * checked by the response's own validator, and the whole list is never held. What only the whole
 * list shows (`uniqueItems`, `maxItems`, `minItems` above a batch, `contains`) is not checked. A
 * first batch that fails is answered as any invalid answer is (500, nothing of it sent); a later
 * one ends the response early, so a client never receives a body that breaks the contract.
 */

/** The batches of a list: arrays, in order. */
export type Batches<T> = AsyncIterable<readonly T[]> | Iterable<readonly T[]>;

/** The items of a list type. */
type ItemOf<L> = L extends readonly (infer T)[] ? T : never;

/** The keys of `B` whose values are lists. */
type ListKey<B> = { [K in keyof B]-?: NonNullable<B[K]> extends readonly unknown[] ? K : never }[keyof B] & string;

/** What `streamJson` takes for a body `B` that is an object with a list field. */
export interface JsonStreamParts<B, K extends ListKey<B>> {
  /** the field holding the list */
  readonly list: K;
  /** the list's items, in batches */
  readonly batches: Batches<ItemOf<NonNullable<B[K]>>>;
  /** the fields written before the list, in order */
  readonly before?: Partial<Omit<B, K>>;
  /** the fields written after the list, from the number of items written */
  readonly after?: (count: number) => Partial<Omit<B, K>>;
}

const STREAM = Symbol("JsonStream");

/** A JSON body of type `B`, answered as it is read. Made by `streamJson` or `streamJsonArray`. */
export class JsonStream<out B = unknown> {
  /** @internal the body type, for the compiler only */
  declare readonly [STREAM]: B;
  /** the field holding the list, or undefined when the body is the list itself */
  readonly list: string | undefined;
  readonly batches: Batches<unknown>;
  readonly before: Readonly<Record<string, unknown>>;
  readonly after: (count: number) => Readonly<Record<string, unknown>>;

  constructor(
    list: string | undefined,
    batches: Batches<unknown>,
    before: object = {},
    after: (count: number) => object = () => ({}),
  ) {
    if (list !== undefined && Object.hasOwn(before, list))
      throw new TypeError(`streamJson: the list field "${list}" is also among the fields before it`);
    this.list = list;
    this.batches = batches;
    this.before = before as Readonly<Record<string, unknown>>;
    this.after = after as (count: number) => Readonly<Record<string, unknown>>;
  }

  /** The whole body as one value, with `batch` as the list and the fields after it for `count` items. */
  envelope(batch: readonly unknown[], count: number): unknown {
    if (this.list === undefined) return batch;
    return { ...this.before, [this.list]: batch, ...withoutList(this.after(count), this.list) };
  }
}

/** A body that is an object with one list field, answered batch by batch. */
export function streamJson<B extends object, K extends ListKey<B>>(parts: JsonStreamParts<B, K>): JsonStream<B> {
  return new JsonStream<B>(parts.list, parts.batches, parts.before ?? {}, parts.after ?? (() => ({})));
}

/** A body that is itself a list, answered batch by batch. */
export function streamJsonArray<B extends readonly unknown[]>(batches: Batches<ItemOf<B>>): JsonStream<B> {
  return new JsonStream<B>(undefined, batches);
}

/** Whether an answer's body is a `JsonStream`. */
export function isJsonStream(body: unknown): body is JsonStream {
  return body instanceof JsonStream;
}

/** Checks one batch inside its envelope: undefined when it is valid, else the first error. */
export type BatchCheck = (envelope: unknown) => string | undefined;

/** Why a stream stopped: a batch that breaks the contract, or its source failing. */
export class JsonStreamError extends Error {
  /** the number of items written before it stopped */
  readonly written: number;

  constructor(message: string, written: number, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "JsonStreamError";
    this.written = written;
  }
}

/**
 * The first batch of a stream, read (and checked) before anything is sent, so a source that
 * fails at once, or a first batch that breaks the contract, is still answered with a problem;
 * then the rest of the text, as chunks of at most one batch each, and of about CHUNK_CHARS
 * characters at most.
 */
export async function openJsonStream(
  stream: JsonStream,
  check: BatchCheck | undefined,
): Promise<AsyncIterable<string>> {
  const iterator = toAsyncIterator(stream.batches);
  const first = await iterator.next();
  const firstBatch = first.done === true ? [] : first.value;
  const mismatch = check?.(stream.envelope(firstBatch, firstBatch.length));
  if (mismatch !== undefined) {
    await iterator.return?.();
    throw new JsonStreamError(mismatch, 0);
  }
  return chunks(stream, iterator, first.done === true ? undefined : firstBatch, check);
}

/**
 * The length of text after which a chunk is handed on, within a batch too. A chunk stays small
 * enough for the JavaScript engine's young generation, which frees it as soon as it is written;
 * a chunk the size of a whole batch (hundreds of kilobytes) is allocated among the long-lived
 * objects, and a long list would leave the server holding all of them until a full collection.
 */
const CHUNK_CHARS = 32 * 1024;

async function* chunks(
  stream: JsonStream,
  iterator: AsyncIterator<readonly unknown[]>,
  first: readonly unknown[] | undefined,
  check: BatchCheck | undefined,
): AsyncGenerator<string> {
  const opening = openingOf(stream);
  let count = 0;
  let text = opening;
  let batch = first;
  let checked = true;
  try {
    while (batch !== undefined) {
      const mismatch = checked ? undefined : check?.(stream.envelope(batch, count + batch.length));
      if (mismatch !== undefined) throw new JsonStreamError(mismatch, count);
      for (const item of batch) {
        text += count === 0 ? itemText(item) : `,${itemText(item)}`;
        count += 1;
        if (text.length < CHUNK_CHARS) continue;
        yield text;
        text = "";
      }
      yield text;
      text = "";
      const next = await iterator.next();
      batch = next.done === true ? undefined : next.value;
      checked = false;
    }
  } catch (error) {
    await iterator.return?.();
    if (error instanceof JsonStreamError) throw error;
    throw new JsonStreamError(
      `reading the list failed after ${count} items: ${error instanceof Error ? error.message : String(error)}`,
      count,
      error,
    );
  }
  yield `${text}${closingOf(stream, count)}`;
}

/** `{"before":1,"list":[` (or `[` for a list body). */
function openingOf(stream: JsonStream): string {
  if (stream.list === undefined) return "[";
  const before = fieldsText(stream.before);
  return `{${before}${before === "" ? "" : ","}${JSON.stringify(stream.list)}:[`;
}

/** `],"after":2}` (or `]`). */
function closingOf(stream: JsonStream, count: number): string {
  if (stream.list === undefined) return "]";
  const after = fieldsText(withoutList(stream.after(count), stream.list));
  return `]${after === "" ? "" : ","}${after}}`;
}

/** An object's fields as `JSON.stringify` writes them, without the braces. */
function fieldsText(fields: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(fields).slice(1, -1);
}

function withoutList(fields: Readonly<Record<string, unknown>>, list: string): Readonly<Record<string, unknown>> {
  if (!Object.hasOwn(fields, list)) return fields;
  const { [list]: _ignored, ...rest } = fields;
  return rest;
}

/** An item as `JSON.stringify` writes it inside an array (`undefined` and functions as null). */
function itemText(item: unknown): string {
  return JSON.stringify(item) ?? "null";
}

function toAsyncIterator<T>(batches: Batches<T>): AsyncIterator<readonly T[]> {
  if (Symbol.asyncIterator in batches) return batches[Symbol.asyncIterator]();
  const iterator = batches[Symbol.iterator]();
  return {
    next: async () => iterator.next(),
    return: async () => iterator.return?.() ?? { done: true, value: undefined },
  };
}

/**
 * A JSON body serialised once and answered many times (a list cached by its handler until the
 * data changes, say): the value, its text as `JSON.stringify` writes it, and that text in UTF-8,
 * encoded once: the bytes are what is written, so an answer costs no serialising and no encoding
 * (a long string written to a socket is encoded on every write). With response checks on, the
 * value is checked against a response's validator once, the first time it is answered under it,
 * not on every answer.
 */
export class PreparedJson<out B = unknown> {
  /** @internal the body type, for the compiler only */
  declare readonly [STREAM]: B;
  readonly value: unknown;
  readonly text: string;
  /** the check's verdict per validator: undefined when valid, else the first error */
  private readonly verdicts = new WeakMap<object, string | undefined>();
  private encoded: Uint8Array | undefined;

  constructor(value: unknown) {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError("prepareJson: the value has no JSON text (undefined or a function)");
    this.value = value;
    this.text = text;
  }

  /** The text in UTF-8, encoded the first time it is asked for. */
  get bytes(): Uint8Array {
    this.encoded ??= new TextEncoder().encode(this.text);
    return this.encoded;
  }

  /** The verdict of `check` on the value, worked out once per check. */
  verdict(check: object, run: (value: unknown) => string | undefined): string | undefined {
    if (!this.verdicts.has(check)) this.verdicts.set(check, run(this.value));
    return this.verdicts.get(check);
  }
}

/** A JSON body serialised now, to be answered as often as wanted (see `PreparedJson`). */
export function prepareJson<B>(value: B): PreparedJson<B> {
  return new PreparedJson<B>(value);
}
