/**
 * Transactions left in doubt on a Citus cluster, resolved as soon as a request meets one. A
 * two-phase commit interrupted by a worker's crash leaves a prepared transaction on that worker,
 * holding its locks until Citus's recovery commits or rolls it back, which the maintenance daemon
 * runs every `citus.recover_2pc_interval` (a minute by default). The sandbox's own writes commit in
 * one phase, but a reset, a seed or another client's statements across shards use two.
 *
 * A request whose statement waited past the bound (a statement or lock timeout) is answered 503;
 * the sandbox then asks the node it is connected to for that recovery at once
 * (`recover_prepared_transactions()`), at most once a second, so the next request finds the lock
 * released. On PostgreSQL and PGlite, which have no such transactions, it does nothing. Recovery
 * resolves the transactions the node itself coordinated: a sandbox on the coordinator resolves
 * the coordinator's (every write sent through it); for others, Citus's own recovery runs.
 */
import type { Pool } from "pg";
import { isDatabaseBusy } from "../outage.js";

/** The least time between two recoveries the sandbox asks for. */
const RECOVERY_INTERVAL_MS = 1000;

/**
 * Answers a function to call with every error a request's statement met: after a wait past the
 * bound, it asks for Citus's recovery of prepared transactions on `pool`'s node (not more than
 * once a second, never while one is running; nothing on a database without Citus).
 */
export function recoverAfterTimeouts(pool: Pool): (error: unknown) => void {
  let citus: Promise<boolean> | undefined;
  let lastAsked = Number.NEGATIVE_INFINITY;
  let running = false;
  const recover = async (): Promise<void> => {
    citus ??= pool
      .query<{ citus: boolean }>("select exists (select from pg_extension where extname = 'citus') as citus")
      .then((result) => result.rows[0]?.citus === true);
    if (await citus) await pool.query("select recover_prepared_transactions()");
  };
  return (error) => {
    if (!isDatabaseBusy(error) || running || Date.now() - lastAsked < RECOVERY_INTERVAL_MS) return;
    lastAsked = Date.now();
    running = true;
    recover()
      .catch(() => {
        // a node that refuses it (a user without the right, a worker away) leaves it to Citus's own
        citus = undefined;
      })
      .finally(() => {
        running = false;
      });
  };
}
