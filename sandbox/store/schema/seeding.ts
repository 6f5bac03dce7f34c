/**
 * Loading a seed into a sandbox's schema, and emptying it again. Both run in one transaction: a
 * reset that fails leaves the data as it was. Each company's id counters live in its row, made
 * anew by the seed, so a reset sandbox numbers its records as a new one does.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import { CREDENTIAL_TYPE_FIELDS, type Seed, type SeedCompany } from "../../seed/seed.js";
import { FOLLOW_MS, follow, onCitus, onCitusWorker } from "../engine/citus.js";
import { isDatabaseBusy } from "../outage.js";
import { COMPANY_TABLES, type Database } from "./database.js";
import { keyDigest, keySecret } from "./key-digests.js";

/**
 * Whether the schema holds no company yet (a new database, to be seeded). A schema seeded once
 * says so in its settings, which the start reads alone: on Citus they are a reference table, on
 * every node, where the companies are spread over the workers, so a start reads no worker's shard
 * and starts while one is down. Only a schema without that setting (a new one, or one seeded before
 * the setting was kept) has its companies read.
 */
export async function isEmpty(db: Kysely<Database> | Transaction<Database>): Promise<boolean> {
  if ((await storedSeedDigest(db)) !== undefined) return false;
  return (await db.selectFrom("companies").select("company_id").limit(1).executeTakeFirst()) === undefined;
}

/** The digest of the seed the schema was last loaded from, as its settings hold it. */
async function storedSeedDigest(db: Kysely<Database> | Transaction<Database>): Promise<string | undefined> {
  const row = await db
    .selectFrom("sandbox_settings")
    .select("value")
    .where("name", "=", SEED_DIGEST)
    .executeTakeFirst();
  return row?.value;
}

/**
 * Loads the seed into the schema when it holds no company yet, and answers whether it did. The
 * check and the load run in one transaction under a lock of the schema's own (an advisory lock,
 * held until it ends), so of several processes starting together on a new database exactly one
 * seeds it, and the others find it seeded; none empties what another has written since.
 * `loading` is called as the load begins.
 */
