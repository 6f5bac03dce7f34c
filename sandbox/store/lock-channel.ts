/**
 * The reset channel of a data directory's lock (./directory-lock.ts). A holder greets whoever
 * connects to its lock with a line of JSON (its process id, host and start time), only for the
 * message that refuses a second process, and then serves one request of a line: `npm run
 * sandbox:reset` asks the sandbox running on the directory to reset itself (`requestReset`,
 * answered by the handler `serveResets` registers). Only the same user can connect (the socket is
 * 0600), so a request needs no further proof.
 */

import type { Socket } from "node:net";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { codeOf, connectTo } from "./lock-sockets.js";

/** Who holds a lock, as its holder says when greeting. */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
}

/** Resets the data of one schema to the seed sent (not yet checked), for `sandbox:reset`. */
export type ResetHandler = (seed: unknown) => Promise<void>;

/** The reset handlers of a held lock, by schema: every sandbox of this process on the schema. */
export type ResetHandlers = Map<string, Set<ResetHandler>>;

/**
 * Registers how a sandbox of this process resets `schema` of the data directory the process holds,
 * for `sandbox:reset` run against it; answers how to unregister. Without a lock of this process on
 * the directory it does nothing.
 */
export function serveResets(path: string, schema: string, reset: ResetHandler): () => void {
  const handlers = held().get(`${resolve(path)}.lock`);
  if (handlers === undefined) return () => undefined;
  const ofSchema = handlers.get(schema) ?? new Set();
  handlers.set(schema, ofSchema.add(reset));
  return () => {
    ofSchema.delete(reset);
    if (ofSchema.size === 0 && handlers.get(schema) === ofSchema) handlers.delete(schema);
  };
}

/**
 * Asks the process holding a data directory to reset `schema` to `seed`; resolves with who did
 * once it is done, or throws with the holder's error (or saying the directory is no longer held).
 */
export async function requestReset(path: string, schema: string, seed: unknown): Promise<LockHolder> {
  const directory = resolve(path);
  const file = `${directory}.lock`;
  const connection = await connectTo(file).catch((error: unknown) => {
    const code = codeOf(error);
    const stopped = code === "ECONNREFUSED" || code === "ENOENT";
    throw new Error(
      stopped
        ? `the sandbox holding the data directory ${directory} stopped before it could be asked to reset it: run the command again`
        : `the process holding the data directory ${directory} could not be asked to reset it (${code})`,
      { cause: error },
    );
  });
  try {
    const lines = lineReader(connection);
    const holder = parseHolder(await lines.next(GREETING_MS));
    connection.write(`${JSON.stringify({ reset: seed, schema })}\n`);
    const answer = parseAnswer(await lines.next(RESET_MS));
    if (answer === undefined)
      throw new Error(`the process holding the data directory ${directory} gave no answer to the reset`);
    if ("error" in answer) throw new Error(`the sandbox in ${describe(holder)} did not reset: ${answer.error}`);
    if (holder === undefined) throw new Error(`the process holding ${directory} did not say who it is`);
    return holder;
  } finally {
    connection.destroy();
  }
}

/** How long a holder has to greet, and to answer a reset. */
export const GREETING_MS = 2000;
const RESET_MS = 120_000;
/** How long a connection may stay without a request, and the longest request (a seed) taken. */
const IDLE_MS = 30_000;
const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

/** The reset handlers of the locks this process holds, by lock path; on globalThis, as ./engines.ts keeps its registry. */
const REGISTRY = Symbol.for("workforce-scheduling-api/sandbox/directory-locks");
export function held(): Map<string, ResetHandlers> {
  const global = globalThis as { [REGISTRY]?: Map<string, ResetHandlers> };
  global[REGISTRY] ??= new Map();
  return global[REGISTRY];
}

/** Greets a connection with who holds the lock, then answers its one request. */
export function serve(connection: Socket, me: LockHolder, handlers: ResetHandlers): void {
  connection.unref();
  connection.on("error", () => undefined);
  connection.setTimeout(IDLE_MS, () => connection.destroy());
  connection.write(`${JSON.stringify(me)}\n`);
  void lineReader(connection, MAX_REQUEST_BYTES)
    .next(IDLE_MS)
    .then(async (line) => {
      if (line === undefined) return connection.end();
      connection.setTimeout(0);
      const answer = await answerRequest(line, handlers).catch((error: unknown) => ({
        error: error instanceof Error ? error.message : String(error),
      }));
      connection.end(`${JSON.stringify(answer)}\n`);
    })
    .catch((error: unknown) => {
      connection.end(`${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`);
    });
}

