/**
 * One call of an operation, from its route: checked, its URL made (fixed, or filled in by the
 * route's parameter encoder), its headers and body written, sent, its answer read. Parameters,
 * cookies and bodies other than JSON are the work of the encoders the route names: this module
 * only calls them, so a page whose operations need none bundles none.
 */
import type {
  CallRoute,
  CredentialPlacement,
  Credentials,
  PreparedBody,
  RouteContent,
  RouteEncoders,
  Validator,
} from "../route-types.js";
import {
  ApiNetworkError,
  type RequestIssue,
  type RequestPart,
  RequestValidationError,
  ResponseValidationError,
} from "./errors.js";
import { readFailure, readSuccess } from "./response.js";
import type { CallArgs, CallOptions, Settings } from "./runtime.js";
import { putHeaders, writeHeaderTexts } from "./values.js";

/** Sends a call of the operation of `route` and reads its answer; throws the client's errors. */
export async function send(
  route: CallRoute,
  settings: Settings,
  args: CallArgs,
  options: CallOptions | undefined,
): Promise<unknown> {
  // a route written by hand without an encoder it needs is refused before anything is sent
  // (outside a production build: see checkEncoders; two conditions, not one, so that a bundler
  // drops the check whole, the test of `process` too)
  if (typeof process !== "undefined") {
    if (process.env.NODE_ENV !== "production") checkEncoders(route);
  }
  // a body other than JSON, or of several media types, is the route's body encoder's to prepare
  const contents = route.body?.contents ?? [];
  const made = route.encoders?.body?.prepare(
    contents,
    args.body,
    args.contentType,
    settings.validateRequests ? route : undefined,
  );
  const content = made ? made.content : contents[0];
  if (settings.validateRequests) check(route, args, content, made ? made.checked : args.body);
  const sent = args.body === undefined ? undefined : content;
  const init: RequestInit = { method: route.method };
  const url = prepare(route, settings, args, options, sent, init, made);
  const caller = options?.signal;
  // a call with a timeout (the client's timeout policy decides) gets a signal of its own
  const scope = settings.timeout?.(caller, options?.timeoutMs);
  // none: fetch is given an undefined signal
  init.signal = scope?.signal ?? caller;
  const failure = (error: unknown): unknown => {
    if (caller?.aborted) return caller.reason;
    if (scope?.timedOut) return scope.timeoutError(route.operationId, error);
    return new ApiNetworkError(route.operationId, error);
  };
  const attempt = async (wait?: Promise<void>, request: RequestInit = init): Promise<Response> => {
    try {
      // the first attempt is sent at once, in the call's own turn
      if (wait !== undefined) await wait;
      return await (settings.fetch ?? fetch)(url, request);
    } catch (error) {
      throw failure(error);
    }
  };
  // the final answer (the retry policy, if any, tries again); an error status is its ApiError
  const respond = async (): Promise<Response> => {
    const retry = settings.retry;
    // the call's signal, as set above (never null)
    const response = await (retry === undefined
      ? attempt()
      : retry(attempt, route.method, init.signal as AbortSignal | undefined));
    if (!response.ok) throw await readFailure(route, response);
    return response;
  };
  const read = async (response: Response): Promise<unknown> => {
    try {
      return await readSuccess(route, response, settings.validateResponses);
    } catch (error) {
      throw error instanceof ResponseValidationError ? error : failure(error);
    }
  };
  const close = (): void => scope?.close();
  // a body or an answer of items is sent and read by the route's stream encoder
  const stream = route.encoders?.stream;
  if (stream !== undefined)
    return stream.call(route, init, respond, read, attempt, !!settings.validateResponses, close);
  try {
    return await read(await respond());
  } finally {
    close();
  }
}

/**
 * The call's URL; its headers (accept, credentials, the content type of the body sent, the
 * client's headers, the call's header parameters, its cookies, its own headers) and its body
 * (JSON text, or what the route's body encoder made of it, `made`) set on `init`.
 */
function prepare(
  route: CallRoute,
  settings: Settings,
  args: CallArgs,
  options: CallOptions | undefined,
  sent: RouteContent | undefined,
  init: RequestInit,
  made: PreparedBody | undefined,
): string {
  const encoders = route.encoders;
  const placed = encoders?.auth?.place(route, settings) ?? headerKeys(route, settings);
  const base = settings.baseUrl;
  const parameters = encoders?.parameters;
  const url =
    parameters?.urlOf(route, base, placed.query)?.(args) ??
    base + route.path + (placed.query ? `?${placed.query}` : "");
  const [body, type] = sent === undefined ? [] : (made?.encode() ?? [JSON.stringify(args.body), sent.mediaType]);
  // in this order, each overriding the one before; those without a value are left out
  const headers = putHeaders(
    {},
    { accept: route.accept, ...placed.headers, "content-type": type, ...settings.headers },
  );
  // a route without parameters sends the headers it is given as their text
  (parameters?.write ?? writeHeaderTexts)(route, args, headers);
  init.headers = putHeaders(headers, options?.headers);
  if (body !== undefined) init.body = body;
  return url;
}

