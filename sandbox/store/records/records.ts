/**
 * Whether a record of a company is there, by its key: the read behind a reference a body makes (a
 * venue, a client, a wage rule), an ID in the path (an event, a worker), one text per table:
 * `select <key> from <table> where company_id = $1 and <key> = $2`.
 */
import type { Database, Db } from "../schema/database.js";

/** The tables whose records are looked up by key, and the column of each record's key. */
const KEYS = {
  venues: "venue_id",
  clients: "client_id",
  personnel: "personnel_id",
  events: "id",
  wage_rules: "rule_id",
} as const;

type KeyedTable = keyof typeof KEYS;

/** The type of the key of a record of `T`. */
type KeyOf<T extends KeyedTable> = Database[T][(typeof KEYS)[T] & keyof Database[T]];

/** Whether the company has a record of `table` whose key is `key`. */
export async function recordExists<T extends KeyedTable>(
  db: Db,
  table: T,
  companyId: number,
  key: KeyOf<T>,
): Promise<boolean> {
  // typed as one of the tables: each has `company_id` and its key column, which is all it reads
  const column = KEYS[table] as "venue_id";
  const found = await db
    .selectFrom(table as "venues")
    .select(column)
    .where("company_id", "=", companyId)
    .where(column, "=", key as number)
    .executeTakeFirst();
  return found !== undefined;
}
