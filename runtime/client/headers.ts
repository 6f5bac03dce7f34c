/**
 * Header parameters on the wire: style simple (arrays comma-joined, objects as `k,v`, or `k=v`
 * exploded), or content (JSON text); and read back as the server reads them.
 */
import type { CallRoute, HeaderEncoder, RouteParameter } from "../route-types.js";
import { defineOwn, own, simpleValue } from "./values.js";

/** A header value (style simple): arrays comma-joined, objects as `k,v` (or `k=v` exploded). */
export function headerValue(value: unknown, explode: boolean): string {
  return simpleValue(value, explode, String);
}

/** The header a declared parameter sends: JSON text for style content, else `headerValue`. */
export function headerText(parameter: RouteParameter | undefined, value: unknown): string {
  if (parameter?.style === "content") return JSON.stringify(value) ?? "";
  return headerValue(value, parameter?.explode ?? false);
}

/**
 * The declared headers as the server reads them back, keyed as the spec spells them: the text,
 * or list of texts (split at commas, as the server splits them), of each; a `content` one as it is.
 */
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

/** Writes a call's headers into `headers`, lower-cased: declared ones in their style, others as simple values. */
function writeHeaders(
  route: CallRoute,
  values: Readonly<Record<string, unknown>>,
  headers: Record<string, string>,
): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    headers[lower] = headerText(
      route.headers.find((h) => h.name.toLowerCase() === lower),
      value,
    );
  }
}

/**
 * The header encoder the route of each operation with header parameters names (`Route.encoders`):
 * a page whose operations have none does not bundle it.
 */
export const headerEncoder: HeaderEncoder = {
  write: writeHeaders,
  asSent: headersAsSent,
  check(route, values, collect) {
    const validator = route.validators.headers;
    if (validator !== undefined) collect("header", validator, headersAsSent(route.headers, values.headers ?? {}));
  },
};
