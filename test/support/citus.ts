/**
 * Citus clusters for the suites that run the sandbox distributed: a coordinator and two workers,
 * each an ordinary PostgreSQL cluster (test/support/postgres.ts's `startNode`) with Citus
 * preloaded, on free ports of 127.0.0.1, in one temporary folder that is removed again; as root
 * they belong to the `postgres` user. Each node is stopped by signalling its process (by PID).
 *
 * The suites that only use a cluster share the run's (./postgres-setup.ts starts its nodes when a
 * file first asks, ./shared-postgres.ts's `sharedCitus`), each file in a database of its own
 * (`citusDatabase`): Citus keeps its nodes, shards and co-location groups per database, so each is
 * a cluster of its own on the same servers, and a worker one file adds is that file's alone. The
 * fault tests, which stop and kill workers, start a cluster of their own (`startCitus`). Where
 * Citus is not installed the suites skip, naming scripts/citus.sh, which installs it; in CI they
 * fail (`.ci/run` runs the script).
 */
import { existsSync } from "node:fs";
import { chown, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { makeTempDir } from "./paths.js";
import { initCluster, type PostgresNode, postgresBinaries, runAs, startNode } from "./postgres.js";
import { requireInCi } from "./required.js";

/** A node as the tests reach it: its URL (in the cluster's database) and its port. */
export interface CitusNode {
  readonly url: string;
  readonly port: number;
}

/**
 * A running cluster: the coordinator's URL (what DATABASE_URL names), its nodes, and how to stop it
 * (the nodes of a cluster of its own; for a database of the run's cluster, the workers it added).
 */
export interface CitusCluster<Node extends CitusNode = PostgresNode> {
  readonly url: string;
  readonly coordinator: Node;
  readonly workers: readonly Node[];
  /** runs `text` on the coordinator, as a connection of its own */
  query<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  /** the port of the worker holding `company`'s shards of the sandbox's tables in `schema` */
  workerOf(schema: string, company: number): Promise<number>;
  /** starts one more worker and adds it to the cluster (it holds no shard until they are moved there) */
  addWorker(): Promise<Node>;
  stop(): Promise<void>;
}

/**
 * Shards per distributed table in the tests' cluster: Citus's default is 32, which the tests do not
 * need, and every shard is a table made on a worker when the schema is distributed.
 */
export const TEST_SHARD_COUNT = 8;

/** The settings of every node: Citus preloaded, the tests' shard count. */
const SETTINGS = [
  "shared_preload_libraries=citus",
  // a shard move copies by logical replication, which writes may go on during
  "wal_level=logical",
  `citus.shard_count=${TEST_SHARD_COUNT}`,
  // the nodes talk over loopback, without TLS (Citus asks for it by default)
  "citus.node_conninfo=sslmode=disable",
];

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

/** Nodes with Citus loaded, not yet joined, in a temporary folder: the coordinator first. */
export interface CitusNodes {
  readonly nodes: readonly PostgresNode[];
  /** starts one more node in the folder */
  start(name: string): Promise<PostgresNode>;
  /** stops every node started and removes the folder */
  stop(): Promise<void>;
}

/**
 * Starts the nodes `names` (by default a coordinator and two workers), each a PostgreSQL server with
 * Citus loaded, as copies of `template` (the run's, ./shared-postgres.ts's `postgresTemplate`) when given.
 */
export async function startCitusNodes(
  names = ["coordinator", "worker1", "worker2"],
  given?: string,
): Promise<CitusNodes> {
  const bin = postgresBinaries();
  if (bin === undefined) throw new Error(citusMissing());
  const dir = await makeTempDir("citus");
  // the nodes' folders are made inside, by (and for) the postgres user when running as root
  const user = process.getuid?.() === 0 ? runAs() : undefined;
  if (user !== undefined) await chown(dir, user.uid, user.gid);
  const nodes: PostgresNode[] = [];
  // the nodes are copies of one cluster initdb made, the run's or one made here first (each initdb
  // is a second or two of a core, its copy a fraction of that)
  let template: Promise<string> | undefined = given === undefined ? undefined : Promise.resolve(given);
  const stop = async (): Promise<void> => {
    await Promise.all(nodes.map((node) => node.outage.halt()));
    await rm(dir, { recursive: true, force: true });
  };
  const start = async (name: string): Promise<PostgresNode> => {
    template ??= mkdir(join(dir, "template"), { mode: 0o700 }).then(() => initCluster(bin, join(dir, "template")));
    const nodeDir = join(dir, name);
    await mkdir(nodeDir, { mode: 0o700 });
    const node = await startNode(bin, nodeDir, SETTINGS, await template);
    nodes.push(node);
    return node;
  };
  try {
    // one after another: each start takes a core for a moment
    for (const name of names) await start(name);
    return { nodes, start, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Makes `workers` the workers of `coordinator`, in the database their URLs name. */
async function joinNodes(coordinator: CitusNode, workers: readonly CitusNode[]): Promise<void> {
  await Promise.all([coordinator, ...workers].map((node) => queryOn(node.url, "create extension citus")));
  await queryOn(coordinator.url, "select citus_set_coordinator_host('127.0.0.1', $1)", [coordinator.port]);
  for (const worker of workers) await queryOn(coordinator.url, "select citus_add_node('127.0.0.1', $1)", [worker.port]);
}

/** The cluster of `coordinator` and `workers`, which `addWorker` starts one more of. */
function clusterOf<Node extends CitusNode>(
  coordinator: Node,
  workers: Node[],
  added: { start(): Promise<Node>; stop(): Promise<void> },
): CitusCluster<Node> {
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
      const worker = await added.start();
      await queryOn(worker.url, "create extension citus");
      await queryOn(coordinator.url, "select citus_add_node('127.0.0.1', $1)", [worker.port]);
      workers.push(worker);
      return worker;
    },
    stop: added.stop,
  };
}

/**
 * Starts a coordinator and two workers and joins them into one cluster, copies of `template` when
 * given. Call `citusAvailable` first.
 */
export async function startCitus(template?: string): Promise<CitusCluster> {
  const started = await startCitusNodes(undefined, template);
  try {
    const [coordinator, ...workers] = [...started.nodes] as [PostgresNode, ...PostgresNode[]];
    await joinNodes(coordinator, workers);
    return clusterOf(coordinator, workers, {
      start: () => started.start(`worker${started.nodes.length}`),
      stop: started.stop,
    });
  } catch (error) {
    await started.stop();
    throw error;
  }
}

/** `url` with its database `database`. */
function inDatabase(url: string, database: string): string {
  const within = new URL(url);
  within.pathname = `/${database}`;
  return within.toString();
}

/**
 * A cluster of its own in `database` on the run's nodes (`urls`, the coordinator's first): the
 * database made on each node, and the workers joined to the coordinator there. A worker it adds is
 * started in this process (a copy of `template` when given), and `stop` stops it, leaving the run's
 * nodes to the run.
 */
export async function citusDatabase(
  urls: readonly string[],
  database: string,
  template?: string,
): Promise<CitusCluster<CitusNode>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(database))
    throw new Error(
      `citusDatabase: "${database}" is not a database name the tests use (lower-case letters, digits, _)`,
    );
  const create = (url: string) => queryOn(url, `create database ${database}`);
  const [coordinator, ...workers] = urls.map((url) => ({
    url: inDatabase(url, database),
    port: Number(new URL(url).port),
  }));
  if (coordinator === undefined) throw new Error("citusDatabase: no nodes given");
  // one database made and joined at a time: two joined at once on the same nodes can fail ("failure
  // on connection marked as essential"), so each waits for a lock of the coordinator's, which the
  // end of its session lets go
  const lock = new pg.Client({ connectionString: urls[0] });
  await lock.connect();
  try {
    await lock.query("select pg_advisory_lock(hashtext('citusDatabase'))");
    await Promise.all(urls.map(create));
    await joinNodes(coordinator, workers);
  } finally {
    await lock.end();
  }
  let added: CitusNodes | undefined;
  return clusterOf(coordinator, workers, {
    start: async () => {
      added ??= await startCitusNodes([], template);
      const node = await added.start(`worker${workers.length + 1}`);
      await create(node.url);
      return { url: inDatabase(node.url, database), port: node.port };
    },
    stop: async () => added?.stop(),
  });
}
