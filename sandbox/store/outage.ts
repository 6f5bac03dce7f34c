/**
 * The database going away: PostgreSQL stopped or restarting, a connection killed, a network that
 * fails. A request that meets it is answered at once with 503 and `Retry-After`
 * (`application/problem+json`), never with a 500 or a stack, and nothing of it is kept: each write
 * is one transaction, which the server rolls back when the connection goes. The pool opens new
 * connections for the next requests, so the sandbox recovers without a restart when the database
 * is back.
 */
import { serviceUnavailable } from "workforce-scheduling-api/handlers";

/** How long a client is asked to wait before it tries again, in seconds. */
export const RETRY_AFTER_SECONDS = 2;

/** Network errors of a socket to the database. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ECONNABORTED",
]);

/**
 * PostgreSQL's SQLSTATEs of a server that cannot serve for now: class 08 (connection exception),
 * 57P01 to 57P03 (shut down by an administrator, crashed, not accepting connections yet) and 53300
 * (too many connections).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[1-3]|53300)$/;

/** What `pg` says when a connection ends under a query, or none can be had in time. */
const DRIVER_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Connection ended|Client was closed)/;

/** Whether an error (or one it was caused by) means the database cannot be reached for now. */
export function isDatabaseOutage(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 4) return false;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === "string" && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
  if (typeof message === "string" && DRIVER_MESSAGES.test(message)) return true;
  // an AggregateError (a connection tried on several addresses) is an outage when its errors are
  if (Array.isArray(errors) && errors.length > 0 && errors.every((inner) => isDatabaseOutage(inner, depth + 1)))
    return true;
  return isDatabaseOutage(cause, depth + 1);
}

/** The error to answer for `error`: a 503 problem for an outage, else `error` itself. */
export function outageProblem(error: unknown): unknown {
  if (!isDatabaseOutage(error)) return error;
  return serviceUnavailable(
    "The sandbox's database cannot be reached just now. Nothing of this request was kept; try again.",
    RETRY_AFTER_SECONDS,
  );
}

/**
 * `handlers` with every operation answering 503 on an outage: each handler (and any function
 * given) is called as it was, and an outage it meets becomes the problem of `outageProblem`.
 */
export function answerOutages<H extends object>(handlers: H): H {
  const guarded: Record<string, unknown> = {};
  for (const [name, handler] of Object.entries(handlers))
    guarded[name] = typeof handler === "function" ? guardOutage(handler as (...args: never[]) => unknown) : handler;
  return guarded as H;
}

/** `run`, with an outage it meets (thrown, or a rejected promise) turned into a 503 problem. */
export function guardOutage<A extends unknown[], R>(run: (...args: A) => R): (...args: A) => R {
  return (...args: A): R => {
    try {
      const result = run(...args);
      return (
        result instanceof Promise ? result.catch((error: unknown) => Promise.reject(outageProblem(error))) : result
      ) as R;
    } catch (error) {
      throw outageProblem(error);
    }
  };
}
