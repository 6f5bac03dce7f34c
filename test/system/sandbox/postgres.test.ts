/**
 * The sandbox's behaviour on a PostgreSQL server (DATABASE_URL, or a throwaway cluster the
 * harness starts): the same suite as on PGlite, the same SQL. Skipped with a message where there
 * is no PostgreSQL; in CI it must run.
 */
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createSandbox } from "../../../sandbox/index.js";
import { createEvent } from "../../../sandbox/service/events.js";
import { createVenue } from "../../../sandbox/service/venues.js";
import { markDistributed } from "../../../sandbox/store/engine/citus.js";
import { openEngine, parseLocation } from "../../../sandbox/store/engine/engine.js";
import type { Database } from "../../../sandbox/store/schema/database.js";
import { postgresAvailable } from "../../support/postgres.js";
import { sharedPostgres } from "../../support/shared-postgres.js";
import { describeSandbox, NOW } from "./behaviour.js";

const available = postgresAvailable("sandbox suites on PostgreSQL");
let server: { url: string } | undefined;

if (available) {
  beforeAll(async () => {
    server = await sharedPostgres();
  }, 120_000);
  describeSandbox("PostgreSQL", () => createSandbox({ database: server?.url ?? "", now: () => NOW }));
  describe("opening PostgreSQL", () => {
    it("names a database or a user the server does not have, in one line", async () => {
      const url = new URL(server?.url ?? "");
      const where = `PostgreSQL at ${url.hostname} port ${url.port || "5432"}`;
      const database = new URL(url);
      database.pathname = "/no_such_database";
      await expect(createSandbox({ database: database.href })).rejects.toThrow(
        `${where} has no database "no_such_database" (3D000): create it (createdb no_such_database) or name another in DATABASE_URL`,
      );
      const user = new URL(url);
      user.username = "no_such_user";
      await expect(createSandbox({ database: user.href })).rejects.toThrow(
        new RegExp(`^${where} refused (the password of )?user "no_such_user" \\((28000|28P01)`),
      );
    });
  });
  describe("the upkeep's connection on PostgreSQL", () => {
    it("stays open past pg-pool's 10 s idle timeout: no socket of it ends while requests are served", async () => {
      const engine = await openEngine(parseLocation(server?.url ?? ""));
      try {
        const pid = async (db: Kysely<Database>): Promise<number> =>
          (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]?.pid ?? 0;
        // pg-pool's idle timer is set as a connection returns to the pool, on the clock faked
        // here: the 10.5 s pass at once, and a timer that would end the socket fires
        vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
        let upkeep: number;
        try {
          upkeep = await pid(engine.upkeep);
          expect(upkeep).toBeGreaterThan(0);
          vi.advanceTimersByTime(10_500);
        } finally {
          vi.useRealTimers();
        }
        const open = await sql<{
          count: number;
        }>`select count(*)::int as count from pg_stat_activity where pid = ${upkeep}`.execute(engine.db);
        expect(open.rows[0]?.count).toBe(1);
        expect(await pid(engine.upkeep)).toBe(upkeep);
      } finally {
        await engine.close();
      }
    }, 30_000);
  });
  describe("round trips of a create on PostgreSQL", () => {
    it("sends a create as one statement, the company's next id taken in it: one round trip", async () => {
      const sandbox = await createSandbox({ database: server?.url ?? "", schema: "trips", now: () => NOW });
      const sent: string[] = [];
      const pool = new pg.Pool({ connectionString: server?.url ?? "", max: 1 });
      pool.on("connect", (client) => {
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        client.query = ((...args: unknown[]) => {
          const [text] = args as [string | { text: string }];
          sent.push((typeof text === "string" ? text : text.text).split(/\s+/)[0] ?? "");
          return query(...args);
        }) as typeof client.query;
      });
      // as the sandbox's engine makes it: marked when the database is Citus's, which this one is not
      const db = (await markDistributed(new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }))).withSchema(
        sandbox.schema,
      );
      try {
        const context = { db, fileUrl: () => "", now: () => NOW };
        const caller = { companyId: 5, personnelId: 7, name: "Dana" };
        sent.length = 0;
        const created = await createEvent(context, caller, {
          name: "Trip",
          date: "2024-04-20",
          venue: { venue_id: "318" },
        });
        expect(created.status).toBe(201);
        expect(sent).toEqual(["with"]);
        sent.length = 0;
        await createVenue(context, caller, { name: "Hall", address: "1 Road", city: "Town", zip: "AB1 2CD" });
        expect(sent).toEqual(["with"]);
      } finally {
        await db.destroy();
        await sandbox.close();
      }
    });
  });
} else {
  describe("the sandbox on PostgreSQL", () => {
    it.skip("needs PostgreSQL: see the message above", () => undefined);
  });
}

export { expect };
