/**
 * Where a server's command writes its log (the mock server's, the sandbox's `npm start`): on a
 * terminal, one readable line per event (pino-pretty, Fastify's own printer: the time, the level,
 * the message, in colour); on a pipe or in a file, the JSON lines that log collectors read, the
 * lines of a few milliseconds in one write. pino-pretty is not a dependency of the package: where
 * it is not installed, a terminal gets the JSON lines too.
 */
/// <reference types="node" />
import type { LoggerOption } from "./logging.js";

/** What pino-pretty's default export makes: a stream of readable lines writing to `destination`. */
type PrettyFactory = (options: Readonly<Record<string, unknown>>) => { write(line: string): void };

/** A module loaded only when there: not a dependency, so not named where a compiler would resolve it. */
const PRETTY = "pino-pretty";

/** The logger writing to `out` (the process's stdout): readable lines on a terminal, JSON lines elsewhere. */
export async function loggerFor(out: NodeJS.WritableStream & { readonly isTTY?: boolean }): Promise<LoggerOption> {
  if (out.isTTY !== true) return { stream: batched(out) };
  try {
    const { default: pretty } = (await import(PRETTY)) as { default: PrettyFactory };
    // a request's line says all (method, path, status, time, a refusal's problem): its fields stay out
    const options = { colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,reqId,problem,prefer" };
    return { stream: pretty({ ...options, destination: out }) };
  } catch {
    return { stream: batched(out) };
  }
}

/** How long a line waits for others to be written with, at most, in milliseconds. */
export const LOG_DELAY_MS = 20;

/** The bytes a batch of lines holds before it is written, whatever its time. */
const BATCH_BYTES = 65_536;

/**
 * `out`, the lines of LOG_DELAY_MS written together, in one write. A line per request written at
 * once costs a system call each (writes to a file or a pipe are synchronous), a large part of a
 * request's own CPU under load, and the lines of one turn of the event loop are few (with 8
 * requests in flight, one or two): written together, the lines of a few hundred requests cost
 * one. Each line is copied into a batch of bytes outside V8's heap as it is logged, rather than
 * kept as a string until its batch is written: kept for LOG_DELAY_MS, the strings outlived a
 * collection of the young generation and were moved to the old one, about 250 bytes a request
 * under load, nine tenths of what the sandbox's collections kept (docs/benchmarks.md). What is
 * waiting is written when the process exits; a process killed outright loses the lines of its
 * last LOG_DELAY_MS at most.
 */
function batched(out: NodeJS.WritableStream): { write(line: string): void } {
  const batch = Buffer.allocUnsafeSlow(BATCH_BYTES);
  let length = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (length === 0) return;
    // a copy: the stream may hold what it is given until it has written it
    const chunk = Buffer.allocUnsafe(length);
    batch.copy(chunk, 0, 0, length);
    length = 0;
    out.write(chunk);
  };
  process.on("exit", flush);
  return {
    write: (line) => {
      // a UTF-16 unit takes 3 bytes of UTF-8 at most
      if (length + line.length * 3 > BATCH_BYTES) {
        flush();
        if (line.length * 3 > BATCH_BYTES) return void out.write(line);
      }
      length += batch.write(line, length);
      timer ??= setTimeout(flush, LOG_DELAY_MS).unref();
    },
  };
}
