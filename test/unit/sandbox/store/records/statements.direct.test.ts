/**
 * A statement built once runs on the pool its engine registered (`queryDirectly`), without
 * Kysely's connection provider and executor, on the query layer and on its `withSchema` copies;
 * in a transaction it runs on the transaction's connection, between its `begin` and `commit`.
 * Over a pool that records on which connection each text runs.
 */
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from "kysely";
import { describe, expect, it, vi } from "vitest";
import { directQueryOn, queryDirectly } from "../../../../../sandbox/store/engine/direct-queries.js";
import { statement } from "../../../../../sandbox/store/records/statements.js";
import type { Database } from "../../../../../sandbox/store/schema/database.js";

/** A pool of numbered connections: each text run is recorded as "<connection> <text>". */
function recordingPool(): { pool: PostgresPool; ran: string[] } {
  const ran: string[] = [];
  let opened = 0;
  const pool: PostgresPool = {
    connect: async () => {
      const connection = ++opened;
      const client = {
        query: async (text: string) => {
          ran.push(`${connection} ${text}`);
          return { command: "SELECT", rowCount: 1, rows: text.startsWith("select") ? [{ events_revision: 3 }] : [] };
        },
        release: () => undefined,
      };
      return client as unknown as PostgresPoolClient;
    },
    end: async () => undefined,
  };
  return { pool, ran };
}

const REVISION = statement((db, p: { companyId: number }) =>
  db.selectFrom("companies").select("events_revision").where("company_id", "=", p.companyId),
);

function registered(): { db: Kysely<Database>; ran: string[] } {
  const { pool, ran } = recordingPool();
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  queryDirectly(db, directQueryOn(pool));
  return { db, ran };
}

describe("statements on a pool registered to run them directly", () => {
  it("run on the pool without Kysely's executor, on the layer and on a copy in a schema", async () => {
    const { db, ran } = registered();
    const inSchema = db.withSchema("sandbox_7");
    const provided = vi.spyOn(db.getExecutor(), "provideConnection");
    const providedInSchema = vi.spyOn(inSchema.getExecutor(), "provideConnection");
    expect((await REVISION(db, { companyId: 5 })).rows).toEqual([{ events_revision: 3 }]);
    expect((await REVISION(inSchema, { companyId: 5 })).rows).toEqual([{ events_revision: 3 }]);
    expect(provided).not.toHaveBeenCalled();
    expect(providedInSchema).not.toHaveBeenCalled();
    expect(ran).toEqual([
      '1 select "events_revision" from "companies" where "company_id" = $1',
      '2 select "events_revision" from "sandbox_7"."companies" where "company_id" = $1',
    ]);
  });

  it("run in a transaction on its connection, whether given as the layer to run on or as the layer", async () => {
    const { db, ran } = registered();
    await db.transaction().execute(async (tx) => {
      await REVISION(db, { companyId: 5 }, tx);
      await REVISION(tx, { companyId: 6 });
    });
    const read = '1 select "events_revision" from "companies" where "company_id" = $1';
    expect(ran).toEqual(["1 begin", read, read, "1 commit"]);
  });

  it("go through Kysely on a layer whose pool is not registered", async () => {
    const { pool, ran } = recordingPool();
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const provided = vi.spyOn(db.getExecutor(), "provideConnection");
    expect((await REVISION(db, { companyId: 5 })).rows).toEqual([{ events_revision: 3 }]);
    expect(provided).toHaveBeenCalledTimes(1);
    expect(ran).toEqual(['1 select "events_revision" from "companies" where "company_id" = $1']);
  });
});
