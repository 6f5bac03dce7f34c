/**
 * Record ids, counted per company. A company's row holds the last id it gave of each kind of
 * record (`companies.last_venue_id`, …), and an insert takes the next one: in one transaction, the
 * counter's update (`update companies set last_x = last_x + 1 where company_id = $1 returning
 * last_x`) and then the insert of the record with that id (`insert into ... values (...)`). So a
 * company's ids count from 1 whatever other companies do, and an insert touches its own company's
 * rows only (no table-wide sequence: a database distributed by company numbers each company's
 * records on its node).
 *
 * The counter's update locks the company's row until the insert's transaction ends: concurrent
 * inserts of one company wait for each other there and take one id each, in turn (an update that
 * waited reads the row as the other left it), and an insert that fails gives its id back.
 *
 * On Citus (a query layer marked so, ../engine/citus.ts) that is two statements in one transaction: each
 * names the company, so Citus sends each whole to the company's worker (a router query, one
 * task), and the transaction runs and commits on that one worker, in one phase. One statement
 * taking the id in a CTE (`with next_id as (update ...) insert ... select ... from next_id`) Citus
 * runs in steps (the update on the worker, its row pulled to the coordinator and copied back for
 * the insert) and commits with two phases (`PREPARE TRANSACTION`, `COMMIT PREPARED`), for one row
 * on one node. Elsewhere (PostgreSQL, PGlite) it is that one statement: one round trip, where the
 * transaction of two takes four (`BEGIN`, the update, the insert, `COMMIT`).
 */
import { type Selectable, sql, type Transaction } from "kysely";
import { isDistributed } from "../engine/citus.js";
import type { Database, Db } from "../schema/database.js";

/** A counter of the company's row: the last id of one kind of record. */
export type IdCounter = keyof {
  [K in keyof Database["companies"] as K extends `last_${string}_id` ? K : never]: true;
};

/**
 * Advances the company's counter and answers its new value, the company's next id of that kind.
 * Run it in the transaction of the insert that takes the id: the company's row stays locked until
 * that transaction ends.
 */
async function nextId(db: Db, companyId: number, counter: IdCounter): Promise<number> {
  const row = await db
    .updateTable("companies")
    .set(counter, (eb) => eb(counter, "+", 1))
    .where("company_id", "=", companyId)
    .returning((eb) => eb.ref(counter).as("id"))
    .executeTakeFirst();
  if (row === undefined) throw new Error(`company ${companyId} has no row: its key outlived a reset that removed it`);
  return row.id;
}

/** The tables whose records are numbered on a counter of their company. */
type CountedTable = "venues" | "events" | "payroll_groups" | "stored_files" | "worker_documents" | "worker_credentials";

/** Runs `work` in `db` when it is a transaction already, else in a transaction of its own. */
function inTransaction<T>(db: Db, work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<Database>) : db.transaction().execute(work);
}

/** The arguments of an insert of a counted record: the database, the company, its counter, the table, the values. */
type InsertArguments = [
  db: Db,
  companyId: number,
  counter: IdCounter,
  into: { readonly table: CountedTable; readonly idColumn: string; readonly returned?: readonly string[] },
  values: Readonly<Record<string, unknown>>,
];

/**
 * Inserts one record of `table`, its `idColumn` the company's next id of `counter` and its other
 * columns `values` (each sent as a parameter, which takes the column's type), and answers the row
 * as stored (its `returned` columns, or all of them): the counter's update and the insert, in one
 * statement, or on Citus two statements in one transaction (`db`'s, or one of their own).
 */
export function insertWithNextId<T extends CountedTable, C extends keyof Selectable<Database[T]> & string>(
  db: Db,
  companyId: number,
  counter: IdCounter,
  into: { readonly table: T; readonly idColumn: keyof Database[T] & string; readonly returned: readonly C[] },
  values: Partial<Record<keyof Database[T] & string, unknown>>,
): Promise<Pick<Selectable<Database[T]>, C>>;
export function insertWithNextId<T extends CountedTable>(
  db: Db,
  companyId: number,
  counter: IdCounter,
  into: { readonly table: T; readonly idColumn: keyof Database[T] & string },
  values: Partial<Record<keyof Database[T] & string, unknown>>,
): Promise<Selectable<Database[T]>>;
export function insertWithNextId(...args: InsertArguments): Promise<unknown> {
  const [db, companyId, counter, into, values] = args;
  if (!isDistributed(db)) return insertInOneStatement(...args);
  return inTransaction(db, async (tx) => {
    const id = await nextId(tx, companyId, counter);
    const insert = tx.insertInto(into.table).values({ ...values, [into.idColumn]: id } as never);
    const returning = into.returned === undefined ? insert.returningAll() : insert.returning(into.returned as never);
    return returning.executeTakeFirstOrThrow();
  });
}

/**
 * The insert of `insertWithNextId` as one statement, where the database is not Citus: `with
 * next_id as (update ...) insert into table (id, ...) select next_id.id, ... from next_id`.
 */
function insertInOneStatement(...[db, companyId, counter, into, values]: InsertArguments): Promise<unknown> {
  const columns = Object.keys(values);
  const insert = db
    .with("next_id", (query) =>
      query
        .updateTable("companies")
        .set(counter, (eb) => eb(counter, "+", 1))
        .where("company_id", "=", companyId)
        .returning((eb) => eb.ref(counter).as("id")),
    )
    .insertInto(into.table)
    .columns([into.idColumn, ...columns] as never)
    .expression(sql`select next_id.id, ${sql.join(columns.map((column) => sql`${values[column]}`))} from next_id`);
  const returning = into.returned === undefined ? insert.returningAll() : insert.returning(into.returned as never);
  return returning.executeTakeFirstOrThrow();
}
