/**
 * The sandbox on a distributed PostgreSQL: a throwaway Citus cluster (a coordinator and two workers
 * on loopback, ../support/citus.ts), started once and shared by every suite here, with
 * DATABASE_URL naming the coordinator as it would in a deployment. (Its faults are
 * ./citus-faults.test.ts's, on a cluster of their own.)
 *
 * - The schema: every company table distributed by company_id in the co-location group of
 *   `companies`, the keys and settings reference tables, nothing else but the Migrator's own
 *   bookkeeping left on the coordinator.
 * - Every request goes to its company's worker alone, and every write commits there in one phase:
 *   judged by what Citus itself sends (./routed-statements.ts).
 * - The behaviour suite (./behaviour.ts) and two processes (./two-processes.ts) as on PGlite and
 *   PostgreSQL; processes on the coordinator and on a worker, and resets under writes
 *   (./citus-nodes.ts); after a worker is added, the rebalance that spreads the companies.
 *
 * Without Citus (scripts/citus.sh installs it) the suites skip with a message; in CI they must run.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../../sandbox/index.js";
import { COMPANY_TABLES } from "../../../sandbox/store/schema/database.js";
import { type CitusCluster, citusAvailable, startCitus } from "../../support/citus.js";
import { describeSandbox, NOW } from "./behaviour.js";
import { describeProcessesOnEveryNode, resetsUnderWrites } from "./citus-nodes.js";
import { describeRebalance } from "./citus-rebalance.js";
import { remoteCommandsOfEveryOperation, TWO_PHASE } from "./routed-statements.js";
import { describeTwoProcesses } from "./two-processes.js";

const available = citusAvailable("sandbox suites on Citus");
let cluster: CitusCluster;

/** The bound of the suites that send a burst of one company's creates at once. */
const BURST_BOUND_MS = 15_000;

/** The tables the keys are read from before the company is known: on every node. */
const REFERENCE_TABLES = ["api_keys", "sandbox_settings"];

if (!available) {
  describe("the sandbox on Citus", () => {
    it.skip("needs Citus (scripts/citus.sh installs it): see the message above", () => undefined);
  });
} else {
  beforeAll(async () => {
    cluster = await startCitus();
  }, 120_000);
  afterAll(() => cluster?.stop());

  describe("the sandbox's schema on Citus", () => {
    let sandbox: Sandbox;
    beforeAll(async () => {
      sandbox = await createSandbox({ database: cluster.url, schema: "routed", now: () => NOW });
    }, 60_000);
    afterAll(() => sandbox?.close());

    it("distributes every company table by company_id with companies, and keys and settings to every node", async () => {
      const tables = await cluster.query<{ name: string; method: string; column: string | null; group: number }>(
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
      const requests = await remoteCommandsOfEveryOperation(cluster.url, sandbox.schema);
      const workers = {
        5: `127.0.0.1:${await cluster.workerOf("routed", 5)}`,
        6: `127.0.0.1:${await cluster.workerOf("routed", 6)}`,
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

  // A burst of 100 creates of one company takes 25 turns of its 4 slots (the bulkhead), and a create
  // on three servers sharing the machine's cores took about 100 ms here: its last turns come after
  // the default bound of 3 s, and would be answered 503, as the bound means them to be.
  describeSandbox("Citus", () => createSandbox({ database: cluster.url, now: () => NOW, timeout: BURST_BOUND_MS }));

  describeTwoProcesses("a Citus cluster", () => cluster.url, { SANDBOX_TIMEOUT: String(BURST_BOUND_MS / 1000) });

  describeProcessesOnEveryNode(() => cluster);

  describe("a reset under writes", () => {
    it("empties the data and loads the seed again, 3 times of 3, while both companies write", async () => {
      const sandbox = await createSandbox({ database: cluster.url, schema: "resets", now: () => NOW });
      try {
        const figures = await resetsUnderWrites(sandbox, 3);
        process.stdout.write(`resets on Citus under writes: ${JSON.stringify(figures)}\n`);
        expect(figures.failed).toEqual([]);
        expect(figures.other).toEqual([]);
        expect(figures.answers[201] ?? 0).toBeGreaterThanOrEqual(10);
      } finally {
        await sandbox.close();
      }
    }, 120_000);
  });

  // last: it leaves the cluster with a third worker
  describeRebalance(() => cluster);
}
