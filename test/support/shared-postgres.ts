/**
 * The run's shared PostgreSQL server (started once by ./postgres-setup.ts), for the suites that
 * only connect to it: each sandbox on it works in a schema of its own, so files share it as they
 * would share DATABASE_URL's. The suites that stop the server start one of their own
 * (`startPostgres({ throwaway: true })`). Call `postgresAvailable` first.
 */
import { readFile } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";
import { inject } from "vitest";
import type { SharedPostgresStatus } from "./postgres-setup.js";

/** How long a file waits for the server's start, which began with the run. */
const START_TIMEOUT_MS = 120_000;

/** The shared server's URL and description, once it accepts connections. */
export async function sharedPostgres(): Promise<{ url: string; description: string }> {
  const file = inject("sharedPostgres");
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const status = await readFile(file, "utf8").then(
      (text) => JSON.parse(text) as SharedPostgresStatus,
      () => undefined,
    );
    if (status !== undefined && "error" in status) throw new Error(`the run's PostgreSQL server: ${status.error}`);
    if (status !== undefined) return status;
    if (Date.now() > deadline) throw new Error(`the run's PostgreSQL server did not start in ${START_TIMEOUT_MS} ms`);
    await delay(50);
  }
}
