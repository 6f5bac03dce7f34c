/**
 * The mock server (npm start): every operation answers its example response.
 *
 * The API reference is at /docs, the spec at /openapi.json and /openapi.yaml (no key needed).
 *
 * HOST (default 127.0.0.1) and PORT (default 3000) come from the environment. With API_KEYS
 * (comma-separated) only those keys are accepted, otherwise any non-empty key is. One log line per
 * request; SIGINT and SIGTERM stop it gracefully.
 */
/// <reference types="node" />
import document from "../openapi.json" with { type: "json" };
import { type Authenticate, buildServer, createKeyAuthenticator, createMockHandlers, registerDocs } from "./index.js";

const host = process.env.HOST || "127.0.0.1";
const port = parsePort(process.env.PORT);
const keys = (process.env.API_KEYS ?? "")
  .split(",")
  .map((key) => key.trim())
  .filter((key) => key !== "");
const anyKey: Authenticate = () => true;

const app = await buildServer({
  handlers: createMockHandlers(),
  authenticate: keys.length > 0 ? createKeyAuthenticator(keys) : anyKey,
  logger: true,
});
await registerDocs(app, document);
await app.listen({ host, port });

for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void shutdown(signal));

/** Stops taking connections, finishes the requests in flight, then exits (forced after 10 s). */
async function shutdown(signal: string): Promise<void> {
  app.log.info(`${signal} received: closing`);
  setTimeout(() => process.exit(1), 10_000).unref();
  await app.close();
  process.exit(0);
}

/** PORT as a port number (default 3000; 0 picks a free port). */
function parsePort(raw: string | undefined): number {
  const value = Number(raw === undefined || raw === "" ? "3000" : raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new Error(`PORT must be a port number, not ${JSON.stringify(raw)}`);
  return value;
}
