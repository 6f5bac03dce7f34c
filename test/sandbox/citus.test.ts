/**
 * The sandbox on a distributed PostgreSQL: a throwaway Citus cluster (a coordinator and two workers
 * on loopback, ../support/citus.ts), started once and shared by every suite here, with
 * DATABASE_URL naming the coordinator as it would in a deployment.
 *
 * - The schema: every company table distributed by company_id in the co-location group of
 *   `companies`, the keys and settings reference tables, nothing else but the Migrator's own
 *   bookkeeping left on the coordinator.
 * - Every statement of every operation is one task on one node (./routed-statements.ts).
 * - The behaviour suite (./behaviour.ts), two processes (./two-processes.ts) and the kill test
 *   (./kill-rounds.ts, 2 rounds) as on PGlite and PostgreSQL.
 * - Faults: a company's shards moved to the other worker while its writes go on, and a worker
 *   stopped and started again: a company whose shards are away gets 503 with Retry-After, the
 *   other company is served, everything recovers without a restart, and no acknowledged write is
 *   lost.
 *
 * Without Citus (scripts/citus.sh installs it) the suites skip with a message; in CI they must run.
 */
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../sandbox/index.js";
import { COMPANY_TABLES } from "../../sandbox/store/database.js";
import { type CitusCluster, citusAvailable, startCitus } from "../support/citus.js";
import { describeSandbox, NOW } from "./behaviour.js";
import { runKillRounds } from "./kill-rounds.js";
import { remoteCommandsOfEveryOperation, TWO_PHASE } from "./routed-statements.js";
import { call, HARBOR, SUMMIT } from "./support.js";
import { describeTwoProcesses } from "./two-processes.js";

type Body = Record<string, unknown>;

const available = citusAvailable("sandbox suites on Citus");
let cluster: CitusCluster;

/** The tables the keys are read from before the company is known: on every node. */
const REFERENCE_TABLES = ["api_keys", "sandbox_settings"];

