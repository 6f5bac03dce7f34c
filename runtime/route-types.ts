/**
 * The types of the route table (routes.ts): the same for every spec.
 */
import type { ValidateOptions, ValidationResult } from "./validators/types.js";

/**
 * A route's method as sent: one of HTTP's (`QUERY`, a safe method with a body, included), or any
 * other token an OpenAPI 3.2 document names in `additionalOperations` (`PURGE`, `COPY`).
 */
export type HttpMethod =
  | "GET"
  | "PUT"
  | "POST"
  | "DELETE"
  | "OPTIONS"
  | "HEAD"
  | "PATCH"
  | "TRACE"
  | "QUERY"
  | (string & {});

/**
 * How a sequence of items travels: server-sent events, JSON Lines, JSON text sequences (RFC 7464),
 * or the parts of multipart/mixed (RFC 2046), one item each.
 */
export type SequenceKind = "sse" | "jsonl" | "json-seq" | "multipart";

/** How a body travels: JSON, multipart form, URL-encoded form, text, or raw bytes. */
export type BodyKind = "json" | "multipart" | "form" | "text" | "binary";

/**
 * How an OpenAPI 3.2 `in: querystring` parameter travels: a URL-encoded form, JSON text
 * (percent-encoded), or its text as it is.
 */
export type QuerystringKind = "form" | "json" | "text";

/** The query string as one value (an OpenAPI 3.2 `in: querystring` parameter): the call's `query`. */
export interface RouteQuerystring {
  /** the parameter's name, for messages (it is not sent) */
  readonly name: string;
  readonly required: boolean;
  readonly mediaType: string;
  readonly kind: QuerystringKind;
}

export interface RouteParameter {
  /** the parameter name as the spec spells it (HTTP header names match case-insensitively) */
  readonly name: string;
  readonly required: boolean;
  readonly style: string;
  readonly explode: boolean;
  /** the schema is an array: repeated or delimited values form a list */
  readonly array: boolean;
  /**
   * a query parameter of style form, spaceDelimited or pipeDelimited whose schema is an object:
   * the names of its properties (an exploded form object sends each as a parameter of its own)
   */
  readonly properties?: readonly string[];
}

export interface RouteContent {
  readonly mediaType: string;
  readonly kind: BodyKind;
  /** multipart and form bodies: the fields that carry file bytes */
  readonly binaryFields?: readonly string[];
  /** a body that is a sequence of items (an OpenAPI 3.2 `itemSchema`): how the items are framed */
  readonly sequence?: SequenceKind;
  /** multipart/mixed items: how the parts are encoded by position (`prefixEncoding`, `itemEncoding`) */
  readonly parts?: PartEncodings;
}

/**
 * An Encoding Object of multipart/mixed items (OpenAPI 3.2, "Encoding By Position"): the media
 * types a part may have, and the headers it carries besides its Content-Type.
 */
export interface PartEncoding {
  /** the media types or ranges a part may have ("image/png, image/jpeg", "image/*"); any when absent */
  readonly contentType?: string;
  /** the headers the Encoding Object declares: an item at its position is `{ headers, body }` */
  readonly headers?: readonly { readonly name: string; readonly required: boolean }[];
}

/** `prefixEncoding` for the first parts, one each, and `itemEncoding` for every other part. */
export interface PartEncodings {
  readonly prefix?: readonly PartEncoding[];
  readonly item?: PartEncoding;
}

/** A generated validator. Parameter validators return the converted values ("7" → 7). */
export type Validator = (value: unknown, options?: ValidateOptions) => ValidationResult<unknown>;

/** The generated validators of a route. */
export interface RouteValidators {
  readonly pathParams?: Validator;
  readonly query?: Validator;
  readonly headers?: Validator;
  readonly cookies?: Validator;
  /** by request media type */
  readonly body: Readonly<Record<string, Validator>>;
  /** by request media type, for a body that is a sequence of items: an item's validator (an SSE event's as sent) */
  readonly bodyItems?: Readonly<Record<string, Validator>>;
  /**
   * by request media type, for a body that is a sequence whose media type also declares a
   * `schema`: the validator of its items as a whole (the list of them), checked once they end
   */
  readonly bodySequences?: Readonly<Record<string, Validator>>;
  /** by status, for JSON responses */
  readonly responses: Readonly<Record<string, Validator>>;
  /** by status and media type, for an answer that is a sequence: an item's validator (an SSE event's, `data` as sent) */
  readonly items?: Readonly<Record<string, Readonly<Record<string, Validator>>>>;
  /** by status and media type, for server-sent events whose `data` is JSON: the validator of `data` decoded */
  readonly itemData?: Readonly<Record<string, Readonly<Record<string, Validator>>>>;
  /**
   * by status and media type, for an answer that is a sequence whose media type also declares a
   * `schema`: the validator of its items as a whole (the list of them), checked once they end
   */
  readonly sequences?: Readonly<Record<string, Readonly<Record<string, Validator>>>>;
}

