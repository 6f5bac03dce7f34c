/**
 * How the sandbox logs: Fastify's logger option, as `createSandbox` takes it. `npm start` gives it
 * the package's `loggerFor(process.stdout)`: readable lines on a terminal, JSON lines on a pipe.
 */
import type { BuildServerOptions } from "workforce-scheduling-api/server";

/** Fastify's logger option, as `createSandbox` takes it. */
export type SandboxLogger = BuildServerOptions<unknown>["logger"];
