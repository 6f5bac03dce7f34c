/**
 * Parameters on the wire: the path template filled with encodeURIComponent (style simple; label
 * and matrix are styles.ts's), the call's URL with its query string, and the checks of the call's
 * parameters as the server reads them back; query and header parameters are written and read
 * back by the encoders their route names for them (query.ts, deep-object.ts, headers.ts), so an
 * operation brings only the encoding of the places and styles its parameters use. Only own
 * properties of the call's values are read (values.ts).
 */
import type {
  CallRoute,
  IssueCollector,
  ParameterEncoder,
  ParametersAsSent,
  ParameterValues,
  PathTemplate,
  StyleEncoder,
} from "../route-types.js";
import { RequestValidationError } from "./errors.js";
import { defineOwn, EMPTY, own, simpleValue } from "./values.js";

export type { PathTemplate };

/** Why a path cannot be filled: a parameter missing, or one that is a dot segment ("." or ".."). */
export type PathRefusal = { readonly missing: string } | { readonly dotSegment: string };

const PLACEHOLDER = /\{([^{}]+)\}/g;

/** Splits a route path at its placeholders, once per operation. */
export function compilePath(path: string): PathTemplate {
  const parts: string[] = [];
  const names: string[] = [];
  let last = 0;
  for (const match of path.matchAll(PLACEHOLDER)) {
    parts.push(path.slice(last, match.index));
    names.push(match[1] ?? "");
    last = (match.index ?? 0) + match[0].length;
  }
  parts.push(path.slice(last));
  return { parts, names };
}

/**
 * The path with each placeholder replaced by its encoded value (`styled` gives that of a label or
 * matrix parameter, styles.ts); else the first parameter that is missing, or whose text is "." or
 * ".." (a dot segment, which URL normalisation would resolve, sending the call to another path;
 * its percent-encoded forms are resolved too, and a label's "" or "." is written so).
 */
export function fillPath(
  template: PathTemplate,
  values: Readonly<Record<string, unknown>>,
  styled?: (name: string, value: unknown) => string | undefined,
): string | PathRefusal {
  let path = template.parts[0] ?? "";
  for (let i = 0; i < template.names.length; i++) {
    const name = template.names[i] as string;
    const value = own(values, name);
    if (value === undefined || value === null) return { missing: name };
    const text = styled?.(name, value) ?? simpleValue(value, false, encodeURIComponent);
    if (isDotSegment(text)) return { dotSegment: name };
    path += text + (template.parts[i + 1] ?? "");
  }
  return path;
}

/** "." or "..", written plainly or percent-encoded (".%2E"), as URL parsers resolve them. */
function isDotSegment(text: string): boolean {
  const plain = text.length <= 6 ? text.replace(/%2e/gi, ".") : text;
  return plain === "." || plain === "..";
}

/**
 * The path parameters as the server will read them off the wire: the text of each. The client
 * checks a call's parameters as the server reads them (this, and what the route's query and
 * header encoders give) with the validators the server runs, so the two agree on every value: an
 * integer 2^53, sent as "9007199254740992", is refused by both.
 */
export function pathAsSent(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values))
    if (value !== undefined && value !== null) defineOwn(out, name, simpleValue(value, false, String));
  return out;
}

/**
 * A call's path and query string ("/workers/7?limit=5"), `authQuery` (a query credential) last;
 * throws the client's RequestValidationError when the path cannot be filled.
 */
export function target(
  route: CallRoute,
  template: PathTemplate,
  values: ParameterValues,
  authQuery: string,
  styles: StyleEncoder | undefined,
): string {
  const path = fillPath(template, values.path ?? EMPTY, styles?.pathWriter(route));
  if (typeof path !== "string") throw pathRefusal(route.operationId, path);
  const query = values.query === undefined ? "" : (route.encoders?.query?.encode(route.query, values.query) ?? "");
  const all = query === "" ? authQuery : authQuery === "" ? query : `${query}&${authQuery}`;
  return all === "" ? path : `${path}?${all}`;
}

/** A call's path, query and header parameters as the server reads them back. */
export function allAsSent(
  route: CallRoute,
  values: ParameterValues,
  styles: StyleEncoder | undefined,
): ParametersAsSent {
  const path = pathAsSent(values.path ?? EMPTY);
  const encoders = route.encoders;
  return {
    path: styles?.pathAsSent(route, values.path ?? EMPTY, path) ?? path,
    query: encoders?.query?.asSent(route.query, values.query ?? EMPTY) ?? {},
    headers: encoders?.headers?.asSent(route.headers, values.headers ?? EMPTY) ?? {},
  };
}

/** The error of a path that cannot be filled: a parameter missing, or a dot segment ("." or ".."). */
function pathRefusal(operationId: string, refusal: PathRefusal): RequestValidationError {
  if ("missing" in refusal) {
    const name = refusal.missing;
    const message = `must have required property '${name}'`;
    return new RequestValidationError(operationId, [
      {
        in: "path",
        instancePath: "",
        schemaPath: "#/required",
        keyword: "required",
        params: { missingProperty: name },
        message,
      },
    ]);
  }
  const name = refusal.dotSegment;
  const pointer = `/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`;
  const message = `${pointer} must not be "." or "..", which would change the path the request is sent to`;
  return new RequestValidationError(operationId, [
    { in: "path", instancePath: pointer, schemaPath: "#/dotSegment", keyword: "dotSegment", params: {}, message },
  ]);
}

/** How an operation's calls make their URL (see `ParameterEncoder.urlOf`): its path compiled once. */
function urlOf(
  route: CallRoute,
  base: string,
  authQuery: string,
  styles: StyleEncoder | undefined,
): ((values: ParameterValues) => string) | undefined {
  if (route.pathParams.length + route.query.length === 0) return undefined;
  const template = compilePath(route.path);
  return (values) => base + target(route, template, values, authQuery, styles);
}

/** Checks a call's path, query and header parameters as the server reads them back, when the route has their validators. */
function check(
  route: CallRoute,
  values: ParameterValues,
  styles: StyleEncoder | undefined,
  collect: IssueCollector,
): void {
  const validators = route.validators;
  if ((validators.pathParams ?? validators.query ?? validators.headers) === undefined) return;
  const sent = allAsSent(route, values, styles);
  collect("path", validators.pathParams, sent.path);
  collect("query", validators.query, sent.query);
  collect("header", validators.headers, sent.headers);
}

/**
 * The parameter encoder the route of each operation with path, query or header parameters names
 * (`Route.encoders`), beside the query and header encoders of those it has: a page whose
 * operations have none does not bundle this module.
 */
export const parameterEncoder: ParameterEncoder = { urlOf, check };
