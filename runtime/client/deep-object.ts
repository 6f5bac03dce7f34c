/**
 * Query parameters of style deepObject: `name[key]=value`, nested objects as `name[a][b]`, arrays
 * as `name[key][0]`; the route of an operation with one names this module's encoder, which writes
 * the route's other query parameters as query.ts does.
 */
import type { QueryEncoder, RouteParameter } from "../route-types.js";
import { queryEncoderOf, writeQueryParameter } from "./query.js";
import { deepEntries } from "./values.js";

/** Writes a deepObject parameter's pairs, any other as query.ts does. */
function writeDeepOrOther(parameter: RouteParameter, value: unknown, pairs: string[]): void {
  if (parameter.style !== "deepObject") return writeQueryParameter(parameter, value, pairs);
  const leaves: [string, string][] = [];
  deepEntries(encodeURIComponent(parameter.name), value, encodeURIComponent, leaves);
  for (const [key, text] of leaves) pairs.push(`${key}=${encodeURIComponent(text)}`);
}

/**
 * The query encoder the route of each operation with a deepObject query parameter names
 * (`Route.encoders`): a page whose operations have none does not bundle this style.
 */
export const deepObjectQueryEncoder: QueryEncoder = /* @__PURE__ */ queryEncoderOf(writeDeepOrOther);
