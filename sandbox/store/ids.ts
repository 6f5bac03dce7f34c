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
 *
 * The insert selects its row from the CTE (`insert ... select`), never a subquery in `values`,
 * which Citus refuses: so the one statement runs on the one node holding the company.
 */
import { sql } from "kysely";
import type { Database, Db } from "./database.js";

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

/** The tables whose records are numbered on a counter of their company. */
type CountedTable = "venues" | "events" | "payroll_groups" | "stored_files" | "worker_documents" | "worker_credentials";

/**
 * The insert of one record of `table`, its `idColumn` the company's next id of `counter` and its
 * other columns `values` (each sent as a parameter, which takes the column's type), in one
 * statement: `with next_id as (update ...) insert into table (id, ...) select next_id.id, ... from next_id`.
 */
export function insertWithNextId<T extends CountedTable>(
  db: Db,
  companyId: number,
  counter: IdCounter,
  table: T,
  idColumn: keyof Database[T] & string,
  values: Partial<Record<keyof Database[T] & string, unknown>>,
) {
  const columns = Object.keys(values) as (keyof Database[T] & string)[];
  return withNextId(db, companyId, counter)
    .insertInto(table)
    .columns([idColumn, ...columns] as never)
    .expression(sql`select next_id.id, ${sql.join(columns.map((column) => sql`${values[column]}`))} from next_id`);
}
