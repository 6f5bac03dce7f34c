/**
 * What the mock server's entry point does the same for every spec: where it listens and which keys
 * it accepts, read from the environment, and a graceful stop on SIGINT and SIGTERM.
 */
/// <reference types="node" />
import type { FastifyInstance } from "fastify";
import { createKeyAuthenticator } from "./key-authenticator.js";
import type { Authenticate } from "./security.js";

/** Where a server listens and whom it lets in. */
export interface ListenSettings {
  readonly host: string;
  readonly port: number;
  /** only the keys of API_KEYS, or any non-empty key without it */
  readonly authenticate: Authenticate;
}

/** HOST (default 127.0.0.1), PORT (default 3000) and API_KEYS (comma-separated) of `env`. */
export function listenSettingsOf(env: Readonly<Record<string, string | undefined>>): ListenSettings {
  const keys = (env.API_KEYS ?? "")
    .split(",")
    .map((key) => key.trim())
    .filter((key) => key !== "");
  return {
    host: env.HOST || "127.0.0.1",
    port: parsePort(env.PORT),
    authenticate: keys.length > 0 ? createKeyAuthenticator(keys) : anyKey,
  };
}

const anyKey: Authenticate = () => true;

/** PORT as a port number (default 3000; 0 picks a free port). */
export function parsePort(raw: string | undefined): number {
  const value = Number(raw === undefined || raw === "" ? "3000" : raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535)
    throw new Error(`PORT must be a port number, not ${JSON.stringify(raw)}`);
  return value;
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
