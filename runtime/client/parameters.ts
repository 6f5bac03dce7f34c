/**
 * Parameters on the wire: path templates filled with encodeURIComponent (style simple), query
 * strings per style and explode (form, spaceDelimited, pipeDelimited, deepObject, content), and
 * header values (style simple, or content: JSON text). Only own properties of the call's values
 * are read, so a parameter named like an Object.prototype member ("constructor") that the call
 * leaves out is missing. A delimiter inside a delimited item is percent-encoded (a space as "+",
 * since spaceDelimited's delimiter is "%20"), so the server, splitting before it decodes, keeps it
 * in its item; an empty array is not sent at all, as it cannot be told from [""] or from absence.
 */
import type {
  CallRoute,
  IssueCollector,
  ParameterEncoder,
  ParametersAsSent,
  ParameterValues,
  PathTemplate,
  RouteParameter,
  StyleEncoder,
} from "../route-types.js";
import { RequestValidationError } from "./errors.js";

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

/** Encoded query pairs ("a=1&b=x%20y") of the declared parameters that have a value. */
export function encodeQuery(parameters: readonly RouteParameter[], values: Readonly<Record<string, unknown>>): string {
  const pairs: string[] = [];
  for (const parameter of parameters) {
    const value = own(values, parameter.name);
    if (value !== undefined) encodeQueryParameter(parameter, value, pairs);
  }
  return pairs.join("&");
}

function encodeQueryParameter(parameter: RouteParameter, value: unknown, pairs: string[]): void {
  const name = encodeURIComponent(parameter.name);
  switch (parameter.style) {
    case "deepObject":
      return encodeDeep(name, value, pairs);
    case "content":
      return void pairs.push(`${name}=${encodeURIComponent(JSON.stringify(value))}`);
    case "spaceDelimited":
      return encodeForm(name, value, parameter.explode, "%20", pairs);
    case "pipeDelimited":
      return encodeForm(name, value, parameter.explode, "|", pairs);
    default:
      return encodeForm(name, value, parameter.explode, ",", pairs);
  }
}

/**
 * form: exploded arrays repeat the name, exploded objects give one pair per property; otherwise
 * the items (or keys and values) are joined with the delimiter, each percent-encoded. An empty
 * array sends nothing.
 */
