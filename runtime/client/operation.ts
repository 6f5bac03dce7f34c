/**
 * One operation, prepared once per client from its route: its URL (fixed, or filled in by the
 * route's parameter encoder), the header object of each request media type (accept,
 * content-type, credentials, the client's headers), the validators. `send` then only fills in what
 * the call brings. Parameters, cookies and bodies other than JSON are the work of the encoders the
 * route names: this module only calls them, so a page whose operations need none bundles none.
 */
import type {
  BodyEncoder,
  CallRoute,
  CredentialPlacement,
  Credentials,
  IssueCollector,
  ParameterEncoder,
  RouteContent,
  RouteEncoders,
  StyleEncoder,
  Validator,
} from "../route-types.js";
import {
  ApiNetworkError,
  ApiTimeoutError,
  type RequestIssue,
  type RequestPart,
  RequestValidationError,
  ResponseValidationError,
} from "./errors.js";
import { ALL_ERRORS, readFailure, readSuccess } from "./response.js";
import type { CallArgs, CallOptions, Settings } from "./runtime.js";
import type { CallScope } from "./transport.js";

/** A request media type of the operation, with its headers and validator. */
interface PreparedContent {
  readonly content: RouteContent;
  readonly headers: Readonly<Record<string, string>>;
  readonly validator: Validator | undefined;
}

/** No values: what the engine reads when a call brings none. */
export const EMPTY: Readonly<Record<string, unknown>> = Object.freeze({});

/** An operation of the route table, ready to send; one per client and operation. */
export class Operation {
  readonly #route: CallRoute;
  readonly #settings: Settings;
  /** the route's parameter encoder; undefined for an operation without parameters */
  readonly #parameters: ParameterEncoder | undefined;
  /** the route's encoder of label and matrix path parameters and of cookies, when it has such parameters */
  readonly #styles: StyleEncoder | undefined;
  /** the route's body encoder, when its body may be other than JSON */
  readonly #bodies: BodyEncoder | undefined;
  /** the URL of every call, or how a call's parameters make it */
  readonly #url: string | ((args: CallArgs) => string);
  readonly #headers: Readonly<Record<string, string>>;
  readonly #contents: readonly PreparedContent[];

  constructor(route: CallRoute, settings: Settings) {
    this.#route = route;
    this.#settings = settings;
    // a route written by hand without an encoder it needs is refused before anything is sent
    // (outside a production build: see checkEncoders)
    if (typeof process !== "undefined" && process.env.NODE_ENV !== "production") checkEncoders(route);
    const parameters = route.encoders?.parameters;
    const styles = route.encoders?.styles;
    const bodies = route.encoders?.body;
    const contents = route.body?.contents ?? [];
    this.#parameters = parameters;
    this.#styles = styles;
    this.#bodies = bodies;
    const placed = route.encoders?.auth?.place(route, settings) ?? headerKeys(route, settings);
    const base = settings.baseUrl;
    this.#url =
      parameters?.urlOf(route, base, placed.query, styles) ??
      base + route.path + (placed.query === "" ? "" : `?${placed.query}`);
    const accept = route.accept === undefined ? undefined : { accept: route.accept };
    this.#headers = { ...accept, ...placed.headers, ...settings.headers };
    this.#contents = contents.map((content) => this.#prepareContent(content));
  }

  #prepareContent(content: RouteContent): PreparedContent {
    const encoder = this.#bodies;
    const type = encoder === undefined ? content.mediaType : encoder.contentType(content);
    const headers =
      type === undefined ? this.#headers : { ...this.#headers, "content-type": type, ...this.#settings.headers };
    return { content, headers, validator: this.#route.validators.body[content.mediaType] };
  }

  /** Sends the call and reads its answer; throws the client's errors. */
  async send(args: CallArgs, options: CallOptions | undefined): Promise<unknown> {
    const init = this.#init(args, options);
    const url = typeof this.#url === "string" ? this.#url : this.#url(args);
    const caller = options?.signal;
    // a call with a timeout (the client's timeout policy decides) gets a signal of its own
    const scope = this.#settings.timeout?.(caller, options?.timeoutMs);
    const signal = scope?.signal ?? caller;
    if (signal !== undefined) init.signal = signal;
    const failure = (error: unknown): unknown => this.#failure(error, caller, scope);
    try {
      return await this.#exchange(url, init, signal, failure);
    } finally {
      scope?.close();
    }
  }