export async function seedIfEmpty(
  db: Kysely<Database>,
  schema: string,
  seed: Seed,
  loading?: () => void,
): Promise<boolean> {
  if (!(await isEmpty(db))) return false;
  // the seeding lock holds on one node: on a Citus worker the coordinator's process seeds
  if (await onCitusWorker(db)) {
    await follow(
      async () => !(await isEmpty(db)),
      () =>
        `the sandbox's schema "${schema}" holds no data on this Citus worker after ${FOLLOW_MS / 1000} s: it is seeded on the coordinator, so start a sandbox process with DATABASE_URL naming the coordinator first`,
    );
    return false;
  }
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(${SEED_LOCK}, hashtext(${schema}))`.execute(tx);
    if (!(await isEmpty(tx))) return false;
    loading?.();
    await loadSeed(tx, seed);
    return true;
  });
}

/** The setting holding the digest of the seed the data was last loaded from. */
const SEED_DIGEST = "seed_digest";

/** The SHA-256 of a seed's JSON (Web Crypto, which Node and browsers both have), in hex. */
async function seedDigest(seed: Seed): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(seed)));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Whether the schema's data was last loaded from `seed` (by a start or a reset, whatever was written since). */
export async function loadedFrom(db: Kysely<Database>, seed: Seed): Promise<boolean> {
  return (await storedSeedDigest(db)) === (await seedDigest(seed));
}

/** The first key of the seeding lock (the second is the schema's hash): "seed" in ASCII. */
const SEED_LOCK = 0x73656564;

/**
 * Empties every company table of `schema` and loads the seed, in one transaction, while writes
 * wait. The transaction first locks the company tables against writes, every one in one
 * statement (on Citus, on every node, where a write through any node takes its lock); a write in
 * flight ends first, and those that come after wait for the reset, so none lands between two of
 * its deletes (a row whose parent it has just deleted) nor is lost under it. Writes lock the
 * tables in another order than a list of them can (an edit of an event locks `events` before
 * `companies`), so the lock waits a moment at most (RESET_LOCK_WAIT) and the reset tries again
 * when writes hold one, never sitting in a deadlock with them.
 *
 * The tables are then truncated, except on Citus, where their rows are deleted: a TRUNCATE of
 * distributed tables locks every shard of each on every worker, and took about 350 ms for the
 * sandbox's tables on a cluster of three nodes, where deleting a development database's rows took
 * about 12 ms (the workers' autovacuum then reclaims them). PGlite runs no autovacuum, so there the
 * rows deleted by every reset would stay in the tables' files; it truncates, as PostgreSQL does.
 */
export async function resetTo(db: Kysely<Database>, schema: string, seed: Seed): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction().execute(async (tx) => {
        const citus = await onCitus(tx);
        await lockForReset(tx, schema, citus);
        const tables = COMPANY_TABLES.map((table) => sql.table(`${schema}.${table}`));
        if (citus) {
          // the referring tables first
          for (const table of [...tables].reverse()) await sql`delete from ${table}`.execute(tx);
        } else await sql`truncate table ${sql.join(tables)}`.execute(tx);
        await loadSeed(tx, seed);
      });
      return;
    } catch (error) {
      if (!isDatabaseBusy(error) || attempt >= RESET_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}

/** How long a reset waits for the writes in flight to let go of the tables, at each attempt. */
const RESET_LOCK_WAIT = "500ms";

/** How many times a reset tries to lock the tables (about 35 s of writes holding them, at most). */
const RESET_ATTEMPTS = 60;

/**
 * Locks the company tables of `schema` against writes for the rest of the transaction (reads go
 * on, on Citus; a truncate's lock on PostgreSQL), waiting RESET_LOCK_WAIT at most: a statement
 * timeout too, as Citus takes the lock on the other nodes by statements of its own.
 */
async function lockForReset(tx: Transaction<Database>, schema: string, citus: boolean): Promise<void> {
  const tables = sql.join(COMPANY_TABLES.map((table) => sql.table(`${schema}.${table}`)));
  await sql`select set_config('lock_timeout', ${RESET_LOCK_WAIT}, true), set_config('statement_timeout', ${RESET_LOCK_WAIT}, true)`.execute(
    tx,
  );
  await sql`lock table ${tables} in ${sql.raw(citus ? "exclusive" : "access exclusive")} mode`.execute(tx);
  await sql`select set_config('lock_timeout', '0', true), set_config('statement_timeout', '0', true)`.execute(tx);
}

/** Loads a seed into an empty schema, in the transaction given, and records which seed it was. */
export async function loadSeed(tx: Transaction<Database>, seed: Seed): Promise<void> {
  const secret = await keySecret(tx);
  const digest = await seedDigest(seed);
  await tx
    .insertInto("sandbox_settings")
    .values({ name: SEED_DIGEST, value: digest })
    .onConflict((conflict) => conflict.column("name").doUpdateSet({ value: digest }))
    .execute();
  for (const company of seed.companies) await loadCompany(tx, company, secret);
}

async function loadCompany(tx: Transaction<Database>, company: SeedCompany, secret: string): Promise<void> {
  const company_id = company.company_id;
  const venues = numberedVenues(company);
  await tx
    .insertInto("companies")
    .values({ company_id, name: company.name, last_venue_id: highest(venues.map((venue) => venue.venue_id)) })
    .execute();
  await insertAll(
    tx,
    "personnel",
    company.personnel.map((person) => ({ company_id, ...person })),
  );
  await insertAll(tx, "api_keys", await keyRows(company, secret));
  await insertAll(
    tx,
    "clients",
    (company.clients ?? []).map(({ id, ...fields }) => ({ company_id, client_id: id, ...fields })),
  );
  await insertAll(
    tx,
    "credential_types",
    (company.credential_types ?? []).map((type) => credentialTypeRow(company_id, type)),
  );
  await insertAll(tx, "wage_rules", wageRuleRows(company));
  await insertAll(
    tx,
    "venues",
    venues.map((venue) => ({ company_id, saved: 0, ...venue })),
  );
}

/** The rows of the company's keys: each stored as its digest under the database's secret, never as itself. */
function keyRows(company: SeedCompany, secret: string) {
  return Promise.all(
    company.api_keys.map(async ({ key, personnel_id }) => ({
      company_id: company.company_id,
      key_digest: await keyDigest(secret, key),
      personnel_id,
    })),
  );
}

/** The rows of the company's wage rules: each stored whole, as the seed gives it, in the seed's order. */
function wageRuleRows(company: SeedCompany) {
  return (company.wage_rules ?? []).map((rule, position) => ({
    company_id: company.company_id,
    position,
    rule_id: String(rule.id),
    body: JSON.stringify(rule),
  }));
}

/**
 * The company's seeded venues, each with its id: the one the seed gives, else the next after the
 * company's highest (those given first, then in the seed's order). The company's counter starts
 * at the highest, so the venues created later follow.
 */
function numberedVenues(company: SeedCompany): (NonNullable<SeedCompany["venues"]>[number] & { venue_id: number })[] {
  const venues = company.venues ?? [];
  let last = highest(venues.map((venue) => venue.venue_id ?? 0));
  return venues.map((venue) => ({ ...venue, venue_id: venue.venue_id ?? ++last }));
}

/** The highest of `ids`, or 0 when there is none. */
function highest(ids: readonly number[]): number {
  return ids.reduce((high, id) => Math.max(high, id), 0);
}

function credentialTypeRow(
  company_id: number,
  type: NonNullable<SeedCompany["credential_types"]>[number],
): Database["credential_types"] {
  const row: Record<string, unknown> = {
    company_id,
    credentials_id: type.credentials_id,
    name: type.name,
    description: "",
    type: "",
  };
  for (const field of CREDENTIAL_TYPE_FIELDS) row[field] = type[field] ?? row[field] ?? 0;
  return row as unknown as Database["credential_types"];
}

/**
 * The most values one insert of the seed binds. PostgreSQL takes at most 65,535 parameters a
 * statement: a seed's records go in statements of at most this many values, however many there are.
 */
const MOST_SEED_VALUES = 30_000;

/** Inserts a seed's rows of one table, in statements of at most MOST_SEED_VALUES values. */
async function insertAll<T extends (typeof COMPANY_TABLES)[number]>(
  tx: Transaction<Database>,
  table: T,
  rows: readonly object[],
): Promise<void> {
  const widest = rows.reduce<number>((most, row) => Math.max(most, Object.keys(row).length), 1);
  const size = Math.max(1, Math.floor(MOST_SEED_VALUES / widest));
  for (let start = 0; start < rows.length; start += size)
    await tx
      .insertInto(table)
      .values(rows.slice(start, start + size) as never)
      .execute();
}
