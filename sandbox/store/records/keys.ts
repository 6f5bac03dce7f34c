/**
 * The statement of API keys: every stored digest with its company and holder, read on its own (on
 * Citus the keys are a reference table, so the read goes to no shard). The digests' secret is read
 * by ../schema/key-digests.ts; the holders' names by ./workers.ts, from their company's rows.
 */
import type { Db } from "../schema/database.js";

/** A stored key: its digest, its company and its holder. */
export interface KeyRow {
  readonly company_id: number;
  readonly key_digest: string;
  readonly personnel_id: number;
}

/** Every stored key, by company and digest. */
export function keyRows(db: Db): Promise<KeyRow[]> {
  return db
    .selectFrom("api_keys")
    .select(["company_id", "key_digest", "personnel_id"])
    .orderBy("company_id")
    .orderBy("key_digest")
    .execute();
}
