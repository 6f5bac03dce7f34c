/**
 * An applied migration is never edited: databases that ran it keep what it made, and the Migrator
 * never runs it again, so an edit would reach new databases only. Each migration's statements are
 * pinned here by their SHA-256 digest (of the statements as JSON); a changed one fails, saying to
 * restore it and put the change in a new migration. A new migration fails too until its digest is
 * pinned here, which is the moment it counts as applied. The modules under
 * sandbox/store/schema/migrations/ and the Migrator's list (sandbox/store/schema/migrate.ts) name
 * the same migrations, in order.
 */
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LATEST_MIGRATION, MIGRATIONS } from "../../../../../sandbox/store/schema/migrate.js";

/** The digest of each applied migration's statements. */
const APPLIED: Readonly<Record<string, string>> = {
  "0001_companies_and_records": "b4969d6fda18dc613ba44d66faab3b3090adc33e28b8f92adffd489216b06ca8",
  "0002_events_revision": "209a86abf2cb613a0482903346f2438e2ac5a3bffe6c806e6e5ff4a050aaee28",
  "0003_ids_per_company": "64b8991b17ec145d6a8bf0363ecc3732ec7e31bbecb6ec9ce0df38b630d7ec26",
  "0004_distribution_on_citus": "3fbc6ef1555ab23d66693702b6959f9abf2e3b59a43ed4f03c6aa45b709a7515",
};

const FOLDER = "sandbox/store/schema/migrations";

/** The digest a migration's statements are pinned by. */
function digestOf(statements: readonly string[]): string {
  return createHash("sha256").update(JSON.stringify(statements)).digest("hex");
}

/** What breaks the rule, one line per migration: an applied one changed or gone, a new one not pinned. */
function breaches(
  migrations: Readonly<Record<string, readonly string[]>>,
  applied: Readonly<Record<string, string>>,
): string[] {
  const found: string[] = [];
  for (const [name, digest] of Object.entries(applied)) {
    const statements = migrations[name];
    if (statements === undefined)
      found.push(`the applied migration ${name} is gone: databases have run it, so restore ${FOLDER}/${name}.ts`);
    else if (digestOf(statements) !== digest)
      found.push(
        `the applied migration ${name} was edited: databases that ran it keep what it made, so restore ${FOLDER}/${name}.ts and put the change in a new migration instead`,
      );
  }
  for (const [name, statements] of Object.entries(migrations))
    if (!(name in applied))
      found.push(
        `the migration ${name} is not pinned: once it is final, add "${name}": "${digestOf(statements)}" to APPLIED in test/unit/sandbox/store/schema/migrate.test.ts`,
      );
  return found;
}

describe("the sandbox's migrations", () => {
  it("are the ones applied, each as it was applied", () => {
    expect(breaches(MIGRATIONS, APPLIED)).toEqual([]);
  });

  it("are one module each under the migrations' folder, listed in order, the last one the latest", () => {
    const modules = readdirSync(join(import.meta.dirname, "../../../../..", FOLDER))
      .filter((name) => name.endsWith(".ts"))
      .map((name) => name.slice(0, -".ts".length));
    const listed = Object.keys(MIGRATIONS);
    expect(modules.sort()).toEqual(listed);
    expect([...listed].sort()).toEqual(listed);
    expect(listed.every((name) => /^\d{4}_[a-z0-9_]+$/.test(name))).toBe(true);
    expect(LATEST_MIGRATION).toBe(listed.at(-1));
  });

  it("sees an edited, a removed and an unpinned migration", () => {
    const [first, ...rest] = Object.keys(MIGRATIONS);
    if (first === undefined) throw new Error("no migrations");
    const edited = { ...MIGRATIONS, [first]: [...(MIGRATIONS[first] ?? []), "select 1"] };
    expect(breaches(edited, APPLIED)).toEqual([
      `the applied migration ${first} was edited: databases that ran it keep what it made, so restore ${FOLDER}/${first}.ts and put the change in a new migration instead`,
    ]);
    const removed = Object.fromEntries(rest.map((name) => [name, MIGRATIONS[name] ?? []]));
    expect(breaches(removed, APPLIED)).toEqual([
      `the applied migration ${first} is gone: databases have run it, so restore ${FOLDER}/${first}.ts`,
    ]);
    const added = { ...MIGRATIONS, "9999_next": ["select 1"] };
    expect(breaches(added, APPLIED)).toEqual([
      `the migration 9999_next is not pinned: once it is final, add "9999_next": "${digestOf(["select 1"])}" to APPLIED in test/unit/sandbox/store/schema/migrate.test.ts`,
    ]);
  });
});
