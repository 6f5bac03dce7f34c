/**
 * What the sandbox asks of a database that may be a Citus cluster's node: whether the `citus`
 * extension is there (its migrations distribute the schema, a reset deletes rather than
 * truncates, an insert takes its id in a statement of its own).
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
