/**
 * Request bodies that are sequences of items (an OpenAPI 3.2 `itemSchema`), streamed as they come;
 * every other body is body.ts's. Only routes of operations whose body may be such a sequence name
 * this encoder (`encoders.body`), so no other page bundles the framing of items.
 */
import type { BodyEncoder, CallRoute, RouteContent, SequenceKind, Validator } from "../route-types.js";
import { encodingAt, partValue, sequenceWriter, withBoundary } from "../sequences.js";
import { bodyEncoderOf, bodyEncoding, encodeBody } from "./body.js";
import { RequestValidationError } from "./errors.js";
import { ALL_ERRORS } from "./response.js";

/** Throws the call's RequestValidationError when `value` breaks `validator`, its issues' paths under `at`. */
function checkBody(route: CallRoute, validator: Validator | undefined, value: unknown, at: string): void {
  const result = validator?.(value, ALL_ERRORS);
  if (result !== undefined && !result.valid)
    throw new RequestValidationError(
      route.operationId,
      result.errors.map((error) => ({
        in: "body",
        ...error,
        instancePath: at + error.instancePath,
        // the message names the item's own path ("/2/reason must be ..."), as the server's does
        message: `${at}${error.instancePath} ${error.message.replace(/^\/\S*\s/, "")}`.trimStart(),
      })),
    );
}

/**
 * A body that is a sequence of items (an OpenAPI 3.2 `itemSchema`): each item of the iterable, or
 * async iterable, framed as its media type says and sent as it comes (the stream asks for the next
 * item only when fetch has taken the one before). With `check`, each item is checked before it is
 * framed: one that throws errors the stream, which ends the upload cut short (fetch aborts the
 * request), the items before it sent and nothing of it.
 */
function itemStream(
  items: unknown,
  content: RouteContent & { readonly sequence: SequenceKind },
  check?: (item: unknown, index: number) => void,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const writer = sequenceWriter(content.sequence, content.parts);
  let iterator: AsyncIterator<unknown> | Iterator<unknown> | undefined;
  let index = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
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
        let frame: string | Uint8Array;
        try {
          check?.(next.value, index++);
          frame = await writer.item(next.value);
        } catch (error) {
          CUT.set(stream, error);
          await iterator?.return?.();
          throw error;
        }
        controller.enqueue(typeof frame === "string" ? encoder.encode(frame) : frame);
      },
      async cancel() {
        await iterator?.return?.();
      },
    },
    // no item is read ahead: an item queued when a later one fails would be dropped unsent
    { highWaterMark: 0 },
  );
  if (writer.boundary !== undefined) BOUNDARIES.set(stream, writer.boundary);
  return stream;
}

/** The boundary of each multipart/mixed body of items, which its Content-Type names. */
const BOUNDARIES = new WeakMap<object, string>();

/** The error of the check that cut short each body of items an item broke. */
const CUT = new WeakMap<object, unknown>();

/**
 * The items of a call that checks its request (`checked`, its route): a list, at once, as a whole
 * against the `schema` beside the `itemSchema`; then each item, as it is sent, against the item
 * schema, the issues' paths under the item's index (`/2/reason`).
 */
function encodeItems(content: RouteContent, sequence: SequenceKind, body: unknown, checked?: CallRoute) {
  if (checked === undefined) return itemStream(body, { ...content, sequence });
  const validators = checked.validators;
  if (Array.isArray(body)) checkBody(checked, validators.bodySequences?.[content.mediaType], body, "");
  const item = validators.bodyItems?.[content.mediaType];
  return itemStream(body, { ...content, sequence }, (value, index) => {
    // a multipart/mixed part's body is what the item schema describes, bytes aside (as the server reads it)
    const part = sequence === "multipart" ? partValue(value, encodingAt(content.parts, index)) : undefined;
    if (part?.bytes !== true) checkBody(checked, item, part === undefined ? value : part.body, `/${index}`);
  });
}

/**
 * The body encoder of the routes whose body may be a sequence of items: body.ts's, with the items
 * streamed (and checked, when the call checks its request), and multipart/mixed items sent with
 * the boundary of the body encoded.
 */
export const itemBodyEncoder: BodyEncoder = /* @__PURE__ */ bodyEncoderOf({
  ...bodyEncoding,
  encode: (content, body, checked) =>
    content.sequence === undefined ? encodeBody(content, body) : encodeItems(content, content.sequence, body, checked),
  contentType: (content, body) =>
    content.sequence === "multipart"
      ? withBoundary(content.mediaType, typeof body === "object" && body !== null ? BOUNDARIES.get(body) : undefined)
      : bodyEncoding.contentType(content),
  cut: (body) => (typeof body === "object" && body !== null ? CUT.get(body) : undefined),
});