function encodeForm(name: string, value: unknown, explode: boolean, delimiter: string, pairs: string[]): void {
  if (Array.isArray(value)) {
    if (value.length === 0) return;
    if (explode) for (const item of value) pairs.push(`${name}=${encodeURIComponent(scalar(item))}`);
    else pairs.push(`${name}=${value.map((item) => encodeItem(scalar(item), delimiter)).join(delimiter)}`);
  } else if (isPlainObject(value)) {
    const entries = definedEntries(value);
    if (explode)
      for (const [key, item] of entries) pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(scalar(item))}`);
    else
      pairs.push(
        `${name}=${entries.map(([key, item]) => `${encodeItem(key, delimiter)}${delimiter}${encodeItem(scalar(item), delimiter)}`).join(delimiter)}`,
      );
  } else {
    pairs.push(`${name}=${encodeURIComponent(scalar(value))}`);
  }
}

/** An item of a delimited value, percent-encoded; with spaceDelimited's "%20" delimiter, a space in it as "+". */
function encodeItem(text: string, delimiter: string): string {
  const encoded = encodeURIComponent(text);
  return delimiter === "%20" ? encoded.replaceAll("%20", "+") : encoded;
}

/** deepObject: `name[key]=value`, nested objects as `name[a][b]`, arrays as `name[key][0]`. */
function encodeDeep(name: string, value: unknown, pairs: string[]): void {
  const leaves: [string, string][] = [];
  deepEntries(name, value, encodeURIComponent, leaves);
  for (const [key, text] of leaves) pairs.push(`${key}=${encodeURIComponent(text)}`);
}

/** The leaves of a nested value under bracketed keys (`a[b][0]`): deepObject, nested form fields. */
export function deepEntries(
  prefix: string,
  value: unknown,
  encodeKey: (key: string) => string,
  out: [string, string][],
): void {
  if (Array.isArray(value))
    for (const [index, item] of value.entries()) deepEntries(`${prefix}[${index}]`, item, encodeKey, out);
  else if (isPlainObject(value))
    for (const [key, item] of definedEntries(value)) deepEntries(`${prefix}[${encodeKey(key)}]`, item, encodeKey, out);
  else out.push([prefix, scalar(value)]);
}

/** A header value (style simple): arrays comma-joined, objects as `k,v` (or `k=v` exploded). */
export function headerValue(value: unknown, explode: boolean): string {
  return simpleValue(value, explode, String);
}

/** The header a declared parameter sends: JSON text for style content, else `headerValue`. */
export function headerText(parameter: RouteParameter | undefined, value: unknown): string {
  if (parameter?.style === "content") return JSON.stringify(value) ?? "";
  return headerValue(value, parameter?.explode ?? false);
}

function simpleValue(value: unknown, explode: boolean, encode: (text: string) => string): string {
  if (Array.isArray(value)) return value.map((item) => encode(scalar(item))).join(",");
  if (!isPlainObject(value)) return encode(scalar(value));
  const separator = explode ? "=" : ",";
  return definedEntries(value)
    .map(([key, item]) => `${encode(key)}${separator}${encode(scalar(item))}`)
    .join(",");
}

/**
 * The parameters as the server will read them off the wire: the text of each path parameter, the
 * text (or list of texts, or object of texts for deepObject) of each declared query parameter,
 * and of each declared header. The client checks this with the validator the server runs on what
 * it reads, so the two agree on every value: an integer 2^53, sent as "9007199254740992", is
 * refused by both. Parameters sent as JSON (`content`) are checked as they are.
 */
export function pathAsSent(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values))
    if (value !== undefined && value !== null) defineOwn(out, name, simpleValue(value, false, String));
  return out;
}

/**
 * The declared query parameters as the server reads them (see `pathAsSent`): a value that sends
 * nothing (an empty array) is missing; an exploded form object is read by its declared properties.
 */
export function queryAsSent(
  parameters: readonly RouteParameter[],
  values: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const sent: string[] = [];
  for (const parameter of parameters) {
    const value = own(values, parameter.name);
    if (value === undefined) continue;
    sent.length = 0;
    encodeQueryParameter(parameter, value, sent);
    if (sent.length === 0) continue;
    if (parameter.style === "content") defineOwn(out, parameter.name, value);
    else if (parameter.array) defineOwn(out, parameter.name, (Array.isArray(value) ? value : [value]).map(scalar));
    else if (!isPlainObject(value)) defineOwn(out, parameter.name, scalar(value));
    else {
      const read = declaredOnly(parameter, value);
      if (read !== undefined) defineOwn(out, parameter.name, textLeaves(read));
    }
  }
  return out;
}

/**
 * An exploded form object's declared properties (undefined when it has none): the others are
 * sent, but the server does not read them.
 */
function declaredOnly(
  parameter: RouteParameter,
  value: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> | undefined {
  const properties = parameter.properties;
  if (properties === undefined || !parameter.explode || parameter.style !== "form") return value;
  let out: Record<string, unknown> | undefined;
  for (const name of properties) {
    const item = own(value, name);
    if (item === undefined) continue;
    out ??= {};
    defineOwn(out, name, item);
  }
  return out;
}

/** The declared headers as the server reads them (see `pathAsSent`); `values` keyed as the spec spells them. */
export function headersAsSent(
  parameters: readonly RouteParameter[],
  values: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const parameter of parameters) {
    const value = own(values, parameter.name);
    if (value === undefined) continue;
    if (parameter.style === "content") {
      defineOwn(out, parameter.name, value);
      continue;
    }
    const text = headerValue(value, parameter.explode);
    defineOwn(out, parameter.name, parameter.array ? text.split(",").map((item) => item.trim()) : text);
  }
  return out;
}

export function textLeaves(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(textLeaves);
  if (!isPlainObject(value)) return scalar(value);
  const out: Record<string, unknown> = {};
  for (const [key, item] of definedEntries(value)) defineOwn(out, key, textLeaves(item));
  return out;
}

/** An own property's value; undefined for an inherited one ("constructor", "toString"). */
function own(values: Readonly<Record<string, unknown>>, name: string): unknown {
  return Object.hasOwn(values, name) ? values[name] : undefined;
}

function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** One value as text: strings as they are, dates as ISO 8601, objects as JSON, null as "". */
export function scalar(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** An object that is not an array or a Date: its properties are serialised one by one. */
export function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

export function definedEntries(value: Readonly<Record<string, unknown>>): [string, unknown][] {
  return Object.entries(value).filter((entry) => entry[1] !== undefined);
}

const EMPTY: Readonly<Record<string, unknown>> = Object.freeze({});

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
  const query = values.query === undefined ? "" : encodeQuery(route.query, values.query);
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
  return {
    path: styles?.pathAsSent(route, values.path ?? EMPTY, path) ?? path,
    query: queryAsSent(route.query, values.query ?? EMPTY),
    headers: headersAsSent(route.headers, values.headers ?? EMPTY),
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

/** Writes a call's header parameters (see `ParameterEncoder.writeHeaders`). */
function writeHeaders(
  route: CallRoute,
  values: Readonly<Record<string, unknown>>,
  headers: Record<string, string>,
): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    // a header the route does not declare is sent as the text it is given
    headers[lower] = headerText(
      route.headers.find((h) => h.name.toLowerCase() === lower),
      value,
    );
  }
}

/**
 * The parameter encoder the route of each operation with parameters names (`Route.encoders`): a
 * page whose operations have none does not bundle this module's encoding.
 */
export const parameterEncoder: ParameterEncoder = { urlOf, writeHeaders, check };