  /** The request without its signal: checked (when enabled), headers and body encoded. */
  #init(args: CallArgs, options: CallOptions | undefined): RequestInit {
    const prepared = this.#chooseContent(args);
    if (this.#settings.validateRequests) this.#check(args, prepared);
    const sent = args.body === undefined ? undefined : prepared;
    const init: RequestInit = { method: this.#route.method, headers: this.#headersOf(args, options, sent) };
    // JSON text, or what the route's body encoder makes of the body
    if (sent !== undefined) init.body = this.#bodies?.encode(sent.content, args.body) ?? JSON.stringify(args.body);
    return init;
  }

  /** The final answer (the retry policy, if any, tries again), read; or the call's failure. */
  async #exchange(
    url: string,
    init: RequestInit,
    signal: AbortSignal | undefined,
    failure: (error: unknown) => unknown,
  ): Promise<unknown> {
    const attempt = async (wait?: Promise<void>): Promise<Response> => {
      try {
        // the first attempt is sent at once, in the call's own turn
        if (wait !== undefined) await wait;
        return await this.#settings.fetch(url, init);
      } catch (error) {
        throw failure(error);
      }
    };
    const retry = this.#settings.retry;
    const response = await (retry === undefined ? attempt() : retry(attempt, this.#route.method, signal));
    if (!response.ok) throw await readFailure(this.#route, response);
    try {
      return await readSuccess(this.#route, response, this.#settings.validateResponses);
    } catch (error) {
      throw error instanceof ResponseValidationError ? error : failure(error);
    }
  }

  /** The caller's abort reason, a timeout, or a network failure. */
  #failure(error: unknown, caller: AbortSignal | undefined, scope: CallScope | undefined): unknown {
    if (caller?.aborted) return caller.reason;
    if (scope?.timedOut) return new ApiTimeoutError(this.#route.operationId, scope.timeoutMs, error);
    return new ApiNetworkError(this.#route.operationId, error);
  }

  /** The call's headers: the prepared ones, then its header parameters, its cookies, its own headers. */
  #headersOf(
    args: CallArgs,
    options: CallOptions | undefined,
    prepared: PreparedContent | undefined,
  ): Record<string, string> {
    const headers: Record<string, string> = { ...(prepared?.headers ?? this.#headers) };
    const values = args.headers ?? EMPTY;
    const encoder = this.#route.encoders?.headers;
    if (encoder !== undefined) encoder.write(this.#route, values, headers);
    // a route without header parameters sends the headers it is given as their text
    else
      for (const [name, value] of Object.entries(values))
        if (value !== undefined) headers[name.toLowerCase()] = String(value);
    if (args.cookies !== undefined) this.#styles?.writeCookies(this.#route, args.cookies, headers);
    for (const [name, value] of Object.entries(options?.headers ?? EMPTY))
      if (typeof value === "string") headers[name.toLowerCase()] = value;
    return headers;
  }

  /** The only media type; else the one asked for or the one the body fits (the route's body encoder tells). */
  #chooseContent(args: CallArgs): PreparedContent | undefined {
    const contents = this.#contents;
    const chosen = this.#bodies?.choose(this.#route.body?.contents ?? [], args.body, args.contentType);
    return contents.find((c) => c.content === chosen) ?? contents[0];
  }

  #check(args: CallArgs, prepared: PreparedContent | undefined): void {
    const issues: RequestIssue[] = [];
    const collect: IssueCollector = (part, validator, value) => collectIssues(issues, part, validator, value);
    this.#parameters?.check(this.#route, args, this.#styles, collect);
    this.#styles?.checkCookies(this.#route, args.cookies ?? EMPTY, collect);
    const body = this.#route.body;
    if (args.body === undefined && body?.required === true) issues.push(missingBody(body.pointer));
    else if (prepared !== undefined && args.body !== undefined) {
      // file fields as the text the validator reads
      const checked = this.#bodies?.checked(args.body, prepared.content.binaryFields ?? []) ?? args.body;
      collectIssues(issues, "body", prepared.validator, checked);
    }
    if (issues.length > 0) throw new RequestValidationError(this.#route.operationId, issues);
  }
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
  if (encoders.parameters === undefined && route.pathParams.length + route.query.length + route.headers.length > 0)
    lacking(route, "parameters");
  if (encoders.query === undefined && route.query.length > 0) lacking(route, "query");
  if (encoders.headers === undefined && route.headers.length > 0) lacking(route, "headers");
  if (encoders.styles === undefined && (route.pathStyles ?? route.cookies) !== undefined) lacking(route, "styles");
  if (encoders.body === undefined && contents.some((content) => content.kind !== "json" || contents.length > 1))
    lacking(route, "body");
  const headerKeysOnly = route.security.every((alternative) =>
    alternative.every((scheme) => scheme.type === "apiKey" && scheme.in === "header"),
  );
  if (encoders.auth === undefined && !headerKeysOnly) lacking(route, "auth");
  const answers = Object.values(route.responses).flat();
  if (encoders.answers === undefined && answers.some((content) => content.kind !== "json")) lacking(route, "answers");
}

/**
 * The refusal of a route without an encoder its operation needs: parameters (and its query and
 * header parameters' encoders), label, matrix and cookie parameters, a body other than JSON,
 * credentials other than API keys in headers, answers other than JSON. Each encoder is exported
 * by the client module of its name.
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
