/**
 * Request bodies that are sequences of items (an OpenAPI 3.2 `itemSchema`), streamed as they come;
 * every other body is body.ts's. Only routes of operations whose body may be such a sequence name
 * this encoder (`encoders.body`), so no other page bundles the framing of items.
 */
import type { BodyEncoder, SequenceKind } from "../route-types.js";
import { frameItem } from "../sequences.js";
import { bodyEncoder, encodeBody } from "./body.js";

/**
 * A body that is a sequence of items (an OpenAPI 3.2 `itemSchema`): each item of the iterable, or
 * async iterable, framed as its media type says and sent as it comes (the stream asks for the next
 * item only when fetch has taken the one before).
 */
function itemStream(items: unknown, sequence: SequenceKind): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let iterator: AsyncIterator<unknown> | Iterator<unknown> | undefined;
  return new ReadableStream<Uint8Array>({
    start() {
      if (typeof items !== "object" || items === null) throw new TypeError("a body of items is not an iterable");
      iterator =
        Symbol.asyncIterator in items
          ? (items as AsyncIterable<unknown>)[Symbol.asyncIterator]()
          : (items as Iterable<unknown>)[Symbol.iterator]();
    },
    async pull(controller) {
      const next = await iterator?.next();
      if (next === undefined || next.done === true) return controller.close();
      controller.enqueue(encoder.encode(frameItem(next.value, sequence)));
    },
    async cancel() {
      await iterator?.return?.();
    },
  });
}

/** The body encoder of the routes whose body may be a sequence of items: body.ts's, with the items streamed. */
export const itemBodyEncoder: BodyEncoder = {
  ...bodyEncoder,
  encode: (content, body) =>
    content.sequence === undefined ? encodeBody(content, body) : itemStream(body, content.sequence),
};