/**
 * Checks the call's parameters, cookies and body (`body`, as its validator reads it, for
 * `content`); throws a RequestValidationError listing every issue.
 */
function check(route: CallRoute, args: CallArgs, content: RouteContent | undefined, body: unknown): void {
  const issues: RequestIssue[] = [];
  // each error of a part's validator (none: nothing to check) kept as an issue of that part
  const collect = (part: RequestPart, validator: Validator | undefined, value: unknown): void => {
    // every error reported (the options written here: a constant would be a declaration more)
    const result = validator?.(value, { allErrors: true });
    if (result !== undefined && !result.valid) for (const error of result.errors) issues.push({ in: part, ...error });
  };
  const encoders = route.encoders;
  encoders?.parameters?.check(route, args, collect);
  const declared = route.body;
  // a required body missing: the issue the server reports
  if (args.body === undefined && declared?.required === true)
    issues.push({
      in: "body",
      instancePath: "",
      schemaPath: `${declared.pointer}/required`,
      keyword: "required",
      params: {},
      message: "is required",
    });
  // a body of items is the route's body encoder's to check, as it sends them
  else if (content !== undefined && args.body !== undefined && content.sequence === undefined)
    collect("body", route.validators.body[content.mediaType], body);
  if (issues.length > 0) throw new RequestValidationError(route.operationId, issues);
}

/**
 * The credentials of a route whose schemes are all API keys in headers: the first alternative the
 * credentials satisfy (an empty one, authentication optional, is skipped so that credentials, when
 * given, are still sent). Any other scheme is the route's auth encoder's to place.
 */
function headerKeys(route: CallRoute, credentials: Credentials): CredentialPlacement {
  let placed: Record<string, string> | undefined;
  for (const alternative of route.security) {
    const headers: Record<string, string> = {};
    let satisfied = alternative.length > 0;
    for (const scheme of alternative) {
      const value = credentials.credentials?.[scheme.scheme] ?? credentials.apiKey;
      if (value === undefined) satisfied = false;
      // a name and password given for a key is sent as `user:password`
      else
        headers[(scheme.name ?? "").toLowerCase()] =
          typeof value === "object" ? `${value.username}:${value.password}` : value;
    }
    placed ??= satisfied ? headers : undefined;
  }
  return { headers: placed ?? {} };
}

/**
 * `process` where there is one (Node, or a bundler's replacement of `process.env.NODE_ENV`); a
 * page run without a bundler has none. Declared here, not taken from Node's types: the page's
 * code names nothing of Node's.
 */
declare const process: { readonly env: Readonly<Record<string, string | undefined>> } | undefined;

/**
 * Refuses a route written by hand without an encoder its operation needs (the generator names
 * each one a route needs). A check of the program, not of what a call sends, made as React and
 * most front-end libraries make theirs: wherever `process.env.NODE_ENV` is not "production" (in
 * Node, in tests, in a development build), and not in a production build, whose bundler replaces
 * the condition by false (esbuild and Vite do by default) and drops this code. A page run without
 * a bundler, which has no `process`, skips it too.
 */
function checkEncoders(route: CallRoute): void {
  const encoders = route.encoders ?? {};
  const contents = route.body?.contents ?? [];
  const querystring = route.querystring !== undefined;
  if (
    encoders.parameters === undefined &&
    (route.pathParams.length + route.query.length + route.headers.length > 0 ||
      querystring ||
      route.cookies !== undefined)
  )
    lacking(route, "parameters");
  if (encoders.query === undefined && route.query.length > 0) lacking(route, "query");
  if (encoders.querystring === undefined && querystring) lacking(route, "querystring");
  if (encoders.headers === undefined && route.headers.length > 0) lacking(route, "headers");
  if (encoders.styles === undefined && (route.pathStyles ?? route.cookies) !== undefined) lacking(route, "styles");
  if (encoders.body === undefined && contents.some((content) => content.kind !== "json" || contents.length > 1))
    lacking(route, "body");
  const headerKeysOnly = route.security.every((alternative) =>
    alternative.every((scheme) => scheme.type === "apiKey" && scheme.in === "header"),
  );
  if (encoders.auth === undefined && !headerKeysOnly) lacking(route, "auth");
  const answers = Object.values(route.responses).flat();
  if (encoders.answers === undefined && answers.some((content) => content.kind !== "json" && !content.sequence))
    lacking(route, "answers");
  const streams = [...answers, ...contents].some((content) => content.sequence);
  if (encoders.stream === undefined && streams) lacking(route, "stream");
}

/**
 * The refusal of a route without an encoder its operation needs: parameters, cookies included
 * (and its query and header parameters' encoders), label, matrix and cookie parameters, a body
 * other than JSON, credentials other than API keys in headers, answers other than JSON, bodies or
 * answers that are sequences of items. Each encoder is exported by the client module of its name (the stream's by
 * client/stream-answers.ts, or client/streamed-calls.ts where only the body is a sequence).
 */
function lacking(route: CallRoute, encoder: keyof RouteEncoders): never {
  throw new TypeError(
    `${route.operationId}: the route names no \`encoders.${encoder}\` (client/${encoder}.ts), which the operation needs: run \`npm run generate\` again`,
  );
}
