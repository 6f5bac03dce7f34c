/**
 * A throwaway Citus cluster for the suites that run the sandbox distributed: a coordinator and two
 * workers, each an ordinary PostgreSQL cluster (test/support/postgres.ts's `startNode`) with Citus
 * preloaded, on free ports of 127.0.0.1, in one temporary folder that is removed again; as root
 * they belong to the `postgres` user. Each node is stopped by signalling its process (by PID), and
 * a worker can be stopped and started again on its port and data (the fault tests). Where Citus is
 * not installed the suites skip, naming scripts/citus.sh, which installs it; in CI they fail
 * (`.ci/run` runs the script).
 */
import { existsSync } from "node:fs";
import { chown, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { makeTempDir } from "./paths.js";
import { type PostgresNode, postgresBinaries, runAs, startNode } from "./postgres.js";
import { requireInCi } from "./required.js";

/** A running cluster: the coordinator's URL (what DATABASE_URL names), its nodes, and how to stop it. */
export interface CitusCluster {
  readonly url: string;
  readonly coordinator: PostgresNode;
  readonly workers: readonly PostgresNode[];
  /** runs `text` on the coordinator, as a connection of its own */
  query<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  /** the port of the worker holding `company`'s shards of the sandbox's tables in `schema` */
  workerOf(schema: string, company: number): Promise<number>;
  /** starts one more worker and adds it to the cluster (it holds no shard until they are moved there) */
  addWorker(): Promise<PostgresNode>;
  stop(): Promise<void>;
}

/**
 * Shards per distributed table in the tests' cluster: Citus's default is 32, which the tests do not
 * need, and every shard is a table made on a worker when the schema is distributed.
 */
export const TEST_SHARD_COUNT = 8;

/** Why no Citus cluster can be started here, or undefined when one can. */
export function citusMissing(): string | undefined {
  const bin = postgresBinaries();
  if (bin === undefined)
    return "no PostgreSQL binaries in /usr/lib/postgresql/*/bin: run scripts/citus.sh (it installs Citus for PostgreSQL 15; apt-get install -y postgresql first)";
  if (!existsSync(join(bin, "..", "lib", "citus.so")))
    return `Citus is not installed for PostgreSQL (${join(bin, "..", "lib", "citus.so")} is missing): run scripts/citus.sh, which builds and installs it`;
  if (process.getuid?.() === 0 && runAs() === undefined)
    return "running as root, and there is no postgres user to run initdb as (Debian's postgresql package creates it)";
  return undefined;
}

/** Reports a missing Citus (fails in CI) and answers whether the `tests` can run. */
export function citusAvailable(tests: string): boolean {
  const missing = citusMissing();
  requireInCi(tests, missing);
  return missing === undefined;
}

/** Runs `text` on the server at `url`, as a connection of its own. */
export async function queryOn<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Starts a coordinator and two workers and joins them into one cluster. Call `citusAvailable` first. */
export async function startCitus(): Promise<CitusCluster> {
  const bin = postgresBinaries();
  if (bin === undefined) throw new Error(citusMissing());
  const dir = await makeTempDir("citus");
  // the nodes' folders are made inside, by (and for) the postgres user when running as root
  const user = process.getuid?.() === 0 ? runAs() : undefined;
  if (user !== undefined) await chown(dir, user.uid, user.gid);
  const started: PostgresNode[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(started.map((node) => node.outage.halt()));
    await rm(dir, { recursive: true, force: true });
  };
  const settings = [
    "shared_preload_libraries=citus",
    // a shard move copies by logical replication, which writes may go on during
    "wal_level=logical",
    `citus.shard_count=${TEST_SHARD_COUNT}`,
    // the nodes talk over loopback, without TLS (Citus asks for it by default)
    "citus.node_conninfo=sslmode=disable",
  ];
  const startOne = async (name: string): Promise<PostgresNode> => {
    const nodeDir = join(dir, name);
    await mkdir(nodeDir, { mode: 0o700 });
    const node = await startNode(bin, nodeDir, settings);
    started.push(node);
    return node;
  };
  try {
    // one after another: each initdb takes a core for a second or two
    for (const name of ["coordinator", "worker1", "worker2"]) await startOne(name);
    const [coordinator, ...workers] = [...started] as [PostgresNode, ...PostgresNode[]];
    await Promise.all(started.map((node) => queryOn(node.url, "create extension citus")));
    await queryOn(coordinator.url, "select citus_set_coordinator_host('127.0.0.1', $1)", [coordinator.port]);
    for (const worker of workers)
      await queryOn(coordinator.url, "select citus_add_node('127.0.0.1', $1)", [worker.port]);
    return {
      url: coordinator.url,
      coordinator,
      workers,
      query: (text, values) => queryOn(coordinator.url, text, values),
      workerOf: async (schema, company) => {
        const [row] = await queryOn<{ port: number }>(
          coordinator.url,
          `select nodeport as port from pg_dist_shard_placement
           where shardid = get_shard_id_for_distribution_column($1, $2::bigint)`,
          [`${schema}.companies`, company],
        );
        return Number(row?.port);
      },
      addWorker: async () => {
        const worker = await startOne(`worker${workers.length + 1}`);
        await queryOn(worker.url, "create extension citus");
        await queryOn(coordinator.url, "select citus_add_node('127.0.0.1', $1)", [worker.port]);
        workers.push(worker);
        return worker;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
