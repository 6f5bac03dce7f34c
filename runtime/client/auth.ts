/**
 * Credentials, placed as the route table's security requirements say: apiKey in a header, the
 * query or a cookie; http bearer and basic (and oauth2/openIdConnect tokens) in Authorization.
 * The engine places API keys in headers itself; a route whose security has any other scheme names
 * this module (`Route.encoders.auth`), so a page whose operations take header keys alone does not
 * bundle it.
 */
import type {
  AuthEncoder,
  BasicCredentials,
  CallRoute,
  CredentialPlacement,
  Credentials,
  RouteSecurityScheme,
} from "../route-types.js";

export type { BasicCredentials, CredentialPlacement, Credentials };

type Presented = string | BasicCredentials | true;

/**
 * The first alternative of the route's requirements that the credentials satisfy, placed. An empty
 * alternative (`{}`: authentication optional) is skipped so that credentials, when given, are
 * still sent; nothing is sent when no alternative is satisfied (the server answers 401).
 */
export function placeCredentials(route: CallRoute, credentials: Credentials): CredentialPlacement {
  const headers: Record<string, string> = {};
  const query: string[] = [];
  const cookies: string[] = [];
  for (const alternative of route.security) {
    const values = alternative.map((scheme) => present(scheme, credentials));
    if (values.length === 0 || values.some((value) => value === undefined)) continue;
    for (const [index, scheme] of alternative.entries())
      place(scheme, values[index] as Presented, headers, query, cookies);
    break;
  }
  if (cookies.length > 0) headers["cookie"] = cookies.join("; ");
  return { headers, query: query.join("&") };
}

function present(scheme: RouteSecurityScheme, credentials: Credentials): Presented | undefined {
  const own = credentials.credentials?.[scheme.scheme];
  if (own !== undefined) return own;
  switch (scheme.type) {
    case "apiKey":
      return credentials.apiKey;
    case "http":
      if (scheme.httpScheme === "basic") return credentials.basic;
      return scheme.httpScheme === "bearer" ? credentials.bearerToken : undefined;
    case "oauth2":
    case "openIdConnect":
      return credentials.bearerToken;
    default:
      return true;
  }
}

function place(
  scheme: RouteSecurityScheme,
  value: Presented,
  headers: Record<string, string>,
  query: string[],
  cookies: string[],
): void {
  if (value === true) return;
  if (scheme.type === "apiKey") {
    const name = scheme.name ?? "";
    const text = typeof value === "string" ? value : `${value.username}:${value.password}`;
    if (scheme.in === "query") query.push(`${encodeURIComponent(name)}=${encodeURIComponent(text)}`);
    else if (scheme.in === "cookie") cookies.push(`${name}=${encodeURIComponent(text)}`);
    else headers[name.toLowerCase()] = text;
    return;
  }
  headers["authorization"] = authorization(scheme, value);
}

function authorization(scheme: RouteSecurityScheme, value: string | BasicCredentials): string {
  const httpScheme = scheme.type === "http" ? (scheme.httpScheme ?? "bearer") : "bearer";
  const label = httpScheme.charAt(0).toUpperCase() + httpScheme.slice(1);
  if (typeof value === "string") return `${label} ${value}`;
  return `${label} ${base64(`${value.username}:${value.password}`)}`;
}

/** Base64 of the text's UTF-8 bytes (btoa alone only takes Latin-1). */
function base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The credential placement the route of each operation with other schemes than header API keys names. */
export const authEncoder: AuthEncoder = { place: placeCredentials };
