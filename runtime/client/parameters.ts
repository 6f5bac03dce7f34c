/**
 * Parameters on the wire: the path template filled with encodeURIComponent (style simple; label
 * and matrix are styles.ts's), the call's URL with its query string, and the checks of the call's
 * path parameters as the server reads them back; query and header parameters are written, read
 * back and checked by the encoders their route names for them (query.ts, deep-object.ts,
 * querystring.ts, headers.ts), so an operation brings only the encoding of the places and styles
 * its parameters use; an operation whose only parameters are scalar path parameters of style
 * simple brings path-parameters.ts's encoder instead of this one. Only own properties of the
 * call's values are read (values.ts).
 */
import type { CallRoute, IssueCollector, ParameterEncoder, ParameterValues, QueryPart } from "../route-types.js";
import { fillWith, textsOf } from "./path-parameters.js";
import { simpleValue, writeHeaderTexts } from "./values.js";

/**
 * The path with each placeholder replaced by its encoded value (`styled` gives that of a label or
 * matrix parameter, styles.ts; a label's "" or "." is written so); a call with a parameter that
 * is missing, or that is a dot segment, is refused with the client's RequestValidationError
 * (path-parameters.ts's `fillWith`).
 */
export function fillPath(
  operationId: string,
  path: string,
  values: Readonly<Record<string, unknown>>,
  styled?: (name: string, value: unknown) => string | undefined,
): string {
  return fillWith(
    operationId,
    path,
    values,
    (name, value) => styled?.(name, value) ?? simpleValue(value, false, encodeURIComponent),
  );
}

/**
 * The path parameters as the server will read them off the wire: the text of each. The client
 * checks a call's parameters as the server reads them (this, and what the route's query and
 * header encoders give) with the validators the server runs, so the two agree on every value: an
 * integer 2^53, sent as "9007199254740992", is refused by both.
 */
export function pathAsSent(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return textsOf(values, (value) => simpleValue(value, false, String));
}

/**
 * How an operation's calls make their URL (see `ParameterEncoder.urlOf`): the path filled, then
 * the query string, `authQuery` (a query credential) last; a call whose path cannot be filled is
 * refused with the client's RequestValidationError.
 */
function urlOf(
  route: CallRoute,
  base: string,
  authQuery: string | undefined,
): ((values: ParameterValues) => string) | undefined {
  if (route.pathParams.length + route.query.length === 0 && route.querystring === undefined) return undefined;
  return (values) => {
    const writer = route.encoders?.styles?.pathWriter(route);
    const path = fillPath(route.operationId, route.path, values.path ?? {}, writer);
    const query = values.query === undefined ? "" : (queryPart(route)?.queryOf(route, values.query) ?? "");
    const all = query === "" ? authQuery : authQuery ? `${query}&${authQuery}` : query;
    return base + (all ? `${path}?${all}` : path);
  };
}

/** The encoder of a call's query string: its `in: querystring` parameter's, or its query parameters'. */
function queryPart(route: CallRoute): QueryPart | undefined {
  return route.querystring === undefined ? route.encoders?.query : route.encoders?.querystring;
}

/**
 * Checks a call's path, query, header and cookie parameters as the server reads them back (the
 * path's here, with its label and matrix ones by the style encoder; the others by the route's
 * query, header and style encoders, which hold their checks) with the route's validators of those
 * it has.
 */
function check(route: CallRoute, values: ParameterValues, collect: IssueCollector): void {
  const styles = route.encoders?.styles;
  const pathParams = route.validators.pathParams;
  if (pathParams !== undefined) {
    const given = values.path ?? {};
    const path = pathAsSent(given);
    collect("path", pathParams, styles?.pathAsSent(route, given, path) ?? path);
  }
  queryPart(route)?.check(route, values, collect);
  route.encoders?.headers?.check(route, values, collect);
  styles?.checkCookies(route, values.cookies ?? {}, collect);
}

/**
 * Writes a call's headers (its header parameters in their style by the route's header encoder,
 * any others as their text), then its cookies (by the style encoder).
 */
function write(route: CallRoute, values: ParameterValues, headers: Record<string, string>): void {
  const declared = route.encoders?.headers;
  if (declared === undefined) writeHeaderTexts(route, values, headers);
  else declared.write(route, values.headers ?? {}, headers);
  if (values.cookies !== undefined) route.encoders?.styles?.writeCookies(route, values.cookies, headers);
}

/**
 * The parameter encoder the route of each operation with path, query, header or cookie parameters
 * names (`Route.encoders`), beside the query, header and style encoders of those it has: a page
 * whose operations have none does not bundle this module.
 */
export const parameterEncoder: ParameterEncoder = { urlOf, check, write };
