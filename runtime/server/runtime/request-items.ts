/**
 * Request bodies that are sequences of items (an OpenAPI 3.2 `itemSchema`: JSON Lines, JSON text
 * sequences, server-sent events uploaded, the parts of multipart/mixed), handed to the handler as an async iterable of items as
 * they arrive, each parsed and checked against the item schema first. An item that does not parse
 * or match, or one longer than the body limit, ends the items with a `ProblemError` (400, its
 * issues `in: "body"` at `/<index>`, the item's position in the sequence): a handler that lets it
 * through answers that problem; one that catches it decides. The items before it were handed over.
 */
import type { PartEncodings, RouteContent, SequenceKind, Validator } from "../../route-types.js";
import {
  boundaryOf,
  cutShort,
  type EventFields,
  type EventStreamState,
  encodingAt,
  LineReader,
  PartError,
  PartSplitter,
  partItem,
  partValue,
  pendingEvent,
  RecordSplitter,
  readEventLine,
} from "../../sequences.js";
import { ProblemError, type ValidationIssue } from "./problems.js";
import { validationProblem } from "./request.js";

/** The items of a body that is a sequence, from its bytes as they arrive. */
export async function* requestItems(
  chunks: AsyncIterable<Uint8Array>,
  content: RouteContent & { readonly sequence: SequenceKind },
  validator: Validator | undefined,
  limits: { readonly bytes: number; readonly contentType: string },
): AsyncGenerator<unknown> {
  const { sequence } = content;
  const limit = limits.bytes;
  const items =
    sequence === "sse"
      ? events(texts(chunks), limit)
      : sequence === "multipart"
        ? parts(chunks, boundaryOf(limits.contentType), content.parts, limit)
        : records(texts(chunks), sequence, limit);
  let index = 0;
  for await (const item of items) {
    if (item instanceof Unreadable) throw itemProblem(index, item.issue);
    // a multipart/mixed part's body is what the item schema describes, bytes aside (no JSON Schema checks them)
    const part = sequence === "multipart" ? partValue(item, encodingAt(content.parts, index)) : undefined;
    const result =
      part?.bytes === true ? undefined : validator?.(part === undefined ? item : part.body, { allErrors: true });
    if (result !== undefined && !result.valid)
      throw new ProblemError(
        validationProblem(
          result.errors.map(({ instancePath, schemaPath, keyword, params, message }) => ({
            in: "body",
            instancePath: `/${index}${instancePath}`,
            schemaPath,
            keyword,
            params,
            message: `/${index}${instancePath.startsWith("/") ? instancePath : ""} ${message.replace(/^\/\S*\s/, "")}`,
          })),
        ),
      );
    yield item;
    index++;
  }
}

/** An item that cannot be read: why. */
class Unreadable {
  readonly issue: Omit<ValidationIssue, "in" | "instancePath">;

  constructor(keyword: string, message: string) {
    this.issue = { schemaPath: "", keyword, params: {}, message };
  }
}

function itemProblem(index: number, issue: Omit<ValidationIssue, "in" | "instancePath">): ProblemError {
  return new ProblemError(
    validationProblem([{ in: "body", instancePath: `/${index}`, ...issue, message: `/${index} ${issue.message}` }]),
  );
}

/** The body's text as it arrives, decoded as UTF-8. */
async function* texts(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  for await (const chunk of chunks) yield decoder.decode(chunk, { stream: true });
  const rest = decoder.decode();
  if (rest !== "") yield rest;
}

/** JSON Lines or a JSON text sequence: each record parsed (or why it cannot be). */
async function* records(
  texts: AsyncIterable<string>,
  sequence: "jsonl" | "json-seq",
  limit: number,
): AsyncGenerator<unknown> {
  const splitter = new RecordSplitter(sequence);
  for await (const text of texts) {
    for (const record of splitter.push(text)) yield parsed(record, sequence);
    if (splitter.pending > limit) return yield tooLong(limit);
  }
  const last = splitter.end();
  if (last !== undefined) yield parsed(last, sequence === "json-seq" ? "jsonl" : sequence);
}

function parsed(record: string, sequence: "jsonl" | "json-seq"): unknown {
  let value: unknown;
  try {
    value = JSON.parse(record);
  } catch {
    return new Unreadable("json", "is not valid JSON");
  }
  return sequence === "json-seq" && cutShort(record, value)
    ? new Unreadable("json", "may have been cut short (no line feed after it)")
    : value;
}

/** Server-sent events: each event (its `data` as text) as the event-stream format reads it. */
async function* events(texts: AsyncIterable<string>, limit: number): AsyncGenerator<EventFields | Unreadable> {
  const lines = new LineReader();
  const pending = pendingEvent();
  const state: EventStreamState = { lastEventId: "", retry: 0 };
  for await (const text of texts) {
    for (const line of lines.push(text)) {
      const event = readEventLine(line, pending, state);
      if (event !== undefined) yield event;
    }
    if (pending.data.length > limit) return yield tooLong(limit);
  }
}

/**
 * The parts of multipart/mixed, an item each, cut at the boundary the Content-Type names and read
 * by the Encoding Object of their position (a JSON part parsed, a text part its text, any other a
 * Blob of its bytes; `{ headers, body }` where the encoding declares headers); a part of a media
 * type its encoding does not take, or without a header it requires, is unreadable, and so are
 * parts that end without the close delimiter (cut short).
 */
async function* parts(
  chunks: AsyncIterable<Uint8Array>,
  boundary: string | undefined,
  encodings: PartEncodings | undefined,
  limit: number,
): AsyncGenerator<unknown> {
  if (boundary === undefined)
    return yield new Unreadable("multipart", "cannot be read: the Content-Type names no boundary (`boundary=…`)");
  const splitter = new PartSplitter(boundary);
  let index = 0;
  for await (const chunk of chunks) {
    for (const part of splitter.push(chunk)) {
      try {
        yield partItem(part, encodingAt(encodings, index++));
      } catch (error) {
        return yield new Unreadable(
          error instanceof PartError ? error.keyword : "multipart",
          error instanceof Error ? error.message : String(error),
        );
      }
    }
    if (splitter.pending > limit) return yield tooLong(limit);
  }
  if (!splitter.closed) yield new Unreadable("multipart", "is cut short: the parts end without the close delimiter");
}

function tooLong(limit: number): Unreadable {
  return new Unreadable("maxLength", `is longer than ${limit} bytes, the most an item may be`);
}