async function answerRequest(line: string, handlers: ResetHandlers): Promise<{ done: true } | { error: string }> {
  const request = parseRequest(line);
  if (request === undefined)
    return { error: 'the request is not one the lock serves: {"reset": <seed>, "schema": <name>}' };
  const resets = [...(handlers.get(request.schema) ?? [])];
  if (resets.length === 0)
    return {
      error: `no sandbox on the schema ${request.schema} runs in this process now (it may be starting or stopping): try again, or stop it`,
    };
  // each sandbox on the schema resets it (the later ones find it reset) and forgets what it knew
  for (const reset of resets) await reset(request.reset);
  return { done: true };
}

/** Reads a connection line by line; a line longer than `limit` bytes is an error. */
export function lineReader(connection: Socket, limit = 64 * 1024): LineReader {
  return new LineReader(connection, limit);
}

export class LineReader {
  #buffered = "";
  #bytes = 0;
  #ended = false;
  #failure: Error | undefined;
  #wake: (() => void) | undefined;

  constructor(
    connection: Socket,
    readonly limit: number,
  ) {
    connection.setEncoding("utf8");
    connection.on("data", (chunk: string) => {
      this.#buffered += chunk;
      this.#bytes += Buffer.byteLength(chunk);
      if (this.#bytes > limit && !this.#buffered.includes("\n")) {
        this.#failure = new Error(`a line longer than ${limit} bytes came on the lock's connection`);
        connection.pause();
      }
      this.#wake?.();
    });
    const end = (): void => {
      this.#ended = true;
      this.#wake?.();
    };
    connection.on("end", end);
    connection.on("close", end);
  }

  ended(): boolean {
    return this.#ended;
  }

  /** The next line; undefined when the connection ended, or none came within `timeoutMs`. */
  async next(timeoutMs: number): Promise<string | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = this.#take();
      if (line !== undefined) return line;
      if (this.#failure !== undefined) throw this.#failure;
      if (this.#ended || Date.now() >= deadline) return undefined;
      await this.#until(deadline);
    }
  }

  #take(): string | undefined {
    const newline = this.#buffered.indexOf("\n");
    if (newline === -1) return undefined;
    const line = this.#buffered.slice(0, newline);
    this.#buffered = this.#buffered.slice(newline + 1);
    this.#bytes = Buffer.byteLength(this.#buffered);
    return line;
  }

  /** Waits for more data, the end, or the deadline. */
  #until(deadline: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, deadline - Date.now());
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
    });
  }
}

export function parseHolder(line: string | undefined): LockHolder | undefined {
  if (line === undefined) return undefined;
  try {
    const value = JSON.parse(line) as Partial<LockHolder>;
    return typeof value.pid === "number" && typeof value.host === "string"
      ? { pid: value.pid, host: value.host, since: String(value.since ?? "") }
      : undefined;
  } catch {
    return undefined;
  }
}

function parseRequest(line: string): { reset: unknown; schema: string } | undefined {
  try {
    const value = JSON.parse(line) as { reset?: unknown; schema?: unknown } | null;
    if (typeof value !== "object" || value === null) return undefined;
    return value.reset !== undefined && typeof value.schema === "string"
      ? { reset: value.reset, schema: value.schema }
      : undefined;
  } catch {
    return undefined;
  }
}

function parseAnswer(line: string | undefined): { done: true } | { error: string } | undefined {
  if (line === undefined) return undefined;
  try {
    const value = JSON.parse(line) as { done?: unknown; error?: unknown };
    if (typeof value.error === "string") return { error: value.error };
    return value.done === true ? { done: true } : undefined;
  } catch {
    return undefined;
  }
}

/** The holder of a lock, as a message names it. */
export function describe(holder: LockHolder | undefined): string {
  if (holder === undefined) return "another process";
  if (holder.pid === process.pid && holder.host === hostname()) return "this process (another sandbox)";
  return `process ${holder.pid} on ${holder.host} (since ${holder.since})`;
}
