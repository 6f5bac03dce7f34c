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
} else {
  describe("the sandbox on PostgreSQL", () => {
    it.skip("needs PostgreSQL: see the message above", () => undefined);
  });
}

export { expect };
