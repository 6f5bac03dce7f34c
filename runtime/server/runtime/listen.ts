/**
 * What a server's command does the same for every spec (the mock server's main.ts, and an
 * application's own, such as the sandbox's `npm start`): where it listens (`--port` and `--host`
 * on its command line, over PORT and HOST in the environment), which keys the mock accepts, why it
 * cannot listen in one line with the fix (a port in use, a port that needs privileges, a host that
 * is not this machine's), and a graceful stop on SIGINT and SIGTERM.
 */
/// <reference types="node" />
import { createServer } from "node:net";
import type { FastifyInstance } from "fastify";
import { createKeyAuthenticator } from "./key-authenticator.js";
import type { Authenticate } from "./security.js";

/** Where a server listens. */
export interface ListenPlace {
  readonly host: string;
  readonly port: number;
}

/** Where the mock server listens and whom it lets in. */
export interface ListenSettings extends ListenPlace {
  /** only the keys of API_KEYS, or any non-empty key without it */
  readonly authenticate: Authenticate;
}

/** A command line the command does not take: the message says what it takes. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The options of a server's command line, for messages: `--port N`, and what it says of it. */
export type OptionHelp = readonly [option: string, meaning: string];

/** The options every server's command takes. */
export const LISTEN_OPTIONS: readonly OptionHelp[] = [
  ["--port N", "the port to listen on (default PORT, else 3000; 0 picks a free one)"],
  ["--host ADDRESS", "the address to listen on (default HOST, else 127.0.0.1; 0.0.0.0 for all)"],
];

/**
 * `--port` and `--host` of `argv` (`--port 4000` or `--port=4000`), over PORT and HOST of `env`;
 * throws a UsageError naming what `command` takes for anything else on the line.
 */
export function listenPlaceOf(
  env: Readonly<Record<string, string | undefined>>,
  argv: readonly string[] = [],
  command = "the server",
): ListenPlace {
  const flags = commandLineOf(argv, command, LISTEN_OPTIONS);
  return {
    host: flags.host ?? (env.HOST?.trim() || "127.0.0.1"),
    port: flags.port === undefined ? parsePort(env.PORT) : parsePort(flags.port, "--port"),
  };
}

/** The mock's settings: where it listens (listenPlaceOf) and API_KEYS (comma-separated). */
export function listenSettingsOf(
  env: Readonly<Record<string, string | undefined>>,
  argv: readonly string[] = [],
  command = "the mock server",
): ListenSettings {
  const keys = (env.API_KEYS ?? "")
    .split(",")
    .map((key) => key.trim())
    .filter((key) => key !== "");
  return {
    ...listenPlaceOf(env, argv, command),
    authenticate: keys.length > 0 ? createKeyAuthenticator(keys) : anyKey,
  };
}

const anyKey: Authenticate = () => true;

/**
 * The values of the options `accepted` names (`--port N` or `--port=N` is read as `port`; `--help`
 * as `help`, valued "true"); throws a UsageError for an option it does not name, an option given
 * twice or without its value, and an argument that is not an option, saying what `command` takes.
 */
export function commandLineOf(
  argv: readonly string[],
  command: string,
  accepted: readonly OptionHelp[],
): Readonly<Record<string, string | undefined>> {
  const names = new Set(accepted.map(([option]) => /^--([\w-]+)/.exec(option)?.[1] ?? ""));
  const values: Record<string, string> = {};
  const refuse = (what: string): UsageError =>
    new UsageError(`${what}: ${command} takes ${usageOf(accepted, command)}`);
  for (let at = 0; at < argv.length; at++) {
    const option = /^--([^=]+)(?:=(.*))?$/s.exec(argv[at] ?? "");
    if (option === null) throw refuse(`${JSON.stringify(argv[at])} is not an option`);
    const [, name = "", inline] = option;
    if (name === "help" && inline === undefined) {
      values.help = "true";
      continue;
    }
    if (!names.has(name)) throw refuse(`unknown option --${name}`);
    const value = inline ?? argv[at + 1];
    if (value === undefined || (inline === undefined && value.startsWith("--")))
      throw refuse(`--${name} needs a value`);
    if (inline === undefined) at++;
    if (values[name] !== undefined) throw refuse(`--${name} is given twice`);
    values[name] = value;
  }
  return values;
}

