/**
 * The sandbox's statements do not grow with its input. No SQL text depends on the length of a list
 * or on which optional fields a body sends: requests of every shape name a small, fixed set of
 * texts (sandbox/store/engine/prepared-statements.ts names a text run twice, and each named text costs
 * the engine memory for as long as the connection lives). In a sandbox process (as `npm start`
 * runs it), 1,000 distinct lengths of a payroll group's `locations` leave its memory within 50 MB
 * of where it started, and 100,000 locations are answered, never with a 5xx: a list is bounded by
 * the body's limit alone, whose 413 names it.
 */
import { readFileSync } from "node:fs";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../../sandbox/index.js";
import { parseLocation } from "../../../sandbox/store/engine/engine.js";
import { acquireEngine } from "../../../sandbox/store/engine/engines.js";
import { call, HARBOR, NOW, SUMMIT } from "../../support/sandbox-calls.js";
import { type SandboxProcess, startSandboxProcess } from "../../support/sandbox-process.js";

type Body = Record<string, unknown>;

/** The resident memory of process `pid`, in MB (VmRSS of /proc/<pid>/status). */
function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
  if (!Number.isFinite(kb)) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return kb / 1024;
}

/** `count` locations, all naming one of Harbor's seeded venues. */
function locations(count: number, venue = "12"): string[] {
  return Array.from({ length: count }, () => venue);
}

describe("statements of any input in a sandbox process", () => {
  let running: SandboxProcess | undefined;
  beforeAll(async () => {
    // V8's heap is held small (old space 128 MB, semi-spaces 8 MB), so what the memory shows is the
    // engine's, not garbage V8 has not collected yet: Node 24's V8 sizes its young generation by the
    // allocation rate and alone grew the process by ~40 MB over this loop, collected or not.
    running = await startSandboxProcess({
      DATABASE_URL: "memory",
      NODE_OPTIONS: "--max-old-space-size=128 --max-semi-space-size=8",
    });
  }, 60_000);
  afterAll(async () => {
    await running?.stop("SIGKILL");
  });

  it("keeps its memory within 50 MB over 1,000 distinct lengths of a payroll group's locations", async () => {
    const sandbox = running as SandboxProcess;
    const pid = sandbox.child.pid ?? 0;
    const create = async (count: number) =>
      (await call(sandbox.url, "createPayrollGroup", { json: { locations: locations(count) } })).status;
    const refusedOnce = async (count: number) =>
      (await call(sandbox.url, "createPayrollGroup", { json: { locations: [...locations(count - 1), "999999"] } }))
        .status;
    // warmed up: every statement of the operation named, the engine's caches filled
    for (let count = 1; count <= 20; count++) expect(await create(1000 + count)).toBe(200);
    for (let count = 1; count <= 20; count++) expect(await refusedOnce(1000 + count)).toBe(422);
    const before = residentMb(pid);
    const statuses = new Set<number>();
    // each length twice: a text run twice is named (and kept) by the statement cache. The last of the
    // locations names no venue, so each whole list is checked (the statement whose text once grew
    // with the list) and refused, naming that one, and nothing is stored: the memory shows what the
    // statements keep, not the groups (which an engine in memory would hold). Sent as plain
    // requests: the answers' contract is checked by the warm-up's calls above and the 422's below.
    const post = async (count: number): Promise<number> => {
      const response = await fetch(`${sandbox.url}/payroll-groups`, {
        method: "POST",
        headers: { "x-api-key": HARBOR, "content-type": "application/json" },
        body: JSON.stringify({ locations: [...locations(count - 1), "999999"] }),
      });
      await response.arrayBuffer();
      return response.status;
    };
    for (let count = 1; count <= 1000; count++) for (let time = 0; time < 2; time++) statuses.add(await post(count));
    const after = residentMb(pid);
    process.stdout.write(
      `1,000 lengths of locations, each twice: VmRSS ${before.toFixed(1)} MB before, ${after.toFixed(1)} MB after\n`,
    );
    expect(statuses).toEqual(new Set([422]));
    expect(after - before, `VmRSS ${before.toFixed(1)} MB before, ${after.toFixed(1)} MB after`).toBeLessThan(50);
  }, 180_000);
});

