/** Minimal fakes of Fastify's request and reply, for functions that only read and write a few members. */
import { PassThrough, Writable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type Mock, vi } from "vitest";

/** What a fake reply was asked to send. */
export interface SentReply {
  statusCode: number;
  readonly headers: Record<string, string | number | string[]>;
  payload: unknown;
  sent: boolean;
  elapsedTime: number;
}

/** A reply recording status, headers and payload (header names lower-cased, as Fastify keeps them). */
export function fakeReply(): { reply: FastifyReply; sent: SentReply } {
  const sent: SentReply = { statusCode: 200, headers: {}, payload: undefined, sent: false, elapsedTime: 12.34 };
  const reply = {
    get statusCode() {
      return sent.statusCode;
    },
    get elapsedTime() {
      return sent.elapsedTime;
    },
    code(status: number) {
      sent.statusCode = status;
      return reply;
    },
    header(name: string, value: string | number | string[]) {
      sent.headers[name.toLowerCase()] = value;
      return reply;
    },
    headers(values: Readonly<Record<string, string | number | string[]>>) {
      for (const [name, value] of Object.entries(values)) sent.headers[name.toLowerCase()] = value;
      return reply;
    },
    send(payload?: unknown) {
      sent.payload = payload;
      sent.sent = true;
      return reply;
    },
  };
  return { reply: reply as unknown as FastifyReply, sent };
}

/** The log methods of a fake request, as spies. */
export interface FakeLog {
  readonly info: Mock<(...args: unknown[]) => void>;
  readonly warn: Mock<(...args: unknown[]) => void>;
  readonly error: Mock<(...args: unknown[]) => void>;
}

export interface FakeRequestInit {
  readonly method?: string;
  readonly url?: string;
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
  readonly params?: unknown;
  readonly query?: unknown;
  readonly body?: unknown;
  readonly raw?: PassThrough;
  readonly parts?: () => AsyncIterableIterator<unknown>;
}

/** A request with the given parts and spied log methods; `raw` is a PassThrough unless given. */
export function fakeRequest(init: FakeRequestInit = {}): { request: FastifyRequest; log: FakeLog; raw: PassThrough } {
  const log: FakeLog = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const raw = init.raw ?? new PassThrough();
  const request = {
    method: init.method ?? "GET",
    url: init.url ?? "/",
    headers: { ...init.headers },
    params: init.params ?? {},
    query: init.query ?? {},
    body: init.body,
    raw,
    log,
    parts: init.parts,
  };
  return { request: request as unknown as FastifyRequest, log, raw };
}

/** A writable collecting pino's JSON lines, for a Fastify logger. */
export function logLines(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const text: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text.push(chunk.toString("utf8"));
      done();
    },
  });
  const lines = (): Record<string, unknown>[] =>
    text
      .join("")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { stream, lines };
}
