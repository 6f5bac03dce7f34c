/**
 * Request bodies over Node streams (the Fastify transport): read within a byte limit, and the
 * rest of a refused body thrown away.
 */
/// <reference types="node" />
import type { Readable } from "node:stream";
import type { FastifyRequest } from "fastify";
import { tooLarge, UNREADABLE } from "./content.js";
import type { BodyCallback } from "./exchange.js";

const NO_BYTES = Buffer.alloc(0);

/**
 * Reads the body (which the pass-through content-type parser left unread) up to `limit` bytes.
 * A declared Content-Length over the limit is refused before anything is read (Node then drains
 * the unread body); a body that grows past the limit while read has its rest thrown away.
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
    discardRest(request);
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

/** How long the rest of a refused body may take to arrive (and be thrown away) before the connection is cut. */
const DISCARD_WITHIN_MS = 10_000;

/**
 * Throws away the rest of a body that will not be read (it was refused part-way): the request is
 * detached from any parser and drained, so the client can finish sending and read the answer; a
 * client still sending after DISCARD_WITHIN_MS has its connection cut, so no request lingers.
 */
export function discardRest(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.readableEnded || raw.destroyed) return;
  raw.unpipe();
  raw.removeAllListeners("data");
  const timer = setTimeout(() => raw.destroy(), DISCARD_WITHIN_MS);
  timer.unref();
  raw.once("end", () => clearTimeout(timer));
  raw.once("close", () => clearTimeout(timer));
  raw.resume();
}

function isReadable(value: unknown): value is Readable {
  return typeof value === "object" && value !== null && typeof (value as { resume?: unknown }).resume === "function";
}
