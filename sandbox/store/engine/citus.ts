/**
 * What the sandbox asks of a database that may be a Citus cluster's node: whether the `citus`
 * extension is there (its migrations distribute the schema, a reset deletes rather than
 * truncates, an insert takes its id in a statement of its own), and whether this node is a worker
 * rather than the coordinator (Citus takes queries on every node, but schema changes and the
 * Migrator's bookkeeping are on the coordinator).
 */
import { type Kysely, type KyselyPlugin, type QueryExecutorProvider, sql } from "kysely";

/** Whether the database has the `citus` extension. */
export async function onCitus(db: QueryExecutorProvider): Promise<boolean> {
  const { rows } = await sql<{
    citus: boolean;
  }>`select exists (select from pg_extension where extname = 'citus') as citus`.execute(db);
  return rows[0]?.citus === true;
}

/** The mark of a query layer over a Citus cluster: a plugin that changes nothing it runs. */
const DISTRIBUTED: KyselyPlugin = {
  transformQuery: (args) => args.node,
  transformResult: async (args) => args.result,
};

/**
 * `db`, marked as a query layer over a Citus cluster when the database has the extension (one
 * query, when the layer is made): its schema layers and transactions keep the mark, which
 * `isDistributed` reads without a round trip.
 */
export async function markDistributed<D>(db: Kysely<D>): Promise<Kysely<D>> {
  return (await onCitus(db)) ? db.withPlugin(DISTRIBUTED) : db;
}

/** `db`, marked as over a Citus cluster when `like` is. */
export function markedLike<D>(db: Kysely<D>, like: QueryExecutorProvider): Kysely<D> {
  return isDistributed(like) ? db.withPlugin(DISTRIBUTED) : db;
}

/** Whether `db` (a query layer or a transaction of one) was marked as over a Citus cluster by `markDistributed`. */
export function isDistributed(db: QueryExecutorProvider): boolean {
  return db.getExecutor().plugins.includes(DISTRIBUTED);
}

/** Whether the database is a Citus node other than the coordinator (its group is not the coordinator's, 0). */
export async function onCitusWorker(db: QueryExecutorProvider): Promise<boolean> {
  if (!(await onCitus(db))) return false;
  const { rows } = await sql<{ worker: boolean }>`select exists (
      select from pg_dist_local_group where groupid <> 0) as worker`.execute(db);
  return rows[0]?.worker === true;
}

/** How long a process on a Citus worker waits for the coordinator's process to have done its part. */
export const FOLLOW_MS = 60_000;

/**
 * Waits until `done()`, looking every 250 ms, or fails with `failure` after FOLLOW_MS: a process on
 * a worker waiting for what the coordinator's process does (migrating, seeding).
 */
export async function follow(done: () => Promise<boolean>, failure: () => string): Promise<void> {
  const deadline = Date.now() + FOLLOW_MS;
  while (!(await done())) {
    if (Date.now() >= deadline) throw new Error(failure());
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
