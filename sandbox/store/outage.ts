/**
 * The database going away: PostgreSQL stopped or restarting, a connection killed, a network that
 * fails, a Citus worker lost under a statement. A request that meets it is answered at once with
 * 503 and `Retry-After` (`application/problem+json`), never with a 500 or a stack, and nothing of
 * it is kept: each write is one transaction, which the server rolls back when the connection goes.
 * The pool opens new connections for the next requests, so the sandbox recovers without a restart
 * when the database is back.
 *
 * The database held up past the sandbox's bound (a statement or lock timeout: a row another
 * transaction holds, a worker that does not answer) is answered the same way: the statement was
 * cancelled and its transaction rolled back.
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

/**
 * What libpq says of a connection lost under a statement, as Citus reports it for a worker that
 * went away (SQLSTATE XX000, "... while executing command on host:port"), and Citus's own
 * messages (SQLSTATE XX000 too) for a worker it cannot reach to fetch a result, a worker's
 * connection lost inside the transaction ("marked as essential"), a commit a worker did not
 * answer (see COMMIT_IN_DOUBT), and every placement of a task failed.
 */
const LOST_WORKER_MESSAGES =
  /^(server closed the connection unexpectedly|could not (receive|send) data (from|to) server|connection not open|no connection to the server|connection to server was lost|unexpected response from server|SSL SYSCALL error|SSL error: unexpected eof|SSL connection has been closed unexpectedly|lost synchronization with server|cannot connect to \S+ to fetch intermediate results|failure on connection marked as essential|could not commit transaction for shard \d+ on at least one active node|execution cannot recover from multiple connection failures)/i;

/**
 * Citus's message for a worker lost while it was committing (XX000): the worker may have
 * committed before it went, so the write may have been kept.
 */
const COMMIT_IN_DOUBT = /^could not commit transaction for shard \d+ on at least one active node/;

/**
 * SQLSTATEs of a statement cancelled for waiting too long or in a cycle: 57014 (a statement
 * timeout, or a cancel), 55P03 (a lock timeout), 40P01 (a deadlock, Citus's distributed ones
 * included). The transaction is rolled back; the same request may succeed when tried again.
 */
const BUSY_STATES = new Set(["57014", "55P03", "40P01"]);

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
  if (code === "XX000" && typeof message === "string" && LOST_WORKER_MESSAGES.test(message)) return true;
  // an AggregateError (a connection tried on several addresses) is an outage when its errors are
  if (Array.isArray(errors) && errors.length > 0 && errors.every((inner) => isDatabaseOutage(inner, depth + 1)))
    return true;
  return isDatabaseOutage(cause, depth + 1);
}

/** Whether an error (or one it was caused by) is a statement cancelled for waiting past the bound, or in a deadlock. */
export function isDatabaseBusy(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 4) return false;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  if (typeof code === "string" && BUSY_STATES.has(code)) return true;
  return isDatabaseBusy(cause, depth + 1);
}

/** Whether an error (or one it was caused by) is a commit whose outcome the database could not tell. */
export function isCommitInDoubt(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 4) return false;
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (code === "XX000" && typeof message === "string" && COMMIT_IN_DOUBT.test(message)) return true;
  return isCommitInDoubt(cause, depth + 1);
}

/** The error to answer for `error`: a 503 problem for an outage or a wait past the bound, else `error` itself. */
export function outageProblem(error: unknown): unknown {
  if (isCommitInDoubt(error))
    return serviceUnavailable(
      "The sandbox's database lost a node while this request was being committed, so it may have been kept: read it back before you try again.",
      RETRY_AFTER_SECONDS,
    );
  if (isDatabaseOutage(error))
    return serviceUnavailable(
      "The sandbox's database cannot be reached just now. Nothing of this request was kept; try again.",
      RETRY_AFTER_SECONDS,
    );
  if (isDatabaseBusy(error))
    return serviceUnavailable(
      "The sandbox's database held this request past its time limit (a lock another transaction holds, or a node that does not answer). Nothing of it was kept; try again.",
      RETRY_AFTER_SECONDS,
    );
  return error;
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
