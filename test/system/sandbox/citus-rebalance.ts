/**
 * A worker added to the cluster, and the rebalance docs/sandbox.md gives for it (./citus.2.test.ts
 * runs it last on its cluster, which it leaves with three workers): twelve companies, each with
 * events of its own, on two workers; a third is added and the shard groups rebalanced by their
 * count. The companies must then be on every worker, each with all its events, and served.
 *
 * Citus's default strategy (`by_disk_size`) gives every shard group a base cost of 100 MB beside
 * its size, and moves the costliest first from the fullest node: the groups holding data, every
 * one of them when the data is small. Its plan for the same cluster is printed beside the
 * rebalance done, for the figures.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../../sandbox/index.js";
import type { Seed, SeedCompany } from "../../../sandbox/seed/seed.js";
import type { CitusCluster, CitusNode } from "../../support/citus.js";
import { call } from "../../support/sandbox-calls.js";
import { NOW } from "./behaviour.js";

/** The schema of the companies spread. */
const SCHEMA = "spread";

/** The companies' ids. */
const COMPANIES = Array.from({ length: 12 }, (_, i) => 101 + i);

/**
 * The rebalance docs/sandbox.md gives (`citus_rebalance_start(rebalance_strategy :=
 * 'by_shard_count')`), run here in the foreground, its shards copied while writes wait (a copy by
 * logical replication, which lets writes go on, takes seconds more for each shard group).
 */
const REBALANCE =
  "select rebalance_table_shards(rebalance_strategy := 'by_shard_count', shard_transfer_mode := 'block_writes')";

/** A company of the seed: one key, its holder. */
function company(id: number): SeedCompany {
  return {
    company_id: id,
    name: `Company ${id}`,
    api_keys: [{ key: keyOf(id), personnel_id: 1 }],
    personnel: [{ personnel_id: 1, name: `Holder ${id}` }],
  };
}

const keyOf = (id: number): string => `spread-key-${id}`;

/** Describes the rebalance after a worker is added to the cluster `cluster()`. */
export function describeRebalance(cluster: () => CitusCluster<CitusNode>): void {
  describe("a worker added, and the documented rebalance", () => {
    let sandbox: Sandbox;
    beforeAll(async () => {
      const seed: Seed = { companies: COMPANIES.map(company) };
      sandbox = await createSandbox({ database: cluster().url, schema: SCHEMA, seed, now: () => NOW });
    }, 60_000);
    afterAll(() => sandbox?.close());

    /** The port of each company's worker. */
    const placement = async (): Promise<Map<number, number>> =>
      new Map(await Promise.all(COMPANIES.map(async (id) => [id, await cluster().workerOf(SCHEMA, id)] as const)));

    it("leaves companies on every worker, each with all its events, served", async () => {
      for (const id of COMPANIES)
        for (let n = 0; n < 3; n++) {
          const created = await call(sandbox.url, "createEvent", {
            key: keyOf(id),
            json: { name: `Event ${n}`, date: "2024-04-20", venue: { name: "Tent", city: "Leeds" } },
          });
          expect(created.status).toBe(201);
        }
      const before = await placement();
      const added = await cluster().addWorker();
      const planned = await cluster().query<{ shardid: string }>(
        `select shardid from get_rebalance_table_shards_plan(rebalance_strategy := 'by_disk_size')
         where table_name = $1::regclass`,
        [`${SCHEMA}.companies`],
      );
      const movedByDefault = await companiesIn(
        cluster(),
        planned.map((row) => row.shardid),
      );
      const started = Date.now();
      await cluster().query(REBALANCE);
      const rebalanceMs = Date.now() - started;
      const after = await placement();
      const perWorker = cluster().workers.map(
        (worker) => [...after.values()].filter((port) => port === worker.port).length,
      );
      process.stdout.write(
        `rebalance onto a third worker: ${rebalanceMs} ms; companies per worker before ${JSON.stringify(
          cluster().workers.map((worker) => [...before.values()].filter((port) => port === worker.port).length),
        )}, after ${JSON.stringify(perWorker)}; the default strategy would move ${planned.length} shard groups holding ${movedByDefault} of the ${COMPANIES.length} companies to it\n`,
      );
      expect([...after.values()].filter((port) => port === added.port).length).toBeGreaterThanOrEqual(1);
      expect(perWorker.every((count) => count >= 1)).toBe(true);
      for (const id of COMPANIES) {
        const listed = await call(sandbox.url, "listEvents", { key: keyOf(id) });
        expect(listed.status).toBe(200);
        expect((listed.body as { total_count: number }).total_count).toBe(3);
      }
    }, 180_000);
  });
}

/** How many of the companies have their shards among `shards` (ids of the companies table's shards). */
async function companiesIn(cluster: CitusCluster<CitusNode>, shards: readonly string[]): Promise<number> {
  const [row] = await cluster.query<{ count: number }>(
    `select count(*)::int as count from unnest($3::bigint[]) as company
     where get_shard_id_for_distribution_column($2, company) = any ($1::bigint[])`,
    [shards, `${SCHEMA}.companies`, COMPANIES],
  );
  return row?.count ?? 0;
}
