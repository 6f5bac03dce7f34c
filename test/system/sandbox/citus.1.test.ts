/**
 * The sandbox on a distributed PostgreSQL: a Citus cluster of this file's own (a database of its
 * own on the run's coordinator and two workers on loopback, ./citus-cluster.ts), with DATABASE_URL
 * naming the coordinator as it would in a deployment. (Processes, resets and the rebalance are
 * ./citus.2.test.ts's, in a database of its own on the same nodes, and the faults
 * ./citus-faults.test.ts's, on nodes of their own, so that the three run side by side.)
 *
 * - The schema: every company table distributed by company_id in the co-location group of
 *   `companies`, the keys and settings reference tables, nothing else but the Migrator's own
 *   bookkeeping left on the coordinator.
 * - Every request goes to its company's worker alone, and every write commits there in one phase:
 *   judged by what Citus itself sends (./routed-statements.ts).
 * - The behaviour suite (./behaviour.ts), as on PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../../sandbox/index.js";
import { COMPANY_TABLES } from "../../../sandbox/store/schema/database.js";
import { describeSandbox, NOW } from "./behaviour.js";
import { BURST_BOUND_MS, onCitusCluster } from "./citus-cluster.js";
import { remoteCommandsOfEveryOperation, TWO_PHASE } from "./routed-statements.js";

/** The tables the keys are read from before the company is known: on every node. */
const REFERENCE_TABLES = ["api_keys", "sandbox_settings"];

onCitusCluster("citus_1", (cluster) => {
  describe("the sandbox's schema on Citus", () => {
    let sandbox: Sandbox;
    beforeAll(async () => {
      sandbox = await createSandbox({ database: cluster().url, schema: "routed", now: () => NOW });
    }, 60_000);
    afterAll(() => sandbox?.close());

    it("distributes every company table by company_id with companies, and keys and settings to every node", async () => {
      const tables = await cluster().query<{ name: string; method: string; column: string | null; group: number }>(
        `select c.relname as name, p.partmethod as method, column_to_column_name(p.logicalrelid, p.partkey) as column,
           p.colocationid as group
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
         left join pg_dist_partition p on p.logicalrelid = c.oid
         where n.nspname = 'routed' and c.relkind = 'r' order by c.relname`,
      );
      const group = tables.find((table) => table.name === "companies")?.group;
      const distributed = COMPANY_TABLES.filter((name) => !REFERENCE_TABLES.includes(name));
      expect(
        tables.filter((table) => table.method === "h" && table.column === "company_id" && table.group === group),
      ).toHaveLength(distributed.length);
      expect(Object.fromEntries(tables.map((table) => [table.name, table.method ?? "local"]))).toEqual({
        ...Object.fromEntries(distributed.map((name) => [name, "h"])),
        ...Object.fromEntries(REFERENCE_TABLES.map((name) => [name, "n"])),
        kysely_migration: "local",
        kysely_migration_lock: "local",
      });
      process.stdout.write(
        `Citus: ${distributed.length} tables distributed by company_id in co-location group ${group}, ${REFERENCE_TABLES.length} reference tables\n`,
      );
    });

    it("sends each request to its company's worker alone, each write one transaction there with no two-phase commit", async () => {
      const requests = await remoteCommandsOfEveryOperation(cluster().url, sandbox.schema);
      const workers = {
        5: `127.0.0.1:${await cluster().workerOf("routed", 5)}`,
        6: `127.0.0.1:${await cluster().workerOf("routed", 6)}`,
      };
      process.stdout.write(
        `Citus, remote commands per request (from the coordinator): ${requests.map((request) => `${request.request} ${request.commands.length}`).join(", ")}\n`,
      );
      expect(requests).toHaveLength(16);
      for (const { request, company, commands } of requests) {
        expect(new Set(commands.map((command) => command.node)), request).toEqual(
          new Set(commands.length === 0 ? [] : [workers[company as 5 | 6]]),
        );
        expect(
          commands.filter((command) => TWO_PHASE.test(command.command)),
          request,
        ).toEqual([]);
      }
      // each write reached its worker: a create is its transaction's begin, the counter's update, the insert, the commit
      const create = requests.find((request) => request.request.startsWith("createEvent at a venue"));
      expect(create?.commands.map((command) => command.command.split(/\s+/)[0])).toEqual([
        "BEGIN",
        "UPDATE",
        "INSERT",
        "COMMIT",
      ]);
    });
  });

  describeSandbox("Citus", () => createSandbox({ database: cluster().url, now: () => NOW, timeout: BURST_BOUND_MS }));
});
