/**
 * How `npm start` logs: on a terminal, one readable line per event (pino-pretty, Fastify's own
 * printer: the time, the level, the message, in colour); on a pipe or in a file, the JSON lines
 * that log collectors read. Without pino-pretty installed (it is a tool of this repository, not a
 * dependency of the package), a terminal gets the JSON lines too.
 */
import type { BuildServerOptions } from "workforce-scheduling-api/server";

/** Fastify's logger option, as `createSandbox` takes it. */
export type SandboxLogger = BuildServerOptions<unknown>["logger"];

/** The logger writing to `out` (the process's stdout): readable lines on a terminal, JSON lines elsewhere. */
export async function loggerFor(out: NodeJS.WritableStream & { readonly isTTY?: boolean }): Promise<SandboxLogger> {
  if (out.isTTY !== true) return true;
  try {
    const { default: pretty } = await import("pino-pretty");
    // a request's line says all (method, path, status, time, a refusal's problem): its fields stay out
    const options = { colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,reqId,problem" };
    return { stream: pretty({ ...options, destination: out }) };
  } catch {
    return true;
  }
}
