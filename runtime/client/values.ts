/**
 * A call's values as text, the same for every place they travel (path, query, headers, cookies,
 * form bodies): scalars as text, lists and objects item by item. Only own properties are read, so
 * a parameter named like an Object.prototype member ("constructor") that the call leaves out is
 * missing, and "__proto__" stays an own data key.
 */

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

/** An object's properties that have a value. */
export function definedEntries(value: Readonly<Record<string, unknown>>): [string, unknown][] {
  return Object.entries(value).filter((entry) => entry[1] !== undefined);
}

/**
 * A value of style simple (path segments, headers): arrays comma-joined, objects as `k,v` (`k=v`
 * exploded), each item through `encode`.
 */
export function simpleValue(value: unknown, explode: boolean, encode: (text: string) => string): string {
  if (Array.isArray(value)) return value.map((item) => encode(scalar(item))).join(",");
  if (!isPlainObject(value)) return encode(scalar(value));
  const separator = explode ? "=" : ",";
  return definedEntries(value)
    .map(([key, item]) => `${encode(key)}${separator}${encode(scalar(item))}`)
    .join(",");
}

/** A value with its leaves as text: what a server reads back from lists and objects sent as text. */
export function textLeaves(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(textLeaves);
  if (!isPlainObject(value)) return scalar(value);
  const out: Record<string, unknown> = {};
  for (const [key, item] of definedEntries(value)) defineOwn(out, key, textLeaves(item));
  return out;
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

/** An own property's value; undefined for an inherited one ("constructor", "toString"). */
export function own(values: Readonly<Record<string, unknown>>, name: string): unknown {
  return Object.hasOwn(values, name) ? values[name] : undefined;
}

/** Sets `key` as an own data property, "__proto__" included. */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * `headers` with the values of `given` put in as their text under their names in lower case,
 * those undefined left out (the client's headers, once; each call's headers, then its own).
 */
export function putHeaders(
  headers: Record<string, string>,
  given: Readonly<Record<string, unknown>> | undefined,
): Record<string, string> {
  for (const [name, value] of Object.entries(given ?? {}))
    if (value !== undefined) headers[name.toLowerCase()] = String(value);
  return headers;
}

/**
 * Writes the headers a call is given into `headers` as their text, lower-cased: those of a call
 * whose route declares no header parameters (see `ParameterEncoder.write`).
 */
export function writeHeaderTexts(
  _route: unknown,
  values: { readonly headers?: Readonly<Record<string, unknown>> },
  headers: Record<string, string>,
): void {
  putHeaders(headers, values.headers);
}
