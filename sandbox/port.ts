/**
 * The address the sandbox listens on, checked before the database is opened: a port in use (or
 * one this user may not take, or a host that is not this machine's) is reported at once, not after
 * the seconds a database takes to open and migrate, and in words that say what to do.
 */
import { createServer } from "node:net";

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
 * Listens at `host:port` and closes again: throws a `ListenError` when the server could not
 * listen there. (What takes the port between this check and the server's listen is reported the
 * same way, by `listenError`.)
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
