/**
 * A call whose body or success answer may be a sequence of items: a body of items is streamed as
 * they come, one cut short by its check fails the call with the check's error, and a stream of
 * items keeps the call's scope (its timeout) until the items are over. Only the routes of
 * operations that send or answer such sequences name these (`encoders.stream`), so the engine of
 * a page without one holds none of it.
 */
import type { CallRoute, StreamCalls } from "../route-types.js";

/** The items of a success answer declared as a sequence; undefined for any other answer. */
export type ItemsOf = (
  route: CallRoute,
  response: Response,
  checked: boolean,
  init: RequestInit,
  resend: (init: RequestInit) => Promise<Response>,
  done: () => void,
) => AsyncIterable<unknown> | undefined;

/** Calls whose answers, where `itemsOf` finds a sequence, are read as their items. */
export function streamedCalls(itemsOf?: ItemsOf): StreamCalls {
  return {
    async call(route, init, respond, read, attempt, checked, close) {
      // a body of items is streamed as they come: fetch takes a stream with `duplex: "half"` only
      if (typeof ReadableStream !== "undefined" && init.body instanceof ReadableStream)
        (init as RequestInit & { duplex: "half" }).duplex = "half";
      let streamed = false;
      try {
        const response = await respond();
        const items = itemsOf?.(route, response, checked, init, (again) => attempt(undefined, again), close);
        if (items === undefined) return await read(response);
        streamed = true;
        return items;
      } catch (error) {
        // a body of items cut short by its check fails the call with the check's error, whatever
        // the server or the network made of the cut
        throw route.encoders?.body?.cut?.(init.body) ?? error;
      } finally {
        if (!streamed) close();
      }
    },
  };
}

/** What the route of an operation whose body may be a sequence of items, and no answer is, names as its `encoders.stream`. */
export const itemBodyCalls: StreamCalls = /* @__PURE__ */ streamedCalls();
