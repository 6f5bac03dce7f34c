/**
 * Requests answered before their body arrived whole (refused: 401, 403, 404, 405, 413, 415; or any
 * answer given without reading it) are not read to their end. Node reads such a body to its end
 * after the answer, to keep the connection for the next request: a client could have the server
 * read a gigabyte it has already refused. Instead the answer says `Connection: close`, then at most
 * a small bound of the body (64 KiB by default, `refusedBodyLimit`) is read and thrown away, for
 * at most 2 s, and the connection is closed. Reading that much first lets a client that is still
 * sending see the answer, rather than a connection reset while its answer was on the way.
 *
 * A request no route takes is answered (404, 405) before Fastify reads its body, which the
 * root's parsers would otherwise read up to their own limit.
 */
/// <reference types="node" />
import type { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isNotFoundHandler } from "./not-found.js";

/** The default bound of a refused body read before its connection is closed: 64 KiB. */
export const DEFAULT_REFUSED_BODY_LIMIT = 65_536;

/** How long the rest of a refused body is read before the connection is closed. */
const LINGER_MS = 2000;

/** The requests whose reading was stopped already (by the app's hook or a scope's). */
const STOPPED = new WeakSet<IncomingMessage>();

/** The option every server taking bodies has. */
export interface RefusedBodyOptions {
  /**
   * the most of a body read after an answer given before it arrived whole (a refusal: 401, 403,
   * 404, 405, 413, 415), before the connection is closed, in bytes (default 64 KiB)
   */
  readonly refusedBodyLimit?: number;
}

/** The mark of an instance with the hook of `stopReadingOnSend`, which the scopes it holds inherit. */
const STOPS_READING: unique symbol = Symbol("stopReadingOnSend");

/**
 * Adds `stopReadingUnread`'s hook to `app`, with `note` (logging.ts's `noteAnswer`) run first in
 * the same hook: one onSend hook a request, not two. The routes' scopes mounted on `app` then
 * need no hook of their own (`stopsReading`): Fastify runs an instance's hooks in its scopes too.
 */
export function stopReadingOnSend(
  app: FastifyInstance,
  limit: number,
  note?: (reply: FastifyReply, payload: unknown) => void,
): void {
  app.addHook("onSend", stopReadingUnread(limit, note));
  (app as unknown as Record<typeof STOPS_READING, boolean>)[STOPS_READING] = true;
}

/** Whether `scope` or an instance it is a scope of has the hook of `stopReadingOnSend`. */
export function stopsReading(scope: FastifyInstance): boolean {
  return (scope as unknown as Partial<Record<typeof STOPS_READING, boolean>>)[STOPS_READING] === true;
}

/**
 * An onSend hook stopping the reading of every request answered before its body arrived whole
 * (`note`, when given, first sees each answer).
 * An answer decided as the request's head was parsed waits one turn of the event loop, for the
 * parser to reach the end of the bytes already received: a small body sent with its head has
 * then arrived whole, and the connection is kept for the next request.
 */
export function stopReadingUnread(
  limit: number = DEFAULT_REFUSED_BODY_LIMIT,
  note?: (reply: FastifyReply, payload: unknown) => void,
): (
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
) => void {
  return (request, reply, payload, done) => {
    note?.(reply, payload);
    const raw = request.raw;
    if (!(raw.socket instanceof Socket) || raw.complete || STOPPED.has(raw)) return done(null, payload);
    setImmediate(() => {
      stopReading(raw, reply.raw, limit);
      done(null, payload);
    });
  };
}

/**
 * Stops reading `request` when its body has not arrived whole: `response` (not yet written) says
 * `Connection: close`, at most `limit` more bytes are read, and the connection is closed once the
 * answer is written and the bound, the body's end or LINGER_MS is reached.
 */
export function stopReading(request: IncomingMessage, response: ServerResponse, limit: number): void {
  // a request injected for a test (light-my-request) has no connection to stop reading
  if (!(request.socket instanceof Socket) || request.complete || request.destroyed || STOPPED.has(request)) return;
  STOPPED.add(request);
  if (!response.headersSent) response.setHeader("connection", "close");
  const socket = request.socket;
  let read = 0;
  let answered = false;
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    request.pause();
    // before the answer is written, Node closes the connection once it is (Connection: close)
    if (!answered || socket.destroyed) return;
    if (socket.writableFinished) socket.destroy();
    else socket.once("finish", () => socket.destroy());
  };
  const timer = setTimeout(end, LINGER_MS);
  timer.unref();
  response.once("finish", () => {
    answered = true;
    // Node ends a Connection: close answer's socket as soon as it is written, with what the client
    // is still sending unread; the reading goes on until `end`
    if (!ended) socket.removeListener("finish", socket.destroy);
  });
  request.once("close", () => clearTimeout(timer));
  request.unpipe();
  request.removeAllListeners("data");
  request.on("data", (chunk: Buffer) => {
    read += chunk.length;
    if (read > limit) end();
  });
  request.once("end", end);
  request.resume();
}

/**
 * An onRequest hook answering a request no route takes at once, with its not-found handler (404,
 * 405), before its body is read. Only the not-found handlers of this runtime are called so.
 */
export function answerUnroutedEarly(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  // a routed request goes on at once: Fastify makes `routeOptions` anew (an object of a dozen
  // fields) on every read, so it is read for the unrouted ones only
  if (!request.is404) return done();
  const handler = request.routeOptions.handler as unknown;
  if (isNotFoundHandler(handler)) return void handler(request, reply);
  done();
}

/**
 * Follows `app`'s connections, and closes those that never sent a byte as it begins to close.
 * Node's close (Fastify's) ends the connections idle between requests, but takes one that has not
 * begun a request yet as busy, and waits for its headers timeout: a client that opened a
 * connection and left it unused (fetch does so after an upload it aborted) would hold
 * `app.close()` for a minute.
 */
export function closeUnusedConnections(app: FastifyInstance): void {
  const open = new Set<Socket>();
  app.server.on("connection", (socket: Socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  });
  app.addHook("preClose", (done) => {
    for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
    done();
  });
}
