/**
 * Record ids, counted per company. A company's row holds the last id it gave of each kind of
 * record (`companies.last_venue_id`, …), and an insert takes the next one in its own statement: a
 * CTE advances the counter and the insert takes its new value. So a company's ids count from 1
 * whatever other companies do, and an insert touches its own company's rows only (no table-wide
 * sequence: a database distributed by company numbers each company's records on its node).
 *
 * The counter's update locks the company's row until the insert's transaction ends: concurrent
 * inserts of one company wait for each other there and take one id each, in turn (an update that
 * waited reads the row as the other left it), and an insert that fails gives its id back.
 */
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../store/database.js";

type Db = Kysely<Database> | Transaction<Database>;

/** A counter of the company's row: the last id of one kind of record. */
export type IdCounter = keyof {
  [K in keyof Database["companies"] as K extends `last_${string}_id` ? K : never]: true;
};

/**
 * `db` with the CTE `next_id`, whose one row's `id` is the company's next id of `counter` (the
 * counter advanced), for the insert that follows to take: `eb.selectFrom("next_id").select("id")`.
 */
export function withNextId(db: Db, companyId: number, counter: IdCounter) {
  return db.with("next_id", (query) =>
    query
      .updateTable("companies")
      .set(counter, (eb) => eb(counter, "+", 1))
      .where("company_id", "=", companyId)
      .returning((eb) => eb.ref(counter).as("id")),
  );
}
