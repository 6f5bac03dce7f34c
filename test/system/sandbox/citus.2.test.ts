/**
 * The sandbox on a Citus cluster of this file's own (a database of its own on the run's nodes,
 * ./citus-cluster.ts), beyond one sandbox in the test's process: two processes starting together
 * (./two-processes.ts), as on PGlite and PostgreSQL; processes on the coordinator and on a
 * worker, and resets under writes (./citus-nodes.ts); after a worker is added, the rebalance that
 * spreads the companies (./citus-rebalance.ts). The schema, the routing and the behaviour suite are ./citus.1.test.ts's.
 */
import { describe, expect, it } from "vitest";
import { createSandbox } from "../../../sandbox/index.js";
import { NOW } from "./behaviour.js";
import { BURST_BOUND_MS, onCitusCluster } from "./citus-cluster.js";
import { describeProcessesOnEveryNode, resetsUnderWrites } from "./citus-nodes.js";
import { describeRebalance } from "./citus-rebalance.js";
import { describeTwoProcesses } from "./two-processes.js";

onCitusCluster("citus_2", (cluster) => {
  describeTwoProcesses("a Citus cluster", () => cluster().url, { SANDBOX_TIMEOUT: String(BURST_BOUND_MS / 1000) });

  describeProcessesOnEveryNode(cluster);

  describe("a reset under writes", () => {
    it("empties the data and loads the seed again, 3 times of 3, while both companies write", async () => {
      const sandbox = await createSandbox({ database: cluster().url, schema: "resets", now: () => NOW });
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
  describeRebalance(cluster);
});
