/**
 * What the request pipeline (core.ts) works with, whatever carries the request: a neutral view of
 * the request, the answer it decides, and the transport that reads the one and writes the other.
 * Fastify's request has the members of `IncomingRequest`, so the Fastify transport (pipeline.ts)
 * hands it over as it is; the Fetch API transport (the msw entry) builds one from a `Request`.
 */

import type { ProblemDetails } from "./problems.js";

/** The log of a request: pino's methods as far as the pipeline and a handler use them. */
export interface RequestLog {
  info(object: unknown, message?: string): void;
  warn(object: unknown, message?: string): void;
  error(object: unknown, message?: string): void;
}

/**
 * The request as a handler and the authenticate hook see it, whatever the transport: over Fastify
 * it is the `FastifyRequest` (with the client address, the raw request and more), over MSW a plain
 * object with these members.
 */
export interface ServerRequest {
  readonly method: string;
  /** the request target as sent: the path and the query ("/api/1_12/venues?limit=5") */
  readonly url: string;
  /** the headers, their names lower-cased */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly log: RequestLog;
}

/** What the pipeline reads of a request, besides its body (which the transport reads). */
export interface IncomingRequest extends ServerRequest {
  /** the path parameters as the router matched them (router names, see `toRouterPath`), decoded */
  readonly params: unknown;
  /** the query parsed into names and values (read for credentials sent in the query) */
  readonly query: unknown;
  /** the transport's own request; a TLS socket whose client certificate was verified has `authorized` */
  readonly raw?: { readonly socket?: unknown };
}

/** Headers of an answer. */
export type AnswerHeaders = Readonly<Record<string, string | number | string[]>>;

/**
 * The answer the pipeline decided: the status, the handler's (or a problem's) headers, the
 * Content-Type to set over them, and the body serialised (or, streamed, its text as it is read).
 * The transport writes it as it is.
 */
export interface Outcome {
  readonly status: number;
  readonly headers: AnswerHeaders | undefined;
  /** set after `headers` (so it wins), unless undefined */
  readonly contentType: string | undefined;
  readonly body: string | Uint8Array | AsyncIterable<string | Uint8Array> | undefined;
}

/** Called once the body is read: a problem (413, unreadable), or the bytes. */
export type BodyCallback = (problem: ProblemDetails | undefined, body: Uint8Array) => void;

/**
 * A transport: how the pipeline reads a request's body from it and writes an answer to it. `Req`
 * is the transport's request, `Res` where its answer goes (Fastify's reply, a promise's resolve).
 */
export interface Transport<Req extends IncomingRequest, Res> {
  /** whether the request carries a body */
  hasBody(request: Req): boolean;
  /** whether the request carries bytes of a body (not only a Content-Type saying what they would be) */
  hasContent(request: Req): boolean;
  /** reads the body, refusing one over `limit` bytes */
  readBody(request: Req, limit: number, done: BodyCallback): void;
  /** the body's bytes as they arrive, for a body that is a sequence of items */
  bodyChunks(request: Req): AsyncIterable<Uint8Array>;
  /** writes the answer */
  send(request: Req, response: Res, outcome: Outcome): void;
  /** answers an error thrown on the way (a `ProblemError`, a failure of the transport, a bug) */
  fail(request: Req, response: Res, error: unknown): void;
}
