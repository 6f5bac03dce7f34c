/**
 * Statements built once (sandbox/store/records/statements.ts) run straight on their engine's pool,
 * without Kysely's layers. Apart from ./prepared-statements.ts, which names texts with
 * `node:crypto`: the records import this module, and the in-page sandbox bundles the records for
 * the browser, where no `node:` module is.
 */
import type { DialectAdapter, PostgresPool, QueryExecutorProvider } from "kysely";

/** Runs a compiled text with its parameters on a connection of the pool, and answers its rows. */
export type DirectQuery = <R>(text: string, parameters: readonly unknown[]) => Promise<R[]>;

/** The pool beneath each query layer registered by `queryDirectly`, by the layer's adapter (shared by its `withSchema` and `withPlugin` copies). */
const DIRECT = new WeakMap<DialectAdapter, DirectQuery>();

/**
 * Has the statements built once (sandbox/store/records/statements.ts) run on `db`, or on a copy of
 * it, by `run` (on `db`'s own pool: `preparingPool`'s `run`, or `directQueryOn` that pool) without
 * Kysely's layers: its connection provider, its executor and its driver's connection are each an
 * async step of their own per query (about 4 KB allocated and four turns of the microtask queue a
 * statement), for a text already compiled, whose rows no plugin of the sandbox's changes (the
 * schema's is in the text, Citus's mark changes nothing). The pool's connection, its name for the
 * text, its outage handling and its timeouts are the same: only the layers above it are left out.
 */
export function queryDirectly(db: QueryExecutorProvider, run: DirectQuery): void {
  DIRECT.set(db.getExecutor().adapter, run);
}

/** A query run on a connection of `pool`, released once the query is done, done or failed. */
export function directQueryOn(pool: PostgresPool): DirectQuery {
  return async <R>(text: string, parameters: readonly unknown[]) => {
    const client = await pool.connect();
    try {
      return (await client.query<R>(text, parameters)).rows;
    } finally {
      client.release();
    }
  };
}

/** How `db` runs a compiled text directly, if `queryDirectly` registered its pool. */
export function directQueryOf(db: QueryExecutorProvider): DirectQuery | undefined {
  return DIRECT.get(db.getExecutor().adapter);
}