/** An event to create, at a venue of the company (Harbor's 318 by default; Summit's is 1). */
const event = (name: string, venue = "318"): Body => ({ name, date: "2024-04-20", venue: { venue_id: venue } });

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

  describeSandbox("Citus", () => createSandbox({ database: cluster.url, now: () => NOW }));

  describeTwoProcesses("a Citus cluster", () => cluster.url);

  describe("kill -9 of a sandbox process on a Citus cluster", () => {
    it("loses no acknowledged write over 2 rounds of kill -9 during concurrent writes", async () => {
      const figures = await runKillRounds(2, { DATABASE_URL: cluster.url, SANDBOX_SCHEMA: "killed" });
      process.stdout.write(`kill test on Citus: ${JSON.stringify(figures)}\n`);
      expect(figures.lost).toEqual([]);
      expect(figures.opens).toBe(3);
      expect(figures.acknowledgedCreates).toBeGreaterThanOrEqual(30);
      expect(figures.found).toBe(figures.acknowledgedCreates);
    }, 120_000);
  });

  describe("faults of a Citus cluster under an in-process sandbox", () => {
    let sandbox: Sandbox;
    beforeAll(async () => {
      sandbox = await createSandbox({ database: cluster.url, schema: "faults", now: () => NOW });
    }, 60_000);
    afterAll(() => sandbox?.close());

    /** The port of the worker holding `company`'s shards. */
    const workerOf = (company: number): Promise<number> => cluster.workerOf("faults", company);
    const listOf = async (key: string): Promise<Body[]> =>
      ((await call(sandbox.url, "listEvents", { key })).body as { data: Body[] }).data;

    it("moves a company's shards to the other worker while its writes go on: nothing acknowledged lost, a refusal is a 503 whose retry succeeds", async () => {
      const [harbor, summit] = [await workerOf(5), await workerOf(6)];
      const [one, two] = cluster.workers.map((worker) => worker.port) as [number, number];
      // Harbor's shards go to the worker Summit's are not on (or the other worker when apart)
      const target = harbor === summit ? (harbor === one ? two : one) : harbor === one ? two : one;
      const writes = writer(sandbox.url, HARBOR, "Moving");
      await delay(300);
      const [shard] = await cluster.query<{ id: string }>(
        "select get_shard_id_for_distribution_column('faults.companies', 5) as id",
      );
      const started = Date.now();
      await cluster.query("select citus_move_shard_placement($1, '127.0.0.1', $2, '127.0.0.1', $3)", [
        shard?.id,
        harbor,
        target,
      ]);
      const moveMs = Date.now() - started;
      await delay(300);
      const figures = await writes.stop();
      process.stdout.write(
        `shard move: ${moveMs} ms; ${figures.acknowledged.length} writes acknowledged, ${figures.refused.length} refused with 503 and retried\n`,
      );
      expect(await workerOf(5)).toBe(target);
      expect(figures.other).toEqual([]);
      expect(figures.acknowledged.length).toBeGreaterThanOrEqual(5);
      const stored = new Map((await listOf(HARBOR)).map((item) => [item.id, item.name]));
      expect(figures.acknowledged.filter((write) => stored.get(write.id) !== write.name)).toEqual([]);
    }, 120_000);

    it("answers 503 with Retry-After for the company on a stopped worker, serves the other, and recovers when it is back", async () => {
      const harborWorker = await workerOf(5);
      const summitWorker = await workerOf(6);
      expect(harborWorker).not.toBe(summitWorker);
      const stopped = cluster.workers.find((worker) => worker.port === summitWorker);
      const before = await listOf(SUMMIT);
      const created = await call(sandbox.url, "createEvent", { key: SUMMIT, json: event("Before the stop", "1") });
      expect(created.status).toBe(201);
      await stopped?.outage.halt();
      try {
        for (const request of [
          fetch(`${sandbox.url}/events`, { headers: { "x-api-key": SUMMIT } }),
          fetch(`${sandbox.url}/events`, {
            method: "POST",
            headers: { "x-api-key": SUMMIT, "content-type": "application/json" },
            body: JSON.stringify(event("While away", "1")),
          }),
        ]) {
          const answer = await request;
          expect(answer.status).toBe(503);
          expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
          expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json\b/);
          await answer.arrayBuffer();
        }
        // the other worker's company is served, reads and writes
        expect((await call(sandbox.url, "createEvent", { json: event("Served") })).status).toBe(201);
        expect((await listOf(HARBOR)).some((item) => item.name === "Served")).toBe(true);
      } finally {
        await stopped?.outage.resume();
      }
      let after: Body[] | undefined;
      for (let i = 0; i < 50 && after === undefined; i++) {
        const attempt = await fetch(`${sandbox.url}/events`, { headers: { "x-api-key": SUMMIT } });
        await attempt.arrayBuffer();
        if (attempt.status === 200) after = await listOf(SUMMIT);
        else await delay(100);
      }
      // everything acknowledged before the stop is there, nothing written while it was away
      expect(after?.length).toBe(before.length + 1);
      expect(after?.some((item) => item.id === created.body && item.name === "Before the stop")).toBe(true);
      expect((await call(sandbox.url, "createEvent", { key: SUMMIT, json: event("After", "1") })).status).toBe(201);
    }, 60_000);
  });
}

/** What a writer saw: writes acknowledged (id and name), 503s (each retried), anything else. */
interface Written {
  readonly acknowledged: { id: unknown; name: string }[];
  readonly refused: string[];
  readonly other: string[];
}

/**
 * Creates events for `key`'s company, one after another, until stopped; a 503 (which must carry
 * Retry-After) is retried after a moment, as a client would, until it is acknowledged.
 */
function writer(url: string, key: string, tag: string): { stop(): Promise<Written> } {
  const written: Written = { acknowledged: [], refused: [], other: [] };
  let stopping = false;
  const run = async (): Promise<void> => {
    for (let i = 0; !stopping; i++) {
      const name = `${tag} ${i}`;
      for (let attempt = 0; attempt < 20; attempt++) {
        const response = await fetch(`${url}/events`, {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/json" },
          body: JSON.stringify(event(name)),
        });
        const text = await response.text();
        if (response.status === 201) {
          written.acknowledged.push({ id: Number(text), name });
          break;
        }
        if (response.status === 503 && Number(response.headers.get("retry-after")) >= 1) {
          written.refused.push(name);
          await delay(100);
          continue;
        }
        written.other.push(`${response.status} ${text.slice(0, 300)}`);
        break;
      }
    }
  };
  const running = run();
  return {
    stop: async () => {
      stopping = true;
      await running;
      return written;
    },
  };
}
