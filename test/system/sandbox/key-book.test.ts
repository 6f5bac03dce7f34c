/**
 * The key book (sandbox/service/keys.ts) remembers the keys it last found, so a key presented again
 * is found without its digest: its answers are those of a book that remembers nothing, for the
 * seed's keys, near misses of them and keys it never held, in any order and past the most keys it
 * remembers; a key found before is answered at once, not as a promise; and a key remembered is
 * refused once the digests read again no longer hold it.
 */
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../../sandbox/index.js";
import { DEMO_SEED, seedKeys } from "../../../sandbox/seed/seed.js";
import { createKeyBook } from "../../../sandbox/service/keys.js";
import { parseLocation } from "../../../sandbox/store/engine/engine.js";
import { acquireEngine } from "../../../sandbox/store/engine/engines.js";
import type { Database } from "../../../sandbox/store/schema/database.js";
import { keyDigest, keySecret } from "../../../sandbox/store/schema/key-digests.js";

const SCHEME = { scheme: "ApiKeyAuth", type: "apiKey", in: "header", name: "X-API-KEY" } as const;
const REQUEST = {} as never;

describe("the key book", () => {
  let sandbox: Sandbox;
  let release: () => Promise<void>;
  let db: Kysely<Database>;
  beforeAll(async () => {
    sandbox = await createSandbox({ database: "memory" });
    const shared = await acquireEngine(parseLocation("memory"));
    release = shared.release;
    db = shared.engine.db.withSchema(sandbox.schema);
  }, 60_000);
  afterAll(async () => {
    await sandbox?.close();
    await release?.();
  });

  it("answers a key presented again as a book that remembers nothing does", async () => {
    // more keys than it remembers (16): the seed's, and 18 more of Harbor's
    const secret = await keySecret(db);
    const added = Array.from({ length: 18 }, (_, i) => `added-key-${i}`);
    const rows = added.map((key) => ({ company_id: 5, personnel_id: 7, key_digest: keyDigest(secret, key) as string }));
    await db.insertInto("api_keys").values(rows).execute();
    try {
      const seeded = seedKeys(DEMO_SEED).map((seed) => seed.key);
      const keys = [...seeded, ...added];
      const near = seeded.flatMap((key) => [key.slice(0, -1), `${key}x`, key.toUpperCase(), `x${key.slice(1)}`]);
      const others = Array.from({ length: 4 }, (_, i) => `not-a-key-${i}`);
      const presented = [...keys, ...near, ...others, ...[...keys].reverse(), ...near];
      const remembering = createKeyBook(db);
      for (const key of presented) {
        const fresh = await createKeyBook(db).authenticate(key, REQUEST, SCHEME);
        expect(await remembering.authenticate(key, REQUEST, SCHEME), key).toEqual(fresh);
      }
      expect(await remembering.authenticate(keys[0] ?? "", REQUEST, SCHEME)).toMatchObject({ companyId: 5 });
      expect(await remembering.authenticate(added[0] ?? "", REQUEST, SCHEME)).toMatchObject({ personnelId: 7 });
    } finally {
      await db
        .deleteFrom("api_keys")
        .where(
          "key_digest",
          "in",
          rows.map((row) => row.key_digest),
        )
        .execute();
    }
  });

  it("answers a key found before at once, not as a promise, until it forgets what it read", async () => {
    const book = createKeyBook(db);
    const key = seedKeys(DEMO_SEED)[0]?.key ?? "";
    const first = book.authenticate(key, REQUEST, SCHEME);
    expect(first).toBeInstanceOf(Promise);
    const caller = await first;
    const again = book.authenticate(key, REQUEST, SCHEME);
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toEqual(caller);
    expect(book.authenticate("not-a-key", REQUEST, SCHEME)).toBeInstanceOf(Promise);
    book.forget();
    const reread = book.authenticate(key, REQUEST, SCHEME);
    expect(reread).toBeInstanceOf(Promise);
    expect(await reread).toEqual(caller);
  });

  it("refuses a key it remembered once the digests read again no longer hold it", async () => {
    const book = createKeyBook(db);
    const key = seedKeys(DEMO_SEED)[0]?.key ?? "";
    expect(await book.authenticate(key, REQUEST, SCHEME)).toMatchObject({ companyId: 5 });
    const removed = await db.deleteFrom("api_keys").returningAll().execute();
    try {
      expect(await book.authenticate(key, REQUEST, SCHEME)).toMatchObject({ companyId: 5 });
      book.forget();
      expect(await book.authenticate(key, REQUEST, SCHEME)).toBe(false);
    } finally {
      await db.insertInto("api_keys").values(removed).execute();
    }
  });
});