describe("lists as long as the body's limit allows, in a sandbox process as npm start runs it", () => {
  let running: SandboxProcess | undefined;
  beforeAll(async () => {
    // V8's heap as `npm start` sizes it (its young generation small, its old space V8's default):
    // a request of 100,000 locations holds as many strings at once, which the test above's 128 MB
    // old space is not sized for
    running = await startSandboxProcess({ DATABASE_URL: "memory", NODE_OPTIONS: "--max-semi-space-size=1" });
  }, 60_000);
  afterAll(async () => {
    await running?.stop("SIGKILL");
  });

  it("answers 100,000 locations with a 2xx, 100,000 unknown ones with a 422, a longer list with a 413", async () => {
    const sandbox = running as SandboxProcess;
    const stored = await call(sandbox.url, "createPayrollGroup", { json: { locations: locations(100_000) } });
    expect(stored.status).toBe(200);
    expect((stored.body as { locations: string[] }).locations).toHaveLength(100_000);
    const refused = await call(sandbox.url, "createPayrollGroup", {
      json: { locations: locations(100_000, "999999") },
    });
    expect(refused.status).toBe(422);
    expect((refused.body as { detail: string }).detail).toBe(
      "body/locations/0 names no venue of this company (and 99999 more)",
    );
    // a list is bounded by the body's limit (1 MiB of JSON), which the 413 names
    const tooLong = await call(sandbox.url, "createPayrollGroup", { json: { locations: locations(300_000) } });
    expect([tooLong.status, (tooLong.body as { detail: string }).detail]).toEqual([
      413,
      "The request body is larger than 1048576 bytes.",
    ]);
  }, 120_000);
});

describe("statements named in-process, whatever the requests send", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createSandbox({ now: () => NOW });
  }, 60_000);
  afterAll(() => sandbox?.close());

  /** The statements the engine's one session (PGlite's) holds named. */
  async function namedCount(): Promise<number> {
    const { engine, release } = await acquireEngine(parseLocation(sandbox.database));
    try {
      const { rows } = await sql<{ count: number }>`select count(*)::int as count from pg_prepared_statements`.execute(
        engine.db,
      );
      return rows[0]?.count ?? 0;
    } finally {
      await release();
    }
  }

  /**
   * Requests of every operation, each twice (a text is named the second time it runs), of shapes
   * that differ with `round`: lists of other lengths, other optional fields sent, references made
   * or not.
   */
  async function tour(round: number): Promise<void> {
    const api = async (operation: Parameters<typeof call>[1], options: Parameters<typeof call>[2]) => {
      for (let time = 0; time < 2; time++) {
        const answer = await call(sandbox.url, operation, options);
        expect(answer.status, `${operation} ${JSON.stringify(answer.body).slice(0, 200)}`).toBeLessThan(500);
      }
    };
    const optional = ["job_id", "admin_comments", "comments", "event_id"] as const;
    for (let shape = 0; shape < 8; shape++) {
      const count = round * 8 + shape + 1;
      await api("createPayrollGroup", { json: { locations: locations(count), group_rows: locations(count, "r") } });
      await api("createPayrollGroup", { key: SUMMIT, json: { locations: locations(count, "77") } });
      const fields: Body = {};
      optional.forEach((field, bit) => {
        if (((shape + round) >> bit) & 1) fields[field] = `V${shape}`;
      });
      const venue = [{ venue_id: "318" }, { name: "Park", zip: "P1" }, {}][(shape + round) % 3];
      const client = shape % 2 === round % 2 ? { client_id: "HARBOR42" } : {};
      const { event_id: _eventId, ...createFields } = fields;
      await api("createEvent", { json: { name: "E", date: "2024-04-20", venue, ...client, ...createFields } });
      const lists = shape % 3 === round % 3 ? { custom_fields_text: [{ key: "k", value: "v" }] } : {};
      await api("updateEvent", {
        path: { id: "1" },
        json: { name: "E", date: "2024-04-20", venue, ...client, ...fields, ...lists },
      });
      const clientFields: Body = { client_name: "Harbor" };
      for (const [bit, field] of ["client_city", "client_state", "client_address", "client_postal_code"].entries())
        if (((shape + 3 * round) >> bit) & 1) clientFields[field] = `C${shape}`;
      await api("updateClient", { path: { id: "HARBOR42" }, json: clientFields });
      const credential: Body = { credentials_id: "3", ...(shape % 2 === 0 ? { locations_id: "12" } : {}) };
      if ((shape + round) % 3 === 0) credential.clients_id = "HARBOR42";
      if (shape % 4 === round % 4) credential.file = "scan";
      await api("addWorkerCredential", { path: { id: 1042 }, json: credential });
    }
    await api("createVenue", { json: { name: "V", address: "A", city: "C", zip: "Z", saved: round % 2 } });
    await api("listEvents", {});
    await api("listWageRules", {});
  }

  it("names a small, fixed set of texts: requests of other shapes name none more", async () => {
    const before = await namedCount();
    // two tours run every text twice (a list kept is answered without reading the events again)
    await tour(0);
    await tour(1);
    const named = await namedCount();
    await tour(2);
    await tour(3);
    expect(await namedCount()).toBe(named);
    expect(named - before).toBeLessThanOrEqual(30);
  }, 60_000);
});
