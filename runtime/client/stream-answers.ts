/**
 * A call's success answer that is a sequence of items, handed to the stream reader (streams.ts)
 * with what it needs of the call: the items' validators, the call's signal, a way to ask again
 * after a dropped connection, and the end of the call's scope. Only routes of operations that
 * answer such sequences name this module (`encoders.stream`), so a page without one holds none
 * of it.
 */
import { mediaTypeEssence } from "../media-types.js";
import type { CallRoute, RouteContent, StreamCalls } from "../route-types.js";
import { declaredContents, readFailure } from "./response.js";
import { type ItemsOf, streamedCalls } from "./streamed-calls.js";
import { streamReader } from "./streams.js";

/** The items of a success answer declared as a sequence, as they arrive; undefined for any other answer. */
const answer: ItemsOf = (route, response, checked, init, resend, done) => {
  const content = sequenceContent(route, response);
  if (content === undefined) return undefined;
  const validators = route.validators;
  const status = String(response.status);
  return streamReader.read(content, response, {
    operationId: route.operationId,
    item: checked ? validators.items?.[status]?.[content.mediaType] : undefined,
    data: checked ? validators.itemData?.[status]?.[content.mediaType] : undefined,
    jsonData: validators.itemData?.[status]?.[content.mediaType] !== undefined,
    whole: checked ? validators.sequences?.[status]?.[content.mediaType] : undefined,
    signal: init.signal ?? undefined,
    reconnect: async (lastEventId) => {
      const headers = { ...(init.headers as Record<string, string>) };
      if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
      const again = await resend({ ...init, headers });
      if (!again.ok) throw await readFailure(route, again);
      return again;
    },
    done,
  });
};

/** The declared content of a success answer that is a sequence of items, by the answer's media type. */
function sequenceContent(route: CallRoute, response: Response): RouteContent | undefined {
  const type = response.headers.get("content-type");
  const essence = type === null ? "" : mediaTypeEssence(type);
  return declaredContents(route, response.status)?.find(
    (content) => content.sequence !== undefined && mediaTypeEssence(content.mediaType) === essence,
  );
}

/** What the route of each operation that answers a sequence of items names as its `encoders.stream`. */
export const streamAnswers: StreamCalls = /* @__PURE__ */ streamedCalls(answer);
