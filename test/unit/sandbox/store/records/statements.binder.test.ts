/**
 * A statement's values in the places of its parameters: each named parameter read by its name,
 * the statement's own values kept in their places, through the binder made for the statement, or,
 * where code cannot be made at run time (a page's Content-Security-Policy), through the shared one.
 * Over a pool that records the values each text is run with.
 */
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { directQueryOn, queryDirectly } from "../../../../../sandbox/store/engine/direct-queries.js";
import { statement } from "../../../../../sandbox/store/records/statements.js";
import type { Database } from "../../../../../sandbox/store/schema/database.js";

/** A query layer whose pool records the values of each run. */
function recording(): { db: Kysely<Database>; values: unknown[][] } {
  const values: unknown[][] = [];
  const client = {
    query: async (_text: string, parameters: unknown[]) => {
      values.push(parameters);
      return { command: "UPDATE", rowCount: 1, rows: [] };
    },
    release: () => undefined,
  };
  const pool: PostgresPool = {
    connect: async () => client as unknown as PostgresPoolClient,
    end: async () => undefined,
  };
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  queryDirectly(db, directQueryOn(pool));
  return { db, values };
}

/** A statement of three named parameters and a value of its own, between them. */
const rename = () =>
  statement((db, p: { name: string; 'odd "name"': string; id: number }) =>
    db
      .updateTable("events")
      .set({ name: p.name, date: p['odd "name"'] })
      .where("company_id", "=", 5)
      .where("id", "=", p.id),
  );

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("a statement's values", () => {
  it("are its named parameters read by name and its own values, in the places of the text", async () => {
    const { db, values } = recording();
    const run = rename();
    await run(db, { id: 12, 'odd "name"': "2027-05-01", name: "Gala" });
    await run(db, { name: "Fair", id: 13, 'odd "name"': "2027-05-02" });
    expect(values).toEqual([
      ["Gala", "2027-05-01", 5, 12],
      ["Fair", "2027-05-02", 5, 13],
    ]);
    expect(values.every((bound) => Array.isArray(bound) && bound.every((_, i) => i in bound))).toBe(true);
  });

  it("are the same where no code can be made at run time, through the shared binder", async () => {
    vi.stubGlobal("Function", () => {
      throw new EvalError("Refused to evaluate a string as JavaScript (Content-Security-Policy)");
    });
    const { db, values } = recording();
    await rename()(db, { id: 12, 'odd "name"': "2027-05-01", name: "Gala" });
    vi.unstubAllGlobals();
    expect(values).toEqual([["Gala", "2027-05-01", 5, 12]]);
  });
});