/** One security scheme of a requirement. */
export interface RouteSecurityScheme {
  readonly scheme: string;
  readonly type: "apiKey" | "http" | "oauth2" | "openIdConnect" | "mutualTLS";
  readonly in?: "header" | "query" | "cookie";
  /** the header, query or cookie name of an apiKey scheme, as the spec spells it */
  readonly name?: string;
  readonly httpScheme?: string;
}

/** The request body of a route. */
export interface RouteBody {
  readonly required: boolean;
  /** where the document declares the body ("#/paths/~1venues/post/requestBody") */
  readonly pointer: string;
  readonly contents: readonly RouteContent[];
}

export interface Route {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** the path as the spec writes it, relative to the base path ("/workers/{id}/documents") */
  readonly path: string;
  readonly pathParams: readonly string[];
  /** the path parameters of style label (".a") or matrix (";id=a"); those of style simple are not listed */
  readonly pathStyles?: readonly RouteParameter[];
  readonly query: readonly RouteParameter[];
  /** the query string as one value, in place of query parameters (the `query` validator checks it) */
  readonly querystring?: RouteQuerystring;
  readonly headers: readonly RouteParameter[];
  /** the cookie parameters (style form, or content), when the operation has any */
  readonly cookies?: readonly RouteParameter[];
  readonly body?: RouteBody;
  /** declared responses by status ("200", "4XX", "default") */
  readonly responses: Readonly<Record<string, readonly RouteContent[]>>;
  /**
   * The client's Accept header: the answers' media types, each once ("application/json,
   * application/problem+json"); the generator writes it, and a route without it sends none.
   */
  readonly accept?: string;
  /** alternatives, any one of which suffices; each lists the schemes it needs together */
  readonly security: readonly (readonly RouteSecurityScheme[])[];
  readonly validators: RouteValidators;
  /**
   * The client's encoders the operation needs beyond a JSON body: named by the route of each
   * operation that needs them, so a page bundles only those of the operations it calls. A route
   * written by hand without one its operation needs is refused when it is first called, except in
   * a production build (`process.env.NODE_ENV` "production"), whose bundler drops the check.
   */
  readonly encoders?: RouteEncoders;
}

/** The encoders a route names (see `Route.encoders`). */
export interface RouteEncoders {
  /** present when the operation has path, query, header or cookie parameters */
  readonly parameters?: ParameterEncoder;
  /** present when the operation has query parameters: of the styles they use (deepObject's apart) */
  readonly query?: QueryEncoder;
  /** present when the operation has an `in: querystring` parameter */
  readonly querystring?: QuerystringEncoder;
  /** present when the operation has header parameters */
  readonly headers?: HeaderEncoder;
  /** present when the operation's body may be other than JSON, or has more than one media type */
  readonly body?: BodyEncoder;
  /** present when the operation has label or matrix path parameters or cookie parameters */
  readonly styles?: StyleEncoder;
  /** present when the operation's security has a scheme other than an API key in a header */
  readonly auth?: AuthEncoder;
  /** present when the operation has an answer of another kind than JSON (text, bytes) */
  readonly answers?: AnswerReader;
  /** present when the operation's body or an answer of it is a sequence of items (server-sent events, JSON Lines, ...) */
  readonly stream?: StreamCalls;
}

/** How the client tells the kind of a success answer's body, for a route with answers other than JSON. */
export interface AnswerReader {
  /** the kind the body is read as: the declared content its media type matches, else its own kind */
  kindOf(response: Response, contents: readonly RouteContent[] | undefined): BodyKind;
}

/** An answer's stream as the client reads it: what it needs besides the answer. */
export interface StreamContext {
  readonly operationId: string;
  /** the items' validators (none: items are not checked) */
  readonly item: Validator | undefined;
  readonly data: Validator | undefined;
  /** server-sent events whose `data` is JSON, decoded before it is yielded */
  readonly jsonData: boolean;
  /** the validator of the items as a whole (a `schema` beside the `itemSchema`), checked once they end */
  readonly whole?: Validator | undefined;
  /** the call's signal, when it has one */
  readonly signal: AbortSignal | undefined;
  /** asks again after a dropped connection of server-sent events, with the last event's id */
  reconnect(lastEventId: string | undefined): Promise<Response>;
  /** called once the items are over (read to the end, stopped, or failed) */
  done(): void;
}

/** How the client reads an answer that is a sequence of items. */
export interface StreamReader {
  /** the items of `response` (framed as `content` says) as they arrive, each checked */
  read(content: RouteContent, response: Response, context: StreamContext): AsyncIterable<unknown>;
}

