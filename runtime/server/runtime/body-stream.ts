/**
 * Request bodies over Node streams (the Fastify transport): read within a byte limit, and the
 * rest of a refused body left unread.
 */
/// <reference types="node" />
import type { Readable } from "node:stream";
import type { FastifyRequest } from "fastify";
import { tooLarge, UNREADABLE } from "./content.js";
import type { BodyCallback } from "./exchange.js";

const NO_BYTES = Buffer.alloc(0);

/**
 * Reads the body (which the pass-through content-type parser left unread) up to `limit` bytes.
 * A declared Content-Length over the limit is refused before anything is read; a body that grows
 * past the limit while read is cut there, as it streams. Either way the rest is not read
 * (stop-reading.ts).
 */
export function readBody(request: FastifyRequest, limit: number, done: BodyCallback): void {
  if (Number(request.headers["content-length"]) > limit) return done(tooLarge(limit), NO_BYTES);
  const stream: Readable = isReadable(request.body) ? request.body : request.raw;
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  stream.on("data", (chunk: Buffer | string) => {
    if (finished) return;
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size <= limit) return void chunks.push(bytes);
    finished = true;
    leaveRest(request);
    done(tooLarge(limit), NO_BYTES);
  });
  stream.on("end", () => {
    if (finished) return;
    finished = true;
    done(undefined, chunks.length === 1 ? (chunks[0] ?? NO_BYTES) : Buffer.concat(chunks, size));
  });
  stream.on("error", () => {
    if (finished) return;
    finished = true;
    done(UNREADABLE, NO_BYTES);
  });
  stream.resume();
}

/** The body's bytes as they arrive (a body that is a sequence of items, read item by item). */
export function bodyChunks(request: FastifyRequest): AsyncIterable<Uint8Array> {
  return isReadable(request.body) ? request.body : request.raw;
}

/**
 * Leaves the rest of a body that will not be read (it was refused part-way): the request is
 * detached from any parser and paused. The answer that follows stops its reading (stop-reading.ts:
 * at most a small bound more is read, then the connection is closed), so no client can have the
 * server read what it has already refused.
 */
export function leaveRest(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.readableEnded || raw.destroyed) return;
  raw.unpipe();
  raw.removeAllListeners("data");
  raw.pause();
}

function isReadable(value: unknown): value is Readable {
  return typeof value === "object" && value !== null && typeof (value as { resume?: unknown }).resume === "function";
}
