/**
 * The sandbox's settings from the environment and the command line, for `npm start` and `npm run
 * sandbox:reset`:
 *
 * - DATABASE_URL: "memory", or a postgres:// (or postgresql://) URL; when unset, PGlite in DATA_DIR
 * - DATA_DIR: the PGlite data directory when DATABASE_URL is unset (default .data/sandbox)
 * - SANDBOX_SCHEMA: the schema on PostgreSQL (default "sandbox")
 * - SANDBOX_SEED: a YAML or JSON seed file, loaded into an empty database (default: the demo seed)
 * - FILE_URL: the URL prefix of stored files in answers (default: this server's own /files)
 * - `--port N` and `--host ADDRESS`, else PORT and HOST: where the server listens (default 127.0.0.1:3000)
 * - API_KEYS: comma-separated keys accepted besides the seed's, as the seed's first key
 * - SANDBOX_TIMEOUT: on PostgreSQL, the seconds a request may wait for the database (default 3)
 *
 * A value the sandbox cannot use, and an option it does not take, is refused with what it accepts,
 * before anything is opened.
 */
import { LISTEN_OPTIONS, listenPlaceOf } from "workforce-scheduling-api/server";
import type { SandboxOptions } from "./sandbox.js";
import { urlScheme } from "./store/engine/engine.js";

/** What `npm start -- --help` prints. */
export const USAGE = [
  "npm start [-- options]: the sandbox, the service on a real database (docs/sandbox.md)",
  ...LISTEN_OPTIONS.map(([option, meaning]) => `  ${option.padEnd(16)}${meaning}`),
  "  --help          this text",
  "The rest is read from the environment: DATABASE_URL, DATA_DIR, SANDBOX_SCHEMA, SANDBOX_SEED, FILE_URL,",
  "API_KEYS (docs/sandbox.md#running-it).",
].join("\n");

/** The options `npm start` passes to `createSandbox`, from `env` and its command line's `argv`. */
export function settingsFrom(env: NodeJS.ProcessEnv, argv: readonly string[] = []): SandboxOptions {
  const { host, port } = listenPlaceOf(env, argv, "npm start");
  const url = env.DATABASE_URL?.trim() || undefined;
  if (url !== undefined) checkDatabaseUrl(url);
  const database = url ?? (env.DATA_DIR?.trim() || ".data/sandbox");
  const onServer = url !== undefined && url !== "memory" && url !== "memory://";
  return {
    database,
    ...(onServer ? { schema: env.SANDBOX_SCHEMA?.trim() || "sandbox" } : {}),
    ...(env.SANDBOX_SEED?.trim() ? { seed: env.SANDBOX_SEED.trim() } : {}),
    ...(env.FILE_URL?.trim() ? { fileUrl: env.FILE_URL.trim() } : {}),
    host,
    port,
    ...apiKeysOf(env.API_KEYS),
    ...timeoutOf(env.SANDBOX_TIMEOUT),
  };
}

/** SANDBOX_TIMEOUT, seconds (a decimal number above 0, at most 600), as the option's milliseconds. */
function timeoutOf(raw: string | undefined): { timeout?: number } {
  if (raw === undefined || raw.trim() === "") return {};
  const seconds = Number(raw.trim());
  if (!/^\d*\.?\d+$/.test(raw.trim()) || !(seconds > 0) || seconds > 600)
    throw new Error(
      `SANDBOX_TIMEOUT must be the seconds a request may wait for the database, above 0 and at most 600 (for example 3 or 0.5), not ${JSON.stringify(raw)}`,
    );
  return { timeout: Math.max(1, Math.round(seconds * 1000)) };
}

/** API_KEYS, comma-separated, as the option (none when unset or empty). */
function apiKeysOf(raw: string | undefined): { apiKeys?: string[] } {
  const keys = (raw ?? "")
    .split(",")
    .map((key) => key.trim())
    .filter((key) => key !== "");
  return keys.length === 0 ? {} : { apiKeys: keys };
}

/** What DATABASE_URL takes, for messages. */
const DATABASE_URL_FORMS =
  "set it to a postgres:// or postgresql:// URL (postgres://user:password@host:5432/database) or to memory";

/**
 * Refuses a DATABASE_URL that is neither "memory" nor a PostgreSQL URL: another database's URL, a
 * misspelt scheme, or a directory (which DATA_DIR names). A URL is quoted up to its scheme only,
 * as what follows may hold a password.
 */
function checkDatabaseUrl(url: string): void {
  if (url === "memory" || url === "memory://" || /^postgres(ql)?:\/\//i.test(url)) return;
  const scheme = urlScheme(url);
  if (scheme !== undefined)
    throw new Error(
      `DATABASE_URL starts with "${scheme}", which is not a database the sandbox runs on: ${DATABASE_URL_FORMS}, or unset it to keep the data in DATA_DIR (default .data/sandbox)`,
    );
  throw new Error(
    `DATABASE_URL is ${JSON.stringify(url)}, which is not a URL: ${DATABASE_URL_FORMS}; for a data directory, unset DATABASE_URL and set DATA_DIR=${url}`,
  );
}
