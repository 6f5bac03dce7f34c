/**
 * The reset channel of a data directory's lock (./directory-lock.ts). A holder greets whoever
 * connects to its lock with a line of JSON (its process id, host and start time), only for the
 * message that refuses a second process, and then serves requests of a line: `npm run
 * sandbox:reset` asks the sandbox running on the directory to reset itself (`requestReset`,
 * answered by the handler `serveResets` registers). Only the same user can connect (the socket is
 * 0600), so a holder needs no proof of who asks.
 *
 * The asker checks who it talks to before it sends the seed: the lock's folder no other user can
 * write, the lock's socket file this user's (before connecting, and the same file after), and the
 * process listening on it this user's (./lock-proof.ts). What a holder says (its greeting, its
 * errors) is printed only as escaped text.
 */

import { lstat } from "node:fs/promises";
import type { Socket } from "node:net";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { answerChallenge, challengeHolder, printable } from "./lock-proof.js";
import { codeOf, connectTo } from "./lock-sockets.js";
import { ownUid, refuseUnsafePlace, userLabel } from "./owners.js";

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
  await refuseUnsafePlace(directory);
  const before = await ownLock(file, directory);
  const connection = await connectTo(file).catch((error: unknown) => {
    throw notAsked(directory, codeOf(error), error);
  });
  try {
    const after = await ownLock(file, directory);
    if (after.dev !== before.dev || after.ino !== before.ino) throw notAsked(directory, "the lock changed");
    const lines = lineReader(connection);
    const holder = parseHolder(await lines.next(GREETING_MS));
    const proven = await challengeHolder(file, async (challenge) => {
      connection.write(`${JSON.stringify({ prove: challenge })}\n`);
      return parseProof(await lines.next(GREETING_MS));
    });
    if (!proven)
      throw new Error(
        `the process holding the data directory ${directory} did not show that it runs as this user: nothing was sent to it. Stop it, or run the command again once it has stopped.`,
      );
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

/** The lock's socket file, when it is one of this user's; a lock of another user is refused. */
async function ownLock(file: string, directory: string): Promise<{ dev: bigint; ino: bigint }> {
  const found = await lstat(file, { bigint: true }).catch((error: unknown) => {
    throw notAsked(directory, codeOf(error), error);
  });
  refuseForeignLock(Number(found.uid), file, directory);
  if (!found.isSocket()) throw notAsked(directory, "the lock is not a socket");
  return found;
}

/** The error of a reset that could not be asked for: the holder stopped, or something else. */
function notAsked(directory: string, code: string, cause?: unknown): Error {
  const stopped = code === "ECONNREFUSED" || code === "ENOENT";
  return new Error(
    stopped
      ? `the sandbox holding the data directory ${directory} stopped before it could be asked to reset it: run the command again`
      : `the process holding the data directory ${directory} could not be asked to reset it (${code})`,
    { cause },
  );
}

/**
 * Refuses a lock (at `file`, owned by `owner`) of another user: the sandbox neither connects to
 * nor removes it.
 */
export function refuseForeignLock(owner: number, file: string, directory: string): void {
  const uid = ownUid();
  if (uid === undefined || owner === uid) return;
  throw new Error(
    `the lock ${file} of the data directory ${directory} belongs to user ${userLabel(owner)}, not to this user: the sandbox neither talks to nor removes another user's lock. Give DATA_DIR a folder of this user's; or, as that user, stop what holds it or remove it.`,
  );
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

/**
 * Greets a connection to the lock `file` with who holds it, answers a challenge (./lock-proof.ts)
 * if one comes, then answers its one request.
 */
export function serve(connection: Socket, me: LockHolder, handlers: ResetHandlers, file: string): void {
  connection.unref();
  connection.on("error", () => undefined);
  connection.setTimeout(IDLE_MS, () => connection.destroy());
  connection.write(`${JSON.stringify(me)}\n`);
  void answerLines(connection, handlers, file).catch((error: unknown) => {
    connection.end(`${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`);
  });
}

async function answerLines(connection: Socket, handlers: ResetHandlers, file: string): Promise<void> {
  const lines = lineReader(connection, MAX_REQUEST_BYTES);
  let line = await lines.next(IDLE_MS);
  const challenge = line === undefined ? undefined : parseChallenge(line);
  if (challenge !== undefined) {
    connection.write(`${JSON.stringify({ proof: (await answerChallenge(file, challenge)) ?? null })}\n`);
    line = await lines.next(IDLE_MS);
  }
  if (line === undefined) return void connection.end();
  connection.setTimeout(0);
  const answer = await answerRequest(line, handlers).catch((error: unknown) => ({
    error: error instanceof Error ? error.message : String(error),
  }));
  connection.end(`${JSON.stringify(answer)}\n`);
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

/** Who a holder says it is, as printable text (what another process sends is never printed as it came). */
export function parseHolder(line: string | undefined): LockHolder | undefined {
  if (line === undefined) return undefined;
  try {
    const value = JSON.parse(line) as Partial<LockHolder>;
    return Number.isSafeInteger(value.pid) && typeof value.host === "string"
      ? { pid: value.pid as number, host: printable(value.host, 255), since: printable(String(value.since ?? ""), 40) }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The path of a challenge (`{"prove": <path>}`), or undefined for any other line. */
function parseChallenge(line: string): string | undefined {
  try {
    const value = JSON.parse(line) as { prove?: unknown } | null;
    return typeof value?.prove === "string" ? value.prove : undefined;
  } catch {
    return undefined;
  }
}

/** A holder's answer to a challenge (`{"proof": <token>}`). */
function parseProof(line: string | undefined): string | undefined {
  try {
    const value = JSON.parse(line ?? "") as { proof?: unknown } | null;
    return typeof value?.proof === "string" ? value.proof : undefined;
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
    if (typeof value.error === "string") return { error: printable(value.error, 2000) };
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
