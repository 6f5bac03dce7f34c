/**
 * API keys are stored only as digests: HMAC-SHA-256 under a secret of the database, drawn when
 * the schema is first seeded and kept across resets.
 */
import { createHmac, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "./database.js";

/** The setting holding the secret that key digests are made with. */
const KEY_SECRET = "key_secret";

/** The digest a key is stored as (hex). */
export function keyDigest(secret: string, key: string): string {
  return createHmac("sha256", secret).update(key, "utf8").digest("hex");
}

/** The secret key digests are made with, drawn the first time it is asked for. */
export async function keySecret(db: Kysely<Database>): Promise<string> {
  const existing = await db.selectFrom("sandbox_settings").select("value").where("name", "=", KEY_SECRET).executeTakeFirst();
  if (existing !== undefined) return existing.value;
  await db
    .insertInto("sandbox_settings")
    .values({ name: KEY_SECRET, value: randomBytes(32).toString("hex") })
    .onConflict((conflict) => conflict.column("name").doNothing())
    .execute();
  const row = await db.selectFrom("sandbox_settings").select("value").where("name", "=", KEY_SECRET).executeTakeFirstOrThrow();
  return row.value;
}
