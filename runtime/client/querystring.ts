/**
 * The query string as one value (an OpenAPI 3.2 `in: querystring` parameter), written as its
 * media type says: a URL-encoded form (scalars as `name=value`, a list of scalars repeating its
 * name, nested objects and lists in brackets, `filter[min]=3`), JSON text percent-encoded whole
 * (`?%7B%22origin%22%3A%22LHR%22%7D`), or any other media type's text percent-encoded. A route
 * names this encoder only when its operation has such a parameter, so no other page bundles it.
 */
import type { QuerystringEncoder, RouteQuerystring } from "../route-types.js";
import { deepEntries, definedEntries, isPlainObject, scalar, textLeaves } from "./values.js";

/** The query string (without "?") of a querystring parameter's value; "" when there is nothing to send. */
function encode(querystring: RouteQuerystring, value: unknown): string {
  if (value === undefined) return "";
  switch (querystring.kind) {
    case "form":
      return formPairs(value).join("&");
    case "json":
      return encodeURIComponent(JSON.stringify(value));
    default:
      return encodeURIComponent(scalar(value));
  }
}

/** A form's encoded pairs: a list of scalars repeats its name, nested values go in brackets. */
function formPairs(value: unknown): string[] {
  if (!isPlainObject(value)) return [];
  const leaves: [string, string][] = [];
  for (const [name, field] of definedEntries(value)) {
    const key = encodeURIComponent(name);
    if (Array.isArray(field) && !field.some((item) => Array.isArray(item) || isPlainObject(item)))
      for (const item of field) leaves.push([key, scalar(item)]);
    else deepEntries(key, field, encodeURIComponent, leaves);
  }
  return leaves.map(([key, text]) => `${key}=${encodeURIComponent(text)}`);
}

/** The value as the server reads it back: a form's fields as texts, JSON as parsed, other text as it is. */
function asSent(querystring: RouteQuerystring, value: unknown): unknown {
  if (value === undefined) return undefined;
  switch (querystring.kind) {
    case "form":
      return isPlainObject(value) ? textLeaves(value) : {};
    case "json":
      return JSON.parse(JSON.stringify(value)) as unknown;
    default:
      return scalar(value);
  }
}

/** The encoder the route of each operation with an `in: querystring` parameter names (`Route.encoders.querystring`). */
export const querystringEncoder: QuerystringEncoder = {
  encode,
  asSent,
  queryOf: (route, values) => (route.querystring === undefined ? "" : encode(route.querystring, values)),
  check(route, values, collect) {
    const { querystring } = route;
    const validator = route.validators.query;
    if (validator === undefined || querystring === undefined) return;
    const sent = asSent(querystring, values.query);
    if (sent !== undefined || querystring.required) collect("query", validator, sent);
  },
};
