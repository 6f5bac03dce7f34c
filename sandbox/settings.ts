/**
 * The sandbox's settings from the environment, for `npm start` and `npm run sandbox:reset`:
 *
 * - DATABASE_URL: "memory", or a postgres:// URL; when unset, PGlite in DATA_DIR (default .data/sandbox)
 * - SANDBOX_SCHEMA: the schema on PostgreSQL (default "sandbox")
 * - SANDBOX_SEED: a YAML or JSON seed file, loaded into an empty database (default: the demo seed)
 * - FILE_URL: the URL prefix of stored files in answers (default: this server's own /files)
 * - HOST, PORT: where the server listens (default 127.0.0.1:3000)
 */
import type { SandboxOptions } from "./sandbox.js";

/** The options `npm start` passes to `createSandbox`, from `env`. */
export function settingsFrom(env: NodeJS.ProcessEnv): SandboxOptions {
  const url = env.DATABASE_URL?.trim() || undefined;
  const database = url ?? (env.DATA_DIR?.trim() || ".data/sandbox");
  const onServer = url !== undefined && url !== "memory" && url !== "memory://";
  return {
    database,
    ...(onServer ? { schema: env.SANDBOX_SCHEMA?.trim() || "sandbox" } : {}),
    ...(env.SANDBOX_SEED?.trim() ? { seed: env.SANDBOX_SEED.trim() } : {}),
    ...(env.FILE_URL?.trim() ? { fileUrl: env.FILE_URL.trim() } : {}),
    host: env.HOST?.trim() || "127.0.0.1",
    port: parsePort(env.PORT),
  };
}

/** PORT as a port number (default 3000; 0 picks a free port). */
function parsePort(raw: string | undefined): number {
  const value = Number(raw === undefined || raw.trim() === "" ? "3000" : raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535)
    throw new Error(`PORT must be a port number from 0 to 65535, not ${JSON.stringify(raw)}`);
  return value;
}
