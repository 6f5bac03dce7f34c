/**
 * One operation, prepared once per client from its route: its URL (fixed, or filled in by the
 * route's parameter encoder), the header object of each request media type (accept,
 * content-type, credentials, the client's headers), the validators. `send` then only fills in what
 * the call brings. Parameters, cookies and bodies other than JSON are the work of the encoders the
 * route names: this module only calls them, so a page whose operations need none bundles none.
 */
import { mediaTypeEssence } from "../media-types.js";
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
import { ALL_ERRORS, declaredContents, readFailure, readSuccess } from "./response.js";
import type { CallArgs, CallOptions, Settings } from "./runtime.js";
import { CallScope } from "./transport.js";

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
  /** the answers' validators, when answers are checked */
  readonly #answers: Readonly<Record<string, Validator>> | undefined;
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

  constructor(route: CallRoute, settings: Settings, answers?: Readonly<Record<string, Validator>>) {
    this.#route = route;
    this.#settings = settings;
    this.#answers = answers;
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
    const timeoutMs = options?.timeoutMs ?? this.#settings.timeoutMs;
    // a call gets a signal only when it has a timeout or its caller's signal
    const scope =
      options?.signal === undefined && timeoutMs === undefined ? undefined : new CallScope(options?.signal, timeoutMs);
    if (scope !== undefined) init.signal = scope.signal;
    let streamed = false;
    try {
      const result = await this.#exchange(url, init, scope);
      // a stream of items keeps the call's signal (and its timeout) until its items are over
      streamed = typeof result === "object" && result !== null && Symbol.asyncIterator in result;
      return result;
    } finally {
      if (!streamed) scope?.close();
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
    // a body of items is streamed as they come: fetch takes a stream with `duplex: "half"` only
    if (typeof ReadableStream !== "undefined" && init.body instanceof ReadableStream)
      (init as RequestInit & { duplex: "half" }).duplex = "half";
    return init;
  }

  /** The final answer (the retry policy, if any, tries again), read; or the call's failure. */
  async #exchange(url: string, init: RequestInit, scope: CallScope | undefined): Promise<unknown> {
    const attempt = (wait?: Promise<void>): Promise<Response> => this.#fetch(url, init, scope, wait);
    const retry = this.#settings.retry;
    const response = await (retry === undefined ? attempt() : retry(attempt, this.#route.method, scope?.signal));
    if (!response.ok) throw await readFailure(this.#route, response);
    const stream = this.#route.encoders?.stream;
    const content = stream === undefined ? undefined : sequenceContent(this.#route, response);
    if (stream === undefined || content === undefined) return this.#read(response, scope);
    const check = this.#answers !== undefined || this.#settings.validateResponses;
    const validators = this.#route.validators;
    const status = String(response.status);
    return stream.read(content, response, {
      operationId: this.#route.operationId,
      item: check ? validators.items?.[status]?.[content.mediaType] : undefined,
      data: check ? validators.itemData?.[status]?.[content.mediaType] : undefined,
      jsonData: validators.itemData?.[status]?.[content.mediaType] !== undefined,
      signal: scope?.signal,
      reconnect: async (lastEventId) => {
        const headers = { ...(init.headers as Record<string, string>) };
        if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
        const again = await this.#fetch(url, { ...init, headers }, scope, undefined);
        if (!again.ok) throw await readFailure(this.#route, again);
        return again;
      },
      done: () => scope?.close(),
    });
  }

  /** One attempt's answer, once `wait` (a retry's) is over; its failure as the client reports it. */
  async #fetch(
    url: string,
    init: RequestInit,
    scope: CallScope | undefined,
    wait: Promise<void> | undefined,
  ): Promise<Response> {
    try {
      // the first attempt is sent at once, in the call's own turn
      if (wait !== undefined) await wait;
      return await this.#settings.fetch(url, init);
    } catch (error) {
      throw this.#failure(error, scope);
    }
  }

  async #read(response: Response, scope: CallScope | undefined): Promise<unknown> {
    try {
      return await readSuccess(this.#route, response, this.#answers ?? this.#settings.validateResponses);
    } catch (error) {
      throw error instanceof ResponseValidationError ? error : this.#failure(error, scope);
    }
  }

  /** The caller's abort reason, a timeout, or a network failure. */
  #failure(error: unknown, scope: CallScope | undefined): unknown {
    if (scope?.caller?.aborted) return scope.caller.reason;
    if (scope?.timedOut) return new ApiTimeoutError(this.#route.operationId, scope.timeoutMs ?? 0, error);
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
  const querystring = route.querystring !== undefined;
  if (
    encoders.parameters === undefined &&
    (route.pathParams.length + route.query.length + route.headers.length > 0 || querystring)
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
  const streams = answers.some((content) => content.sequence);
  if (encoders.stream === undefined && streams) lacking(route, "stream");
}

/**
 * The refusal of a route without an encoder its operation needs: parameters (and its query and
 * header parameters' encoders), label, matrix and cookie parameters, a body other than JSON,
 * credentials other than API keys in headers, answers other than JSON, answers that are streams of
 * items. Each encoder is exported by the client module of its name (the stream reader by
 * client/streams.ts).
 */
function lacking(route: CallRoute, encoder: keyof RouteEncoders): never {
  throw new TypeError(
    `${route.operationId}: the route names no \`encoders.${encoder}\` (client/${encoder}.ts), which the operation needs: run \`npm run generate\` again`,
  );
}

/** The declared content of a success answer that is a sequence of items, by the answer's media type. */
function sequenceContent(route: CallRoute, response: Response): RouteContent | undefined {
  const type = response.headers.get("content-type");
  const essence = type === null ? "" : mediaTypeEssence(type);
  return declaredContents(route, response.status)?.find(
    (content) => content.sequence !== undefined && mediaTypeEssence(content.mediaType) === essence,
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
