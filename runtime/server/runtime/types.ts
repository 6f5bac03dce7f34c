/**
 * The types every handler is written against: what it receives (already validated and
 * converted) and what it may answer (a union of the operation's declared responses, so an
 * undeclared status or a body of the wrong shape does not compile).
 */
import type { Declared, StatusOf } from "../../statuses.js";
import type { ServerRequest } from "./exchange.js";
import type { JsonStream, PreparedJson } from "./json-stream.js";

export type { StatusRange } from "../../statuses.js";

/** A request part the operation does not have (no path parameters, no query, no headers). */
export type NoInput = Readonly<Record<string, never>>;

/**
 * A file's bytes: Node's `Buffer` in a program that has Node's types (over Fastify, and over MSW
 * in Node, a file arrives as one), else a `Uint8Array` (MSW in a page): read through
 * `globalThis`, so that a page's program needs no Node types for the handlers' types.
 */
export type FileBytes = typeof globalThis extends { Buffer: { prototype: infer B } } ? B : Uint8Array;

/** A file of a multipart body: its name and media type as sent, and its bytes. */
export interface UploadedFile {
  readonly filename: string;
  readonly mimetype: string;
  readonly encoding: string;
  readonly data: FileBytes;
}

/** A multipart body whose file fields `F` carry the uploaded bytes instead of strings. */
export type WithFiles<B, F extends readonly string[]> = B extends object
  ? { [K in keyof B]: K extends F[number] ? FileField<B[K]> : B[K] }
  : B;

type FileField<V> = NonNullable<V> extends readonly unknown[] ? UploadedFile[] : UploadedFile;

/**
 * One operation as its handler sees it: the request parts, the declared responses by status, and
 * whether every way to call it presents a credential (`secured`), so that a principal is always known.
 */
export interface OperationShape {
  readonly secured: boolean;
  readonly params: unknown;
  readonly query: unknown;
  readonly headers: unknown;
  /** the cookie parameters, for an operation that has any */
  readonly cookies?: unknown;
  readonly body: unknown;
  readonly responses: object;
}

/**
 * Who calls an operation, as the handler sees it: the principal the authenticate hook answered,
 * or undefined on an operation that may be called without a credential.
 */
export type PrincipalOf<S extends OperationShape, P> = S["secured"] extends true ? P : P | undefined;

/**
 * What a handler receives: every part validated against the contract and converted ("7" → 7), and
 * who calls (`P`, the principal type of the server's authenticate hook; undefined for a yes/no hook).
 */
export interface HandlerInput<in out S extends OperationShape, out P = undefined> {
  /** the path parameters */
  readonly params: S["params"];
  /** the query parameters the operation declares */
  readonly query: S["query"];
  /** the header parameters the operation declares, keyed as the spec spells them */
  readonly headers: S["headers"];
  /** the cookie parameters the operation declares */
  readonly cookies: S extends { readonly cookies: infer C } ? C : NoInput;
  /** the body: parsed JSON, a form, text, bytes, or a multipart form with its files */
  readonly body: S["body"];
  /** who calls: what the authenticate hook answered for the credential presented */
  readonly principal: PrincipalOf<S, P>;
  /**
   * the request as the transport carries it, for what the contract does not describe: its logger
   * and headers everywhere; over Fastify it is the FastifyRequest (client address, raw request)
   */
  readonly request: ServerRequest;
}

/** Headers a handler adds to its answer ("content-type" picks one of the declared media types). */
export type ResponseHeaders = Readonly<Record<string, string | number | string[]>>;

/**
 * A body as a handler may answer it: a JSON object or list may also come as a `JsonStream` or a
 * `PreparedJson` of it; a sequence of items (server-sent events, JSON Lines) as any iterable of them.
 */
type AnswerBody<B> = B extends Uint8Array
  ? B
  : B extends AsyncIterable<infer T>
    ? AsyncIterable<T> | Iterable<T>
    : B extends object
      ? B | JsonStream<B> | PreparedJson<B>
      : B;

type Answer<S, B> = undefined extends B
  ? { readonly status: S; readonly body?: AnswerBody<B>; readonly headers?: ResponseHeaders }
  : { readonly status: S; readonly body: AnswerBody<B>; readonly headers?: ResponseHeaders };

/** What a handler answers: one of the declared responses, its status literal paired with its body. */
export type HandlerResult<R> = { [K in Declared<R>]: Answer<StatusOf<K, R>, R[K]> }[Declared<R>];

/**
 * The function that serves one operation. It may also throw a `ProblemError`. (The variance of its
 * type parameters, here and on `HandlerInput`, `Handlers` and the server's options, is declared:
 * measured, it costs the compiler a walk of every operation's types in each program relating them.)
 */
export type Handler<in out S extends OperationShape, in P = undefined> = (
  input: HandlerInput<S, P>,
) => HandlerResult<S["responses"]> | Promise<HandlerResult<S["responses"]>>;
