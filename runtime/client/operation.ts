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
  IssueCollector,
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
import { ALL_ERRORS, readFailure, readSuccess } from "./response.js";
import type { CallArgs, CallOptions, Settings } from "./runtime.js";
import { EMPTY, writeHeaderTexts } from "./values.js";

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
  const content = chooseContent(route, args);
  if (settings.validateRequests) check(route, args, content);
  const sent = args.body === undefined ? undefined : content;
  const init: RequestInit = { method: route.method };
  const url = prepare(route, settings, args, options, sent, init);
  const caller = options?.signal;
  // a call with a timeout (the client's timeout policy decides) gets a signal of its own
  const scope = settings.timeout?.(caller, options?.timeoutMs);
  const signal = scope?.signal ?? caller;
  if (signal !== undefined) init.signal = signal;
  const failure = (error: unknown): unknown => {
    if (caller?.aborted) return caller.reason;
    if (scope?.timedOut) return scope.timeoutError(route.operationId, error);
    return new ApiNetworkError(route.operationId, error);
  };
  const attempt = async (wait?: Promise<void>, request: RequestInit = init): Promise<Response> => {
    try {
      // the first attempt is sent at once, in the call's own turn
      if (wait !== undefined) await wait;
      return await settings.fetch(url, request);
    } catch (error) {
      throw failure(error);
    }
  };
  // the final answer (the retry policy, if any, tries again); an error status is its ApiError
  const respond = async (): Promise<Response> => {
    const retry = settings.retry;
    const response = await (retry === undefined ? attempt() : retry(attempt, route.method, init.signal ?? undefined));
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
 * (JSON text, or what the route's body encoder makes of it) set on `init`.
 */
function prepare(
  route: CallRoute,
  settings: Settings,
  args: CallArgs,
  options: CallOptions | undefined,
  sent: RouteContent | undefined,
  init: RequestInit,
): string {
  const encoders = route.encoders;
  const placed = encoders?.auth?.place(route, settings) ?? headerKeys(route, settings);
  const base = settings.baseUrl;
  const parameters = encoders?.parameters;
  const url =
    parameters?.urlOf(route, base, placed.query)?.(args) ??
    base + route.path + (placed.query === "" ? "" : `?${placed.query}`);
  const bodies = encoders?.body;
  const checked = settings.validateRequests ? route : undefined;
  const body = sent === undefined ? undefined : (bodies?.encode(sent, args.body, checked) ?? JSON.stringify(args.body));
  const type = sent === undefined ? undefined : bodies === undefined ? sent.mediaType : bodies.contentType(sent, body);
  const headers: Record<string, string> = {
    ...(route.accept === undefined ? undefined : { accept: route.accept }),
    ...placed.headers,
    ...(type === undefined ? undefined : { "content-type": type }),
    ...settings.headers,
  };
  // a route without parameters sends the headers it is given as their text
  (parameters?.write ?? writeHeaderTexts)(route, args, headers);
  for (const [name, value] of Object.entries(options?.headers ?? EMPTY))
    if (typeof value === "string") headers[name.toLowerCase()] = value;
  init.headers = headers;
  if (body !== undefined) init.body = body;
  return url;
}

/** The only media type; else the one asked for or the one the body fits (the route's body encoder tells). */
function chooseContent(route: CallRoute, args: CallArgs): RouteContent | undefined {
  const contents = route.body?.contents ?? [];
  return route.encoders?.body?.choose(contents, args.body, args.contentType) ?? contents[0];
}

/** Checks the call's parameters, cookies and body; throws a RequestValidationError listing every issue. */
function check(route: CallRoute, args: CallArgs, content: RouteContent | undefined): void {
  const issues: RequestIssue[] = [];
  const collect: IssueCollector = (part, validator, value) => collectIssues(issues, part, validator, value);
  const encoders = route.encoders;
  encoders?.parameters?.check(route, args, collect);
  const body = route.body;
  if (args.body === undefined && body?.required === true) issues.push(missingBody(body.pointer));
  // a body of items is the route's body encoder's to check, as it sends them
  else if (content !== undefined && args.body !== undefined && content.sequence === undefined) {
    // file fields as the text the validator reads
    const checked = encoders?.body?.checked(args.body, content.binaryFields ?? []) ?? args.body;
    collectIssues(issues, "body", route.validators.body[content.mediaType], checked);
  }
  if (issues.length > 0) throw new RequestValidationError(route.operationId, issues);
}

function collectIssues(
  issues: RequestIssue[],
  part: RequestPart,
  validator: Validator | undefined,
  value: unknown,
): void {
  if (validator === undefined) return;
  const result = validator(value, ALL_ERRORS);
  if (!result.valid) for (const error of result.errors) issues.push({ in: part, ...error });
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
  return { headers: placed ?? {}, query: "" };
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

/** The issue of a required body that is missing (the same the server reports). */
function missingBody(pointer: string): RequestIssue {
  return {
    in: "body",
    instancePath: "",
    schemaPath: `${pointer}/required`,
    keyword: "required",
    params: {},
    message: "is required",
  };
}
