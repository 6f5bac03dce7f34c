/**
 * Query parameters on the wire, per style and explode: form (the default), spaceDelimited,
 * pipeDelimited and content (JSON text); deepObject's writer is deep-object.ts's, which a route
 * names only when it has such a parameter. A delimiter inside a delimited item is percent-encoded
 * (a space as "+", since spaceDelimited's delimiter is "%20"), so the server, splitting before it
 * decodes, keeps it in its item; an empty array is not sent at all, as it cannot be told from
 * [""] or from absence.
 */
import type { QueryEncoder, RouteParameter } from "../route-types.js";
import { definedEntries, defineOwn, isPlainObject, own, scalar, textLeaves } from "./values.js";

/** Appends the encoded pairs ("a=1", "b=x%20y") a query parameter's value sends to `pairs`. */
export type QueryWriter = (parameter: RouteParameter, value: unknown, pairs: string[]) => void;

/** Encoded query pairs ("a=1&b=x%20y") of the declared parameters that have a value, each written by `write`. */
export function encodeQuery(
  parameters: readonly RouteParameter[],
  values: Readonly<Record<string, unknown>>,
  write: QueryWriter = writeQueryParameter,
): string {
  const pairs: string[] = [];
  for (const parameter of parameters) {
    const value = own(values, parameter.name);
    if (value !== undefined) write(parameter, value, pairs);
  }
  return pairs.join("&");
}

/** Writes a parameter of style form, spaceDelimited, pipeDelimited or content. */
export function writeQueryParameter(parameter: RouteParameter, value: unknown, pairs: string[]): void {
  const name = encodeURIComponent(parameter.name);
  switch (parameter.style) {
    case "deepObject":
      throw new TypeError(
        `query parameter "${parameter.name}" is of style deepObject: its route names \`queryEncoder\`, which writes none, where it needs \`deepObjectQueryEncoder\` (client/deep-object.ts): run \`npm run generate\` again`,
      );
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

/**
 * The declared query parameters as the server reads them back: the text (or list of texts, or
 * object of texts) of each; a parameter sent as JSON (`content`) as it is. A value that sends
 * nothing (an empty array) is missing; an exploded form object is read by its declared properties.
 */
export function queryAsSent(
  parameters: readonly RouteParameter[],
  values: Readonly<Record<string, unknown>>,
  write: QueryWriter = writeQueryParameter,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const sent: string[] = [];
  for (const parameter of parameters) {
    const value = own(values, parameter.name);
    if (value === undefined) continue;
    sent.length = 0;
    write(parameter, value, sent);
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

/** The query encoder of parameters each written by `write`. */
export function queryEncoderOf(write: QueryWriter): QueryEncoder {
  return {
    encode: (parameters, values) => encodeQuery(parameters, values, write),
    asSent: (parameters, values) => queryAsSent(parameters, values, write),
    queryOf: (route, values) => encodeQuery(route.query, values, write),
    check(route, values, collect) {
      const validator = route.validators.query;
      if (validator !== undefined) collect("query", validator, queryAsSent(route.query, values.query ?? {}, write));
    },
  };
}

/**
 * The query encoder the route of each operation with query parameters names (`Route.encoders`),
 * of every style but deepObject: a page whose operations have no query parameter bundles none.
 */
export const queryEncoder: QueryEncoder = /* @__PURE__ */ queryEncoderOf(writeQueryParameter);