/**
 * How the client sends a call whose body or success answer may be a sequence of items, and reads
 * its answer (client/streamed-calls.ts): the engine hands it the call, prepared, and the means to
 * send it and read an answer that is not a sequence.
 */
export interface StreamCalls {
  /**
   * the call's answer, read by `read`, or its items as they arrive (checked when `checked`),
   * `attempt` sending the call again, with its init, after a dropped connection; `close` ends the
   * call's scope (its timeout): once the answer is read, or once the items are over
   */
  call(
    route: CallRoute,
    init: RequestInit,
    respond: () => Promise<Response>,
    read: (response: Response) => Promise<unknown>,
    attempt: (wait: undefined, init: RequestInit) => Promise<Response>,
    checked: boolean,
    close: () => void,
  ): Promise<unknown>;
}

/** A user name and password for http basic authentication. */
export interface BasicCredentials {
  readonly username: string;
  readonly password: string;
}

/** What the client can present: one value per kind of scheme, or one per scheme name. */
export interface Credentials {
  /** the key for every apiKey scheme */
  readonly apiKey?: string;
  /** the token for http bearer, oauth2 and openIdConnect schemes */
  readonly bearerToken?: string;
  /** the user and password for http basic schemes */
  readonly basic?: BasicCredentials;
  /** per scheme name, overriding the above (a string for basic is the encoded `user:password`) */
  readonly credentials?: Readonly<Record<string, string | BasicCredentials | undefined>>;
}

/** Where an operation's credentials travel: headers and encoded query pairs ("" or left out when none). */
export interface CredentialPlacement {
  readonly headers: Record<string, string>;
  readonly query?: string;
}

/** How the client places credentials of every kind of scheme (the engine itself places API keys in headers). */
export interface AuthEncoder {
  /** the first alternative of the route's requirements that the credentials satisfy, placed */
  place(route: CallRoute, credentials: Credentials): CredentialPlacement;
}

/** How the client writes a route's label and matrix path parameters and cookie parameters, and reads them back as sent. */
export interface StyleEncoder {
  /** the writer of the route's label and matrix path parameters, for `fillPath` */
  pathWriter(route: CallRoute): (name: string, value: unknown) => string | undefined;
  /** adds the cookies that have a value to `headers.cookie`, after the cookies already there (the client's own) */
  writeCookies(route: CallRoute, values: Readonly<Record<string, unknown>>, headers: Record<string, string>): void;
  /** the path parameters as the server reads them back: `sent` (those of style simple), the styled ones over it */
  pathAsSent(
    route: CallRoute,
    values: Readonly<Record<string, unknown>>,
    sent: Record<string, unknown>,
  ): Record<string, unknown>;
  /** checks the cookie parameters, as the server reads them back, with the route's validator */
  checkCookies(route: CallRoute, values: Readonly<Record<string, unknown>>, collect: IssueCollector): void;
}

/** Checks a part of a request with its validator (none: nothing to check), keeping the issues found. */
export type IssueCollector = (
  part: "path" | "query" | "header" | "cookie",
  validator: Validator | undefined,
  value: unknown,
) => void;

/**
 * How the client sends a body other than JSON, or one of several media types: the engine calls
 * `prepare` once per call, before the call's check, and encodes the body only once it is checked
 * (`bodyEncoderOf` makes one from a `BodyEncoding`).
 */
export interface BodyEncoder {
  /**
   * A call's body (`body`; `asked`, the media type the call asks for; `checked`, the call's route
   * when the call checks its request): the content chosen, the body as its validator reads it, and
   * its encoding
   */
  prepare(
    contents: readonly RouteContent[],
    body: unknown,
    asked: string | undefined,
    checked: CallRoute | undefined,
  ): PreparedBody;
  /** the RequestValidationError that cut short a body of items the encoding made, if one did */
  cut?(body: BodyInit | null | undefined): unknown;
}

/** A call's body as its body encoder prepared it. */
export interface PreparedBody {
  /** the content chosen for the call (undefined: the operation has no body) */
  readonly content: RouteContent | undefined;
  /** the body as the content's validator reads it */
  readonly checked: unknown;
  /** the body as sent and its content-type header (none for a multipart form: fetch writes it) */
  encode(): readonly [BodyInit, string | undefined];
}

