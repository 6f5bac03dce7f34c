/**
 * Once per test run, for the suites that share a server (./shared-postgres.ts):
 *
 * - The PostgreSQL server (DATABASE_URL's, or a throwaway cluster, ./postgres.ts) is started in the
 *   background as the run begins, so that no worker waits for it before its first file, and the
 *   files that need it wait only for what is left of its start. Without PostgreSQL nothing is
 *   started: the suites skip or fail as they say (`postgresAvailable`).
 * - The Citus cluster's nodes (./citus.ts) are started when a file first asks for them (a run of
 *   other files starts none), and each file makes a database of its own on them.
 *
 * Where each stands is written to a file the workers read (their names are provided to them as
 * `sharedPostgres` and `sharedCitus`); a file asks for the cluster by writing the file named as its
 * own with `.wanted` added. After the run the servers are stopped by PID and their folders removed.
 */
import { type FSWatcher, mkdirSync, renameSync, rmSync, watch, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { TestProject } from "vitest/node";
import { type CitusNodes, startCitusNodes } from "./citus.js";
import { repoRoot } from "./paths.js";
import { type PostgresServer, postgresMissing, startPostgres } from "./postgres.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** the file saying where the run's shared PostgreSQL server is (./shared-postgres.ts) */
    sharedPostgres: string;
    /** the file saying where the run's Citus nodes are, once a file asked for them (./shared-postgres.ts) */
    sharedCitus: string;
  }
}

/**
 * What the PostgreSQL server's status file holds: its URL and description, and the cluster initdb
 * made for it when the harness made one (for the run's other clusters to copy), or why it did not start.
 */
export type SharedPostgresStatus = { url: string; description: string; template?: string } | { error: string };

/** What the Citus cluster's status file holds: its nodes' URLs (the coordinator's first), or why they did not start. */
export type SharedCitusStatus = { urls: string[] } | { error: string };

/** Writes the status whole (a reader never sees half of it). */
function writeStatus(file: string, status: SharedPostgresStatus | SharedCitusStatus): void {
  writeFileSync(`${file}.partial`, JSON.stringify(status));
  renameSync(`${file}.partial`, file);
}

/** Starts `start` in the background, writing what it gave to `file`; resolves with its result, or undefined when it failed. */
function startWritten<T>(
  file: string,
  start: () => Promise<T>,
  status: (started: T) => SharedPostgresStatus | SharedCitusStatus,
) {
  return start().then(
    (started) => {
      writeStatus(file, status(started));
      return started;
    },
    (error: unknown) => {
      writeStatus(file, { error: String(error) });
      return undefined;
    },
  );
}

/** Starts the server in the background, and the Citus nodes when asked; the teardown it returns stops them once the run is over. */
export function setup(project: TestProject): () => Promise<void> {
  const folder = join(repoRoot, ".tmp");
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `postgres-${process.pid}.json`);
  project.provide("sharedPostgres", file);
  const missing = postgresMissing();
  const starting: Promise<PostgresServer | undefined> =
    missing !== undefined
      ? Promise.resolve(writeStatus(file, { error: missing })).then(() => undefined)
      : startWritten(file, startPostgres, (server) => ({
          url: server.url,
          description: server.description,
          ...(server.template === undefined ? {} : { template: server.template }),
        }));
  const citusFile = join(folder, `citus-${process.pid}.json`);
  project.provide("sharedCitus", citusFile);
  let citus: Promise<CitusNodes | undefined> | undefined;
  const watcher: FSWatcher = watch(folder, (_event, name) => {
    if (name !== `${basename(citusFile)}.wanted` || citus !== undefined) return;
    citus = startWritten(
      citusFile,
      // copies of the server's cluster as initdb made it, once it is made
      async () => startCitusNodes(undefined, (await starting)?.template),
      (started) => ({ urls: started.nodes.map((node) => node.url) }),
    );
  });
  return async () => {
    watcher.close();
    await Promise.all([starting.then((server) => server?.stop()), citus?.then((nodes) => nodes?.stop())]);
    for (const written of [file, citusFile, `${citusFile}.wanted`]) rmSync(written, { force: true });
  };
}
