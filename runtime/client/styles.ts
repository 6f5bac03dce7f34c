/**
 * The parameter styles the route table lists apart: path parameters of style label and matrix,
 * and cookie parameters (style form), serialised as OpenAPI's style tables (RFC 6570) say:
 *
 *   label   ".blue"  ".blue,black" (".blue.black" exploded)  ".R,100,G,200" (".R=100.G=200" exploded)
 *   matrix  ";color=blue"  ";color=blue,black" (";color=blue;color=black" exploded)
 *           ";color=R,100,G,200" (";R=100;G=200" exploded)
 *   cookie  "color=blue"  "color=blue,black"  "color=R,100,G,200", each cookie joined by "; "
 *
 * Items are percent-encoded, so a delimiter inside one is data (a label item's "." too, as "%2E",
 * which the generated server reads back whole and any other decodes as "."). Cookies of arrays and objects are
 * sent comma-separated whatever `explode` says: repeating a cookie's name is not read back by
 * cookie parsers, which keep the first.
 */
import type { RouteParameter, StyleEncoder } from "../route-types.js";
import { definedEntries, isPlainObject, scalar, textLeaves } from "./values.js";

const encode = (value: unknown): string => encodeURIComponent(scalar(value));
const encodeLabel = (value: unknown): string => encode(value).replace(/\./g, "%2E");

/**
 * The style encoder the route of each operation with label, matrix or cookie parameters names
 * (`Route.encoders`): a page whose operations have none does not bundle this module.
 */
export const styleEncoder: StyleEncoder = {
  pathWriter: ({ pathStyles = [] }) => {
    return (name, value) => {
      const parameter = pathStyles.find((p) => p.name === name);
      return parameter === undefined ? undefined : styledPathText(parameter, value);
    };
  },
  writeCookies: ({ cookies = [] }, values, headers) => {
    const header = cookieHeader(cookies, values);
    if (header === "") return;
    const existing = headers["cookie"];
    headers["cookie"] = existing === undefined ? header : `${existing}; ${header}`;
  },
  pathAsSent: ({ pathStyles = [] }, values, sent) => styledAsSent(pathStyles, values, sent),
  checkCookies: (route, values, collect) =>
    collect("cookie", route.validators.cookies, styledAsSent(route.cookies ?? [], values)),
};

/** The text of a label or matrix path parameter, prefix included. */
export function styledPathText(parameter: RouteParameter, value: unknown): string {
  const { name, explode } = parameter;
  const named = encodeURIComponent(name);
  if (parameter.style === "label") {
    if (Array.isArray(value)) return `.${value.map(encodeLabel).join(explode ? "." : ",")}`;
    if (!isPlainObject(value)) return `.${encodeLabel(value)}`;
    const pairs = definedEntries(value).map(([key, item]) => [encodeLabel(key), encodeLabel(item)] as const);
    return `.${pairs.map(([key, item]) => (explode ? `${key}=${item}` : `${key},${item}`)).join(explode ? "." : ",")}`;
  }
  if (Array.isArray(value))
    return explode
      ? value.map((item) => `;${named}=${encode(item)}`).join("")
      : `;${named}=${value.map(encode).join(",")}`;
  if (!isPlainObject(value)) {
    const text = encode(value);
    return text === "" ? `;${named}` : `;${named}=${text}`;
  }
  const pairs = definedEntries(value).map(([key, item]) => [encodeURIComponent(key), encode(item)] as const);
  if (explode) return pairs.map(([key, item]) => `;${key}=${item}`).join("");
  return `;${named}=${pairs.map(([key, item]) => `${key},${item}`).join(",")}`;
}

/** The `Cookie` header of the declared cookie parameters that have a value; "" when none has. */
export function cookieHeader(parameters: readonly RouteParameter[], values: Readonly<Record<string, unknown>>): string {
  const cookies: string[] = [];
  for (const parameter of parameters) {
    const value = Object.hasOwn(values, parameter.name) ? values[parameter.name] : undefined;
    if (value === undefined) continue;
    cookies.push(`${parameter.name}=${cookieValue(parameter, value)}`);
  }
  return cookies.join("; ");
}

function cookieValue(parameter: RouteParameter, value: unknown): string {
  if (parameter.style === "content") return encodeURIComponent(JSON.stringify(value) ?? "");
  if (Array.isArray(value)) return value.map(encode).join(",");
  if (!isPlainObject(value)) return encode(value);
  return definedEntries(value)
    .map(([key, item]) => `${encodeURIComponent(key)},${encode(item)}`)
    .join(",");
}

/**
 * Values as the server reads them back, for the validator the server runs: the text of each item
 * (a list for an array, an object of texts for an object); a `content` parameter as it is.
 */
export function styledAsSent(
  parameters: readonly RouteParameter[],
  values: Readonly<Record<string, unknown>>,
  into: Record<string, unknown> = {},
): Record<string, unknown> {
  for (const parameter of parameters) {
    const value = Object.hasOwn(values, parameter.name) ? values[parameter.name] : undefined;
    if (value === undefined) continue;
    const sent = parameter.style === "content" ? value : textLeaves(value);
    Object.defineProperty(into, parameter.name, { value: sent, writable: true, enumerable: true, configurable: true });
  }
  return into;
}
