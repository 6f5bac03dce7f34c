/**
 * Once per test run, for the suites that share a PostgreSQL server (./shared-postgres.ts): the
 * server (DATABASE_URL's, or a throwaway cluster, ./postgres.ts) is started in the background as
 * the run begins, so that no worker waits for it before its first file, and the files that need it
 * wait only for what is left of its start. Where it stands is written to a file the workers read
 * (its name is provided to them as `sharedPostgres`); after the run the cluster is stopped by PID
 * and its folder removed. Without PostgreSQL nothing is started: the suites skip or fail as they
 * say (`postgresAvailable`).
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { repoRoot } from "./paths.js";
import { type PostgresServer, postgresMissing, startPostgres } from "./postgres.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** the file saying where the run's shared PostgreSQL server is (./shared-postgres.ts) */
    sharedPostgres: string;
  }
}

/** What the status file holds: the server's URL and description, or why it did not start. */
export type SharedPostgresStatus = { url: string; description: string } | { error: string };

/** Writes the status whole (a reader never sees half of it). */
function writeStatus(file: string, status: SharedPostgresStatus): void {
  writeFileSync(`${file}.partial`, JSON.stringify(status));
  renameSync(`${file}.partial`, file);
}

/** Starts the server in the background; the teardown it returns stops it once the run is over. */
export function setup(project: TestProject): () => Promise<void> {
  mkdirSync(join(repoRoot, ".tmp"), { recursive: true });
  const file = join(repoRoot, ".tmp", `postgres-${process.pid}.json`);
  project.provide("sharedPostgres", file);
  const missing = postgresMissing();
  const starting: Promise<PostgresServer | undefined> =
    missing !== undefined
      ? Promise.resolve(writeStatus(file, { error: missing })).then(() => undefined)
      : startPostgres().then(
          (server) => {
            writeStatus(file, { url: server.url, description: server.description });
            return server;
          },
          (error: unknown) => {
            writeStatus(file, { error: String(error) });
            return undefined;
          },
        );
  return async () => {
    await (await starting)?.stop();
    rmSync(file, { force: true });
  };
}
