/**
 * The sandbox's behaviour on a PostgreSQL server (DATABASE_URL, or a throwaway cluster the
 * harness starts): the same suite as on PGlite, the same SQL. Skipped with a message where there
 * is no PostgreSQL; in CI it must run.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "../../sandbox/index.js";
import { type PostgresServer, postgresAvailable, startPostgres } from "../support/postgres.js";
import { describeSandbox, NOW } from "./behaviour.js";

const available = postgresAvailable("sandbox suites on PostgreSQL");
let server: PostgresServer | undefined;

if (available) {
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(() => server?.stop());
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
} else {
  describe("the sandbox on PostgreSQL", () => {
    it.skip("needs PostgreSQL: see the message above", () => undefined);
  });
}

export { expect };
