/**
 * Security from the route table. An operation lists alternatives, any one of which suffices; an
 * alternative lists the schemes it needs together. Each scheme's credential is read from the
 * request (an apiKey header, query parameter or cookie; the Authorization header for http, oauth2
 * and openIdConnect) and the `authenticate` hook decides whether it is valid. A mutualTLS scheme
 * is met by a connection whose client certificate the TLS layer verified (`socket.authorized`);
 * it needs no hook. Credentials are never logged.
 *
 * The hook also says who calls. A yes/no hook answers `true`; a hook that knows the caller answers
 * its principal (any object: a user, a tenant, the key's owner), which every handler then receives
 * as `principal`. Anything that is neither `true` nor an object refuses: the check fails closed.
 * (`createKeyAuthenticator`, which needs Node's crypto, is in key-authenticator.ts: this module
 * runs in browsers too.)
 */
import type { Route, RouteSecurityScheme } from "../../route-types.js";
import type { IncomingRequest, ServerRequest } from "./exchange.js";
import { decodePercent } from "./parameters.js";
import { createProblem, type ProblemDetails } from "./problems.js";

/** A refusal: false or "unauthorized" (→ 401), "forbidden" (→ 403). */
export type AuthDenial = false | "unauthorized" | "forbidden";

/**
 * The hook's verdict: a refusal, or the admission of the caller. With the default `P` (undefined)
 * the hook answers yes or no (`true` admits); with a principal type `P` it answers the caller's
 * principal, which the handlers receive.
 */
export type AuthResult<P = undefined> = AuthDenial | ([P] extends [undefined] ? true : P);

/**
 * Decides whether a credential (an API key, a bearer token, ...) may call the operation, and who
 * calls. `request` is the request as the transport carries it (over Fastify, the IncomingRequest).
 */
export type Authenticate<out P = undefined> = (
  credential: string,
  request: ServerRequest,
  scheme: RouteSecurityScheme,
) => AuthResult<P> | PromiseLike<AuthResult<P>>;

/** The admission of a caller the hook named: its principal, handed to the handler. */
export class Admission {
  readonly principal: unknown;
  constructor(principal: unknown) {
    this.principal = principal;
  }
}

/** undefined to let the request through (no principal), an Admission to let it through with one, else the problem to answer. */
export type SecurityVerdict = ProblemDetails | Admission | undefined;

/**
 * Where a set of handlers may carry the `authenticate` hook it is meant to be served with (the
 * mock handlers carry one accepting any non-empty key), so that serving them needs no other
 * argument. A hook passed to the server or to the MSW handlers takes its place.
 */
export const HANDLERS_AUTHENTICATE: unique symbol = Symbol("authenticate");

/** The hook a set of handlers carries, if any. */
export function authenticateOf(handlers: object): Authenticate<unknown> | undefined {
  const hook: unknown = (handlers as { readonly [HANDLERS_AUTHENTICATE]?: unknown })[HANDLERS_AUTHENTICATE];
  return typeof hook === "function" ? (hook as Authenticate<unknown>) : undefined;
}

/** The security check of one route. */
export type SecurityCheck = (request: IncomingRequest) => SecurityVerdict | Promise<SecurityVerdict>;

const INVALID = createProblem("invalidKey", "The API key is not valid.");
const FORBIDDEN = createProblem("forbidden", "The API key is not allowed to perform this operation.");

/**
 * The security check of a route, or undefined when it needs none. A route whose security is
 * optional (an empty alternative: `security: [{bearer: []}, {}]`) and that has no hook to check a
 * credential with lets every request through without a principal, as its handlers' types
 * (`secured: false`) allow; a route that needs a credential cannot be served without a hook.
 */
export function compileSecurity(
  route: Route,
  authenticate: Authenticate<unknown> | undefined,
): SecurityCheck | undefined {
  const alternatives = route.security;
  const optional = alternatives.some((schemes) => schemes.length === 0);
  if (alternatives.every((schemes) => schemes.length === 0)) return undefined;
  const credentials = alternatives.flat().filter((scheme) => scheme.type !== "mutualTLS");
  if (credentials.length > 0 && authenticate === undefined) {
    if (optional) return undefined;
    throw new Error(`operation ${route.operationId} is secured: pass an authenticate function`);
  }
  const hook = authenticate ?? refuseAll;
  const missing = createProblem("missingKey", `The ${describe(credentials[0] ?? alternatives.flat()[0])} is required.`);
  const only = alternatives.length === 1 && alternatives[0]?.length === 1 ? alternatives[0][0] : undefined;
  if (only !== undefined && only.type === "apiKey" && only.in === "header") return headerKeyCheck(only, hook, missing);
  return (request) => checkAlternatives(alternatives, hook, request, missing);
}

