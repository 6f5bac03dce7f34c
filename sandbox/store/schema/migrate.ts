/**
 * The sandbox's schema, as versioned migrations applied at start-up by Kysely's Migrator. The
 * Migrator takes a lock before it reads what has been applied (on PostgreSQL a transaction-scoped
 * advisory lock, which PGlite has too), and applies every pending migration in one transaction, so
 * processes starting together apply each migration once, and a failed migration leaves nothing.
 *
 * Each migration is SQL, one statement at a time, in the schema the sandbox's data lives in.
 * `company_id` leads every primary key, unique index and foreign key of the company tables, and
 * each company numbers its records on counters of its own, in its `companies` row (0003).
 * Migrations are only ever added: an applied one is never edited, and a change is a new migration.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from "kysely";
import { FOLLOW_MS, follow, onCitusWorker } from "../engine/citus.js";
import { STATEMENTS as companiesAndRecords } from "./migrations/0001_companies_and_records.js";
import { STATEMENTS as eventsRevision } from "./migrations/0002_events_revision.js";
import { STATEMENTS as idsPerCompany } from "./migrations/0003_ids_per_company.js";
import { STATEMENTS as distributionOnCitus } from "./migrations/0004_distribution_on_citus.js";

/**
 * The statements of each migration, in order, with `$schema` standing for the schema's quoted name:
 * one module per migration under ./migrations/, named as the Migrator records it. An applied
 * migration's statements never change (test/unit/sandbox/store/schema/migrate.test.ts pins each one's digest).
 */
export const MIGRATIONS: Readonly<Record<string, readonly string[]>> = {
  "0001_companies_and_records": companiesAndRecords,
  "0002_events_revision": eventsRevision,
  "0003_ids_per_company": idsPerCompany,
  "0004_distribution_on_citus": distributionOnCitus,
};

/** A schema name the sandbox may use: lower-case letters, digits and `_`, not starting with a digit. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The name of the latest migration: what a database at the current version has applied last. */
export const LATEST_MIGRATION = Object.keys(MIGRATIONS).sort().at(-1) ?? "";

function migrationsIn(schema: string): MigrationProvider {
  const quoted = `"${schema}"`;
  const migrations: Record<string, Migration> = {};
  for (const [name, statements] of Object.entries(MIGRATIONS)) {
    migrations[name] = {
      async up(db) {
        for (const statement of statements) await sql.raw(statement.replaceAll("$schema", quoted)).execute(db);
      },
    };
  }
  return { getMigrations: async () => migrations };
}

/**
 * Whether the schema has applied the latest migration already: one read, without the Migrator's
 * lock (migrations are only added, so a database that has the latest has them all). A start on an
 * existing database is spared the Migrator's round trips. The version the settings record is read
 * first: on Citus the settings are on every node, where the Migrator's own tables are on the
 * coordinator alone.
 */
export async function isCurrent<D>(db: Kysely<D>, schema: string): Promise<boolean> {
  if (((await recordedVersion(db, schema)) ?? "") >= LATEST_MIGRATION) return true;
  if ((await lookUp(db, schema, "kysely_migration", "name", LATEST_MIGRATION)) === undefined) return false;
  // a schema migrated before the version was recorded in its settings gets it now
  await recordVersion(db, schema, LATEST_MIGRATION);
  return true;
}

/** The setting holding the name of the last migration the schema has applied. */
const SCHEMA_VERSION = "schema_version";

/** The last migration the schema's settings record, or undefined (no schema, no settings or no record yet). */
function recordedVersion<D>(db: Kysely<D>, schema: string): Promise<string | undefined> {
  return lookUp(db, schema, "sandbox_settings", "value", SCHEMA_VERSION);
}

/**
 * The column `read` of the row of the schema's `table` whose `name` is `name`, or undefined when
 * the table or the row is not there.
 */
async function lookUp<D>(
  db: Kysely<D>,
  schema: string,
  table: "kysely_migration" | "sandbox_settings",
  read: "name" | "value",
  name: string,
): Promise<string | undefined> {
  const found = await sql<{
    found: string | null;
  }>`select to_regclass(${`"${schema}".${table}`})::text as found`.execute(db);
  if (found.rows[0]?.found == null) return undefined;
  const { rows } = await sql<{
    value: string;
  }>`select ${sql.ref(read)} as value from ${sql.table(`${schema}.${table}`)} where name = ${name}`.execute(db);
  return rows[0]?.value;
}

/** Records in the schema's settings the last migration it has applied. */
async function recordVersion<D>(db: Kysely<D>, schema: string, version: string): Promise<void> {
  await sql`insert into ${sql.table(`${schema}.sandbox_settings`)} (name, value) values (${SCHEMA_VERSION}, ${version})
    on conflict (name) do update set value = excluded.value`.execute(db);
}

/**
 * On a Citus worker, waits until the coordinator's process has brought the schema to the latest
 * version (its settings record it), or fails saying so.
 */
function followCoordinator<D>(db: Kysely<D>, schema: string): Promise<void> {
  return follow(
    async () => ((await recordedVersion(db, schema)) ?? "") >= LATEST_MIGRATION,
    () =>
      `the sandbox's schema "${schema}" is not at version ${LATEST_MIGRATION} on this Citus worker after ${FOLLOW_MS / 1000} s: its migrations run on the coordinator, so start a sandbox process with DATABASE_URL naming the coordinator first (it migrates and seeds the schema), then the processes on the workers`,
  );
}

/** Drops the schema and everything in it: what a sandbox made for itself (in memory, or a new one on PostgreSQL) when it closes. */
export async function dropSchema<D>(db: Kysely<D>, schema: string): Promise<void> {
  await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
}

/**
 * Brings the schema to the latest version (creating it first when it does not exist), or to the
 * version `target` names (the tests of a migration start from the version before it). Throws, with
 * the failing migration named, when one fails; nothing of it is then applied. On a Citus worker,
 * where the Migrator's lock and bookkeeping are not, it migrates nothing: it waits for the
 * coordinator's process to have done it.
 */
export async function migrate<D>(db: Kysely<D>, schema: string, target = LATEST_MIGRATION): Promise<void> {
  if (!SCHEMA_NAME.test(schema))
    throw new Error(
      `the schema name ${JSON.stringify(schema)} is not one the sandbox uses: lower-case letters, digits and _`,
    );
  if (target === LATEST_MIGRATION && (await isCurrent(db, schema))) return;
  if (!(target in MIGRATIONS)) throw new Error(`there is no migration ${JSON.stringify(target)}`);
  if (await onCitusWorker(db)) return followCoordinator(db, schema);
  const migrator = new Migrator({ db, provider: migrationsIn(schema), migrationTableSchema: schema });
  const { error, results } = await migrator.migrateTo(target);
  if (error === undefined) return recordVersion(db, schema, target);
  const failed = results?.find((result) => result.status === "Error")?.migrationName;
  throw new Error(
    `migrating the sandbox's schema "${schema}" failed${failed === undefined ? "" : ` at ${failed}`}: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}