/** What a body encoder is made of: the encoding, the content type and the choice of a content. */
export interface BodyEncoding {
  /**
   * the body as sent for a content: JSON text, a form, multipart form data, text or bytes, a
   * stream of items; `checked`, the call's route when the call checks its request, has a body of
   * items checked (a list as a whole at once, each item as it is sent), a RequestValidationError
   * thrown at once or ending the stream
   */
  encode(content: RouteContent, body: unknown, checked?: CallRoute): BodyInit;
  /** the RequestValidationError that cut short a body of items `encode` made, if one did */
  cut?(body: BodyInit | null | undefined): unknown;
  /**
   * the content-type header of a content (none for a multipart form: fetch writes it, with its
   * boundary; multipart/mixed items with the boundary of `body`, as `encode` made it)
   */
  contentType(content: RouteContent, body?: BodyInit): string | undefined;
  /**
   * the content of the media type the call asks for (`asked`); else the one the body fits: raw
   * bytes, a form with files, JSON, the first
   */
  choose(contents: readonly RouteContent[], body: unknown, asked: string | undefined): RouteContent | undefined;
  /** the body as its validator reads it: each file field as the text "" */
  checked(body: unknown, binaryFields: readonly string[]): unknown;
}

/**
 * How the client writes path and query parameters into a request's URL, header and cookie
 * parameters into its headers, and checks parameters as they were sent.
 */
export interface ParameterEncoder {
  /**
   * How an operation's calls make their URL, made once per operation: `base`, the path and query
   * string of the call's values ("/workers/7?limit=5"), `authQuery` (a query credential, if any)
   * last; it throws the client's RequestValidationError when the path cannot be filled. Undefined
   * for an operation without path or query parameters, whose URL is fixed.
   */
  urlOf(
    route: CallRoute,
    base: string,
    authQuery: string | undefined,
  ): ((values: ParameterValues) => string) | undefined;
  /**
   * checks the call's path, query, header and cookie parameters, as the server reads them back,
   * with the route's validators (label, matrix and cookie ones by the route's style encoder)
   */
  check(route: CallRoute, values: ParameterValues, collect: IssueCollector): void;
  /**
   * writes the call's headers into `headers`, lower-cased (header parameters in their style by
   * the route's header encoder, others as their text), then its cookies (by the style encoder)
   */
  write(route: CallRoute, values: ParameterValues, headers: Record<string, string>): void;
}

/**
 * The query string of a call, written and checked by the encoder of the route's query (its query
 * parameters', or its `in: querystring` parameter's), which the parameter encoder hands it.
 */
export interface QueryPart {
  /** the call's query string (without "?"), "" when there is nothing to send */
  queryOf(route: CallRoute, values: Readonly<Record<string, unknown>>): string;
  /** checks the call's query, as the server reads it back, with the route's validator of it */
  check(route: CallRoute, values: ParameterValues, collect: IssueCollector): void;
}

/** How the client writes a route's query parameters, and reads them back as the server reads them. */
export interface QueryEncoder extends QueryPart {
  /** the encoded query pairs ("a=1&b=x%20y") of the parameters that have a value, in their order */
  encode(parameters: readonly RouteParameter[], values: Readonly<Record<string, unknown>>): string;
  /** the parameters as the server reads them back: texts, lists or objects of texts; JSON ones as they are */
  asSent(parameters: readonly RouteParameter[], values: Readonly<Record<string, unknown>>): Record<string, unknown>;
}

/** How the client writes the query string of a route's `in: querystring` parameter, and reads it back as the server reads it. */
export interface QuerystringEncoder extends QueryPart {
  /** the query string (without "?") of the value, "" when there is nothing to send */
  encode(querystring: RouteQuerystring, value: unknown): string;
  /** the value as the server reads it back: a form's fields as texts, JSON as parsed */
  asSent(querystring: RouteQuerystring, value: unknown): unknown;
}

/** How the client writes a route's header parameters, and reads them back as the server reads them. */
export interface HeaderEncoder {
  /** writes a call's headers into `headers`, lower-cased: declared ones in their style, others as simple values */
  write(route: CallRoute, values: Readonly<Record<string, unknown>>, headers: Record<string, string>): void;
  /** the declared headers as the server reads them back, keyed as the spec spells them */
  asSent(parameters: readonly RouteParameter[], values: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /** checks the call's header parameters, as the server reads them back, with the route's validator of them */
  check(route: CallRoute, values: ParameterValues, collect: IssueCollector): void;
}

/** A call's path, query, header and cookie parameters, as the client is given them. */
export interface ParameterValues {
  readonly path?: Readonly<Record<string, unknown>>;
  readonly query?: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, unknown>>;
  readonly cookies?: Readonly<Record<string, unknown>>;
}

/** The validators of a request: a route's, without those of its answers. */
export type RequestValidators = Omit<RouteValidators, "responses">;

/**
 * An operation as the client engine calls it: its route, whose answers' validators may be left
 * out. Every `Route` is one; an operation's call entry (`listEventsCall`) is one without them, so
 * a page whose client does not check answers bundles none of their validators.
 */
export interface CallRoute extends Omit<Route, "validators"> {
  readonly validators: RequestValidators & { readonly responses?: RouteValidators["responses"] };
}

/** The validators of every operation's JSON answers, by operationId, then by status. */
export type ResponseValidators = Readonly<Record<string, Readonly<Record<string, Validator>>>>;