/** The hook of a route whose alternatives are mutualTLS alone: never called, as they have no credential. */
function refuseAll(): AuthDenial {
  return false;
}

/** The common case, kept synchronous: one apiKey header. */
function headerKeyCheck(
  scheme: RouteSecurityScheme,
  authenticate: Authenticate<unknown>,
  missing: ProblemDetails,
): SecurityCheck {
  const name = (scheme.name ?? "").toLowerCase();
  return (request) => {
    const value = request.headers[name];
    if (typeof value !== "string" || value === "") return missing;
    const result = authenticate(value, request, scheme);
    return isThenable(result) ? Promise.resolve(result).then(verdictOf) : verdictOf(result);
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** true admits; an object admits that principal; "forbidden" is 403; anything else refuses (401). */
function verdictOf(result: unknown): SecurityVerdict {
  if (result === true) return undefined;
  if (typeof result === "object" && result !== null) return new Admission(result);
  return result === "forbidden" ? FORBIDDEN : INVALID;
}

/** Whether a verdict lets the request through. */
function admits(verdict: SecurityVerdict): verdict is Admission | undefined {
  return verdict === undefined || verdict instanceof Admission;
}

/**
 * The first alternative met admits the request. An alternative of several schemes is met when
 * each is; its principal is the first one its schemes' answers name, in the order declared.
 */
async function checkAlternatives(
  alternatives: readonly (readonly RouteSecurityScheme[])[],
  authenticate: Authenticate<unknown>,
  request: IncomingRequest,
  missing: ProblemDetails,
): Promise<SecurityVerdict> {
  let verdict: SecurityVerdict = missing;
  for (const alternative of alternatives) {
    if (alternative.length === 0) continue;
    // a mutualTLS scheme without a verified client certificate is a missing credential
    if (alternative.some((scheme) => scheme.type === "mutualTLS") && !hasVerifiedCertificate(request)) continue;
    const schemes = alternative.filter((scheme) => scheme.type !== "mutualTLS");
    const credentials = schemes.map((scheme) => readCredential(scheme, request));
    if (credentials.some((credential) => credential === undefined)) continue;
    const results = await Promise.all(schemes.map((scheme, i) => authenticate(credentials[i] ?? "", request, scheme)));
    const verdicts = results.map(verdictOf);
    const refusal = verdicts.find((v) => !admits(v));
    if (refusal === undefined) return verdicts.find((v) => v instanceof Admission);
    if (verdict === missing || refusal === FORBIDDEN) verdict = refusal;
  }
  const optional = alternatives.some((schemes) => schemes.length === 0);
  return verdict === missing && optional ? undefined : verdict;
}

/** Whether the request came over TLS with a client certificate the TLS layer verified. */
function hasVerifiedCertificate(request: IncomingRequest): boolean {
  const socket = request.raw?.socket as { readonly authorized?: boolean } | undefined;
  return socket?.authorized === true;
}

/** A scheme's credential in the request, or undefined when it is missing or empty. */
function readCredential(scheme: RouteSecurityScheme, request: IncomingRequest): string | undefined {
  const name = scheme.name ?? "";
  let value: unknown;
  if (scheme.type === "apiKey") {
    if (scheme.in === "header") value = request.headers[name.toLowerCase()];
    else if (scheme.in === "query") value = (request.query as Record<string, unknown> | undefined)?.[name];
    else value = readCookie(single(request.headers.cookie), name);
  } else {
    value = readAuthorization(
      single(request.headers.authorization),
      scheme.type === "http" ? (scheme.httpScheme ?? "bearer") : "bearer",
    );
  }
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A header sent once (Node joins a repeated Cookie or Authorization header into one string). */
function single(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function readAuthorization(header: string | undefined, scheme: string): string | undefined {
  if (header === undefined || header.length <= scheme.length) return undefined;
  if (header.slice(0, scheme.length + 1).toLowerCase() !== `${scheme.toLowerCase()} `) return undefined;
  return header.slice(scheme.length + 1).trim();
}

/** A cookie's value as the client meant it: percent-decoded (a malformed escape keeps the text as sent). */
function readCookie(header: string | undefined, name: string): string | undefined {
  for (const pair of header?.split(";") ?? []) {
    const at = pair.indexOf("=");
    if (at !== -1 && pair.slice(0, at).trim() === name) return decodePercent(pair.slice(at + 1).trim());
  }
  return undefined;
}

function describe(scheme: RouteSecurityScheme | undefined): string {
  if (scheme === undefined) return "credential";
  const name = scheme.name ?? "";
  if (scheme.type === "mutualTLS") return "verified client certificate";
  if (scheme.type !== "apiKey") return "Authorization header";
  if (scheme.in === "header") return `${name} header`;
  return scheme.in === "query" ? `${name} query parameter` : `${name} cookie`;
}