/** The options of a command, for a message: "--port N and --host ADDRESS (... -- --help says what each does)". */
export function usageOf(accepted: readonly OptionHelp[], command: string): string {
  const options = accepted.map(([option]) => option);
  if (options.length === 0) return "no options";
  const listed = options.length === 1 ? options[0] : `${options.slice(0, -1).join(", ")} and ${options.at(-1)}`;
  return `${listed} (${command} -- --help says what each does)`;
}

/** A port number (PORT's default 3000 when unset or empty; 0 picks a free port). */
export function parsePort(raw: string | undefined, name = "PORT"): number {
  const value = Number(raw === undefined || raw.trim() === "" ? "3000" : raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535)
    throw new UsageError(`${name} must be a port number from 0 to 65535, not ${JSON.stringify(raw)}`);
  return value;
}

/** The server cannot listen at `host:port`; `code` is the system's (EADDRINUSE, EACCES, ...). */
export class ListenError extends Error {
  readonly host: string;
  readonly port: number;
  readonly code: string | undefined;

  constructor(host: string, port: number, code: string | undefined, message: string, cause: unknown) {
    super(message, { cause });
    this.name = "ListenError";
    this.host = host;
    this.port = port;
    this.code = code;
  }
}

/**
 * Listens at `host:port` and closes again: throws a `ListenError` when the server could not listen
 * there. A server that opens a database first checks this before, so that a port in use is said at
 * once, not after the seconds the database takes. (What takes the port between this check and the
 * server's listen is reported the same way, by `listenError`.)
 */
export async function checkListen(host: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error) => reject(listenError(error, host, port)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** The error of a failed listen, in words: a `ListenError` for the failures of the address, else the error. */
export function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as { code?: unknown } | undefined)?.code;
  const text = typeof code === "string" ? code : undefined;
  const fail = (message: string): ListenError => new ListenError(host, port, text, message, error);
  if (code === "EADDRINUSE")
    return fail(`port ${port} on ${host} is in use: stop what uses it, or choose another port (0 picks a free one)`);
  if (code === "EACCES")
    return fail(`port ${port} on ${host} needs privileges this user does not have (EACCES): choose a port above 1023`);
  if (code === "EADDRNOTAVAIL")
    return fail(`${host} is not an address of this machine (EADDRNOTAVAIL): listen on 127.0.0.1, or 0.0.0.0 for all`);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return fail(
      `the host name ${JSON.stringify(host)} is not known (${code}): listen on 127.0.0.1, or 0.0.0.0 for all`,
    );
  return error;
}

/**
 * Why `command` did not start, in one line: a port in use says how to choose another, with the
 * option and with PORT; any other error, its message.
 */
export function startFailure(error: unknown, command: string): string {
  if (error instanceof ListenError && error.code === "EADDRINUSE") {
    const other = error.port === 65535 ? 3000 : error.port + 1;
    return `port ${error.port} on ${error.host} is in use: stop what uses it, or choose another with ${command} -- --port ${other} (or PORT=${other}; 0 picks a free one)`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * The origin a client on this machine reaches of a server listening at `address` (what Fastify's
 * `listen` answers): one listening on every interface (0.0.0.0, ::) is reached at the loopback
 * address.
 */
export function reachableOrigin(address: string): string {
  const url = new URL(address);
  if (url.hostname === "0.0.0.0") url.hostname = "127.0.0.1";
  if (url.hostname === "[::]" || url.hostname === "[::1]") url.hostname = "localhost";
  return url.origin;
}

/** On SIGINT or SIGTERM: stops taking connections, finishes the requests in flight, then exits (forced after 10 s). */
export function closeOnSignals(app: FastifyInstance): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void shutdown(app, signal));
}

async function shutdown(app: FastifyInstance, signal: string): Promise<void> {
  app.log.info(`${signal} received: closing`);
  setTimeout(() => process.exit(1), 10_000).unref();
  await app.close();
  process.exit(0);
}
