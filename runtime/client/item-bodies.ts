/**
 * Request bodies that are sequences of items (an OpenAPI 3.2 `itemSchema`), streamed as they come;
 * every other body is body.ts's. Only routes of operations whose body may be such a sequence name
 * this encoder (`encoders.body`), so no other page bundles the framing of items.
 */
import type { BodyEncoder, RouteContent, SequenceKind } from "../route-types.js";
import { sequenceWriter, withBoundary } from "../sequences.js";
import { bodyEncoder, encodeBody } from "./body.js";

/**
 * A body that is a sequence of items (an OpenAPI 3.2 `itemSchema`): each item of the iterable, or
 * async iterable, framed as its media type says and sent as it comes (the stream asks for the next
 * item only when fetch has taken the one before).
 */
function itemStream(
  items: unknown,
  content: RouteContent & { readonly sequence: SequenceKind },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const writer = sequenceWriter(content.sequence, content.parts);
  let iterator: AsyncIterator<unknown> | Iterator<unknown> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start() {
      if (typeof items !== "object" || items === null) throw new TypeError("a body of items is not an iterable");
      iterator =
        Symbol.asyncIterator in items
          ? (items as AsyncIterable<unknown>)[Symbol.asyncIterator]()
          : (items as Iterable<unknown>)[Symbol.iterator]();
    },
    async pull(controller) {
      const next = await iterator?.next();
      if (next === undefined || next.done === true) {
        const end = writer.end();
        if (end !== "") controller.enqueue(encoder.encode(end));
        return controller.close();
      }
      const frame = await writer.item(next.value);
      controller.enqueue(typeof frame === "string" ? encoder.encode(frame) : frame);
    },
    async cancel() {
      await iterator?.return?.();
    },
  });
  if (writer.boundary !== undefined) BOUNDARIES.set(stream, writer.boundary);
  return stream;
}

/** The boundary of each multipart/mixed body of items, which its Content-Type names. */
const BOUNDARIES = new WeakMap<object, string>();

/**
 * The body encoder of the routes whose body may be a sequence of items: body.ts's, with the items
 * streamed, and multipart/mixed items sent with the boundary of the body encoded.
 */
export const itemBodyEncoder: BodyEncoder = {
  ...bodyEncoder,
  encode: (content, body) =>
    content.sequence === undefined
      ? encodeBody(content, body)
      : itemStream(body, { ...content, sequence: content.sequence }),
  contentType: (content, body) =>
    content.sequence === "multipart"
      ? withBoundary(content.mediaType, typeof body === "object" && body !== null ? BOUNDARIES.get(body) : undefined)
      : bodyEncoder.contentType(content),
};
