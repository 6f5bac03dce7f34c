/**
 * The run's shared servers (started by ./postgres-setup.ts), for the suites that only connect to
 * them. On the PostgreSQL server each sandbox works in a schema of its own, so files share it as
 * they would share DATABASE_URL's; the suites that stop the server start one of their own
 * (`startPostgres({ throwaway: true })`). Call `postgresAvailable` first. The Citus nodes are
 * started when a file first asks (`sharedCitus`), and each file makes a cluster of its own on them
 * in a database of its own (./citus.ts's `citusDatabase`); call `citusAvailable` first.
 */
import { readFile, writeFile } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";
import { inject } from "vitest";
import type { SharedCitusStatus, SharedPostgresStatus } from "./postgres-setup.js";

/** How long a file waits for a server's start, which began with the run (or when a file asked). */
const START_TIMEOUT_MS = 120_000;

/** What the status file `file` says of `what`, once it says it: where it is, or the error it failed with. */
async function started<T extends object>(file: string, what: string): Promise<T> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const status = await readFile(file, "utf8").then(
      (text) => JSON.parse(text) as T | { error: string },
      () => undefined,
    );
    if (status !== undefined && "error" in status) throw new Error(`${what}: ${status.error}`);
    if (status !== undefined) return status;
    if (Date.now() > deadline) throw new Error(`${what} did not start in ${START_TIMEOUT_MS} ms`);
    await delay(50);
  }
}

/** The shared server's URL and description, once it accepts connections. */
export async function sharedPostgres(): Promise<{ url: string; description: string }> {
  return started<Exclude<SharedPostgresStatus, { error: string }>>(
    inject("sharedPostgres"),
    "the run's PostgreSQL server",
  );
}

/**
 * The cluster initdb made for the run's server, which no server runs on, for a cluster of a file's
 * own to be a copy of (./postgres.ts's `startNode`); undefined when the harness made none (a
 * DATABASE_URL, or no PostgreSQL), and the file's cluster is made by initdb.
 */
export async function postgresTemplate(): Promise<string | undefined> {
  const status = await started<Exclude<SharedPostgresStatus, { error: string }>>(
    inject("sharedPostgres"),
    "the run's PostgreSQL server",
  ).catch(() => undefined);
  return status?.template;
}

/** The URLs of the run's Citus nodes (the coordinator's first, in the `postgres` database), started on the first call of the run. */
export async function sharedCitus(): Promise<string[]> {
  const file = inject("sharedCitus");
  await writeFile(`${file}.wanted`, "");
  return (await started<Exclude<SharedCitusStatus, { error: string }>>(file, "the run's Citus nodes")).urls;
}
