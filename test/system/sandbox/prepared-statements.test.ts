/**
 * Statements prepared once per connection (sandbox/store/engine/prepared-statements.ts): which texts are
 * named, and that named statements run right on PGlite's one session and on a PostgreSQL pool of
 * several connections, through a table dropped and made again. And statements built once
 * (sandbox/store/records/statements.ts): each run binds its own values, and a builder that looks at its
 * parameters is refused on its first run.
 */
import { createHash } from "node:crypto";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Engine, openEngine, parseLocation } from "../../../sandbox/store/engine/engine.js";
import { MOST_NAMED, preparingPool, StatementNames } from "../../../sandbox/store/engine/prepared-statements.js";
import { statement } from "../../../sandbox/store/records/statements.js";
import type { Database } from "../../../sandbox/store/schema/database.js";
import { postgresAvailable } from "../../support/postgres.js";
import { sharedPostgres } from "../../support/shared-postgres.js";

describe("StatementNames", () => {
  it("names a text the second time it runs, by its SHA-1, and the same way in every pool", () => {
    const names = new StatementNames();
    expect(names.nameOf("select 1")).toBeUndefined();
    const name = names.nameOf("select 1");
    expect(name).toBe(`s_${createHash("sha1").update("select 1").digest("base64url")}`);
    expect(names.nameOf("select 1")).toBe(name);
    const other = new StatementNames();
    other.nameOf("select 1");
    expect(other.nameOf("select 1")).toBe(name);
    expect(name?.length).toBeLessThan(64); // PostgreSQL's longest identifier is 63 bytes
  });

  it("names at most MOST_NAMED texts; later ones run unnamed, those named keep their names", () => {
    const names = new StatementNames();
    const named = (text: string) => {
      names.nameOf(text);
      return names.nameOf(text);
    };
    for (let i = 0; i < MOST_NAMED; i++) expect(named(`select ${i}`)).toBeDefined();
    expect(names.size).toBe(MOST_NAMED);
    expect(named("select 'one too many'")).toBeUndefined();
    expect(names.nameOf("select 0")).toBeDefined();
    expect(names.size).toBe(MOST_NAMED);
  });
});

/** Runs the same statements on an engine: repeated ones, one run once, and a table made anew. */
function runsNamedStatements(open: () => Promise<Engine>, sessions: "one" | "several") {
  let engine: Engine;
  let db: Kysely<Database>;
  beforeAll(async () => {
    engine = await open();
    db = engine.db;
  }, 60_000);
  afterAll(() => engine?.close());

  it("answers each run of a statement right, from concurrent callers", async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => sql<{ n: number }>`select ${i}::int + 1 as n`.execute(db)),
    );
    expect(answers.map((answer) => answer.rows[0]?.n)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it("keeps working when the table a statement reads is dropped and made again", async () => {
    const read = () => sql<{ label: string }>`select label from prepared_probe where id = ${1}`.execute(db);
    for (const label of ["first", "second"]) {
      await sql`drop table if exists prepared_probe`.execute(db);
      await sql`create table prepared_probe (id int primary key, label text not null)`.execute(db);
      await sql`insert into prepared_probe values (1, ${label})`.execute(db);
      for (let i = 0; i < 3; i++) expect((await read()).rows).toEqual([{ label }]);
    }
  });

  it("builds a statement once per query layer and binds each run's values by name", async () => {
    let builds = 0;
    const probe = statement((layer, p: { low: number; label: string; limit: number }) => {
      builds += 1;
      return layer
        .selectFrom(sql<{ n: number }>`generate_series(1, 10)`.as("s"))
        .select([sql<number>`s`.as("n"), sql<string>`${p.label}::text || s`.as("label")])
        .where(sql`s`, ">", p.low)
        .orderBy(sql`s`)
        .limit(p.limit);
    });
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => probe(db, { low: i % 7, label: `run ${i}: `, limit: 1 + (i % 3) })),
    );
    runs.forEach(({ rows }, i) => {
      const low = i % 7;
      const expected = Array.from({ length: Math.min(1 + (i % 3), 10 - low) }, (_, k) => low + 1 + k);
      expect(rows).toEqual(expected.map((n) => ({ n, label: `run ${i}: ${n}` })));
    });
    // once with placeholders, once with the first run's values to check it; then never again
    expect(builds).toBe(2);
  });

  it("refuses, on its first run, a builder that looks at its parameters", async () => {
    const looking = statement((layer, p: { label: string | null }) =>
      layer
        .selectFrom(sql<{ n: number }>`generate_series(1, 2)`.as("s"))
        .select(sql<string>`${p.label ?? "none"}`.as("label")),
    );
    await expect(looking(db, { label: null })).rejects.toThrow(/its builder must not look at its parameters/);
  });

  if (sessions === "one") {
    it("prepares a statement run again, and not one run once", async () => {
      for (let i = 0; i < 3; i++) await sql`select ${i}::int as again`.execute(db);
      await sql`select ${1}::int as once`.execute(db);
      const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db);
      const statements = prepared.rows.map((row) => row.statement);
      expect(statements).toContain("select $1::int as again");
      expect(statements).not.toContain("select $1::int as once");
    });
  }
}

describe("named statements on PGlite (one session)", () => {
  runsNamedStatements(() => openEngine(parseLocation("memory")), "one");
});

const available = postgresAvailable("named statements on PostgreSQL");
describe("named statements on PostgreSQL (a pool of connections)", () => {
  if (!available) {
    it.skip("needs PostgreSQL: see the message above", () => undefined);
    return;
  }
  let server: { url: string } | undefined;
  runsNamedStatements(async () => {
    server = await sharedPostgres();
    return openEngine(parseLocation(server.url));
  }, "several");

  it("hands each connection over as one object, checkout after checkout", async () => {
    const pool = new pg.Pool({ connectionString: server?.url, max: 1 });
    // the server stops right after this test, and `pool.end()` does not wait for the connection's
    // socket to close: one still closing then hears the server's shutdown, which `pg` emits as an
    // error on it, unheard without these (as the sandbox's own pool hears it, ../../sandbox/store/engine/engine.ts)
    pool.on("error", () => undefined);
    pool.on("connect", (client) => client.on("error", () => undefined));
    try {
      const preparing = preparingPool(pool);
      const first = await preparing.connect();
      first.release();
      const second = await preparing.connect();
      // Kysely keeps a connection object of its own per object it is handed
      expect(second).toBe(first);
      for (let run = 0; run < 3; run++)
        expect((await second.query<{ n: number }>("select $1::int as n", [run])).rows).toEqual([{ n: run }]);
      second.release();
    } finally {
      await pool.end();
    }
  });
});
