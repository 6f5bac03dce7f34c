/**
 * Cookie parameters: the `Cookie` header read with the `cookie` package (a peer dependency, needed
 * only by APIs with cookie parameters, whose server and MSW entry import this module and pass it
 * to the pipeline). Values are kept as sent, still percent-encoded, so that parameters.ts splits a
 * list at its literal commas before it decodes the items, as it does for the query.
 */
import { parseCookie } from "cookie";
import type { CookieReader } from "./parameters.js";

/** The cookies of a `Cookie` header by name, as sent; the first of a repeated name. */
export const readCookies: CookieReader = (header) =>
  header === undefined || header === "" ? {} : parseCookie(header, { decode: (value) => value });
