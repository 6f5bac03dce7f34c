/**
 * The sandbox on a Citus cluster beyond one process on the coordinator (./citus.2.test.ts runs these
 * on its cluster):
 *
 * - Processes on any node: a sandbox process connected to a worker (Citus's metadata is on every
 *   node) started beside one on the coordinator, on a new schema. The coordinator's process
 *   migrates and seeds it, once, where the Migrator's bookkeeping is; the worker's waits for it,
 *   migrates nothing and leaves no bookkeeping on its worker. Both serve every operation and read
 *   what the other wrote, and a request through the worker goes to its company's worker alone
 *   (none when it is that worker), with no two-phase commit.
 * - A reset while both companies write: each reset succeeds, and each write is answered 2xx, 404
 *   (an edit of an event a reset removed) or 503, never anything else.
 */
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../../sandbox/index.js";
import { type CitusCluster, type CitusNode, queryOn } from "../../support/citus.js";
import { call, HARBOR, SUMMIT } from "../../support/sandbox-calls.js";
import { type SandboxProcess, startSandboxProcess } from "../../support/sandbox-process.js";
import { everyOperation, remoteCommandsOfEveryOperation, TWO_PHASE } from "./routed-statements.js";

/** The schema the processes on every node share. */
const SCHEMA = "nodes";

/** Describes the tests of processes on the coordinator and on a worker of the cluster `cluster()`. */
export function describeProcessesOnEveryNode(cluster: () => CitusCluster<CitusNode>): void {
  describe("sandbox processes on the coordinator and on a worker", () => {
    let onCoordinator: SandboxProcess;
    let onWorker: SandboxProcess;
    let workerUrl: string;

    beforeAll(async () => {
      workerUrl = cluster().workers[0]?.url ?? "";
      // the worker's first: it waits for the coordinator's to have migrated and seeded the schema
      const worker = startSandboxProcess({ DATABASE_URL: workerUrl, SANDBOX_SCHEMA: SCHEMA });
      await delay(500);
      onCoordinator = await startSandboxProcess({ DATABASE_URL: cluster().url, SANDBOX_SCHEMA: SCHEMA });
      onWorker = await worker;
    }, 120_000);
    afterAll(async () => {
      await onWorker?.stop();
      await onCoordinator?.stop();
    });

    it("migrate the schema once, on the coordinator, where the Migrator's bookkeeping is, and seed it once", async () => {
      const bookkeeping = `select to_regclass('${SCHEMA}.kysely_migration')::text as found`;
      expect(await cluster().query(bookkeeping)).toEqual([{ found: `${SCHEMA}.kysely_migration` }]);
      for (const worker of cluster().workers) expect(await queryOn(worker.url, bookkeeping)).toEqual([{ found: null }]);
      expect(await cluster().query(`select count(*)::int as companies from ${SCHEMA}.companies`)).toEqual([
        { companies: 2 },
      ]);
    });

    it("each serve every operation, and read through one what was written through the other", async () => {
      await everyOperation(onWorker.url);
      await everyOperation(onCoordinator.url);
      const created = await call(onWorker.url, "createEvent", {
        key: SUMMIT,
        json: { name: "Through a worker", date: "2024-04-20", venue: { venue_id: "1" } },
      });
      expect(created.status).toBe(201);
      const listed = (await call(onCoordinator.url, "listEvents", { key: SUMMIT })).body as { data: { id: number }[] };
      expect(listed.data.some((item) => item.id === created.body)).toBe(true);
    });

    it("send each request through a worker to its company's worker alone, with no two-phase commit", async () => {
      const holder = { 5: await cluster().workerOf(SCHEMA, 5), 6: await cluster().workerOf(SCHEMA, 6) };
      for (const worker of cluster().workers) {
        const requests = await remoteCommandsOfEveryOperation(worker.url, SCHEMA);
        process.stdout.write(
          `Citus, remote commands per request through the worker on port ${worker.port}: ${requests.map((request) => `${request.request} ${request.commands.length}`).join(", ")}\n`,
        );
        for (const { request, company, commands } of requests) {
          const home = holder[company as 5 | 6];
          // a company's own worker runs its statements itself
          const expected = home === worker.port || commands.length === 0 ? [] : [`127.0.0.1:${home}`];
          expect([...new Set(commands.map((command) => command.node))], request).toEqual(expected);
          expect(
            commands.filter((command) => TWO_PHASE.test(command.command)),
            request,
          ).toEqual([]);
        }
      }
    }, 60_000);
  });
}

/** What writes during resets were answered, and which resets failed. */
export interface ResetFigures {
  readonly resets: number;
  /** each reset's time, in milliseconds */
  readonly resetMs: number[];
  readonly failed: string[];
  /** the writes' answers, by status */
  readonly answers: Record<number, number>;
  /** answers other than 200, 201, 404 (an edit of an event a reset removed) and 503, one line each */
  readonly other: string[];
}

/** Resets `sandbox` `resets` times, 500 ms apart, while two writers of each company create and edit events. */
export async function resetsUnderWrites(sandbox: Sandbox, resets: number): Promise<ResetFigures> {
  const answers: Record<number, number> = {};
  const other: string[] = [];
  let stopping = false;
  const writer = async (key: string, venue: string): Promise<void> => {
    let last = 0;
    for (let n = 0; !stopping; n++) {
      const editing = n % 2 === 1 && last > 0;
      const response = await fetch(`${sandbox.url}/events${editing ? `/${last}` : ""}`, {
        method: editing ? "PATCH" : "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({ name: `Written ${n}`, date: "2024-04-20", venue: editing ? {} : { venue_id: venue } }),
      });
      const text = await response.text();
      answers[response.status] = (answers[response.status] ?? 0) + 1;
      if (response.status === 201) last = Number(text);
      if (![200, 201, 404, 503].includes(response.status)) other.push(`${response.status} ${text.slice(0, 200)}`);
    }
  };
  const writers = [writer(HARBOR, "318"), writer(HARBOR, "318"), writer(SUMMIT, "1"), writer(SUMMIT, "1")];
  const failed: string[] = [];
  const resetMs: number[] = [];
  try {
    for (let i = 0; i < resets; i++) {
      await delay(500);
      const started = Date.now();
      await sandbox
        .reset()
        .catch((error: unknown) => failed.push(error instanceof Error ? error.message : String(error)));
      resetMs.push(Date.now() - started);
    }
  } finally {
    stopping = true;
    await Promise.all(writers);
  }
  return { resets, resetMs, failed, answers, other };
}
