/**
 * The sandbox on one PostgreSQL server shared by several processes, and the server going away,
 * on a throwaway cluster of the test's own (it is stopped and started here, so DATABASE_URL's
 * will not do). Skipped with a message where there are no PostgreSQL binaries; in CI it must run.
 *
 * - Two sandbox processes (sandbox/main.ts, as `npm start` runs it) start together on a new
 *   schema: it is migrated and seeded once. A write through one is read through the other,
 *   concurrent creates through both get distinct, consecutive ids and exact counts, concurrent
 *   edits of one event apply one after the other, and `kill -9` of one loses nothing it
 *   acknowledged.
 * - A connection killed under a request, and the server stopped, get 503 problems with
 *   `Retry-After` at once; the sandbox serves again when the server is back, without a restart.
 *   A request cancelled by its client mid-write leaves the whole write or none of it.
 */
import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../sandbox/index.js";
import { type PostgresServer, startPostgres, throwawayAvailable } from "../support/postgres.js";
import { type SandboxProcess, startSandboxProcess } from "./process.js";
import { type Answer, call, HARBOR, NOW } from "./support.js";

type Body = Record<string, unknown>;

const available = throwawayAvailable("the sandbox's tests of several processes and of PostgreSQL going away");
let server: PostgresServer;

const event = (extra: Body = {}): Body => ({
  name: "Spring gala",
  date: "2024-04-20",
  venue: { venue_id: "318" },
  ...extra,
});
const listOf = async (url: string): Promise<{ data: Body[]; total_count: number }> =>
  (await call(url, "listEvents")).body as { data: Body[]; total_count: number };

/** Runs `sql` on the server, as its own connection. */
async function admin<T extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** A raw answer (not checked against the contract: a 503 is the server's, not the operation's). */
async function raw(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; body: Body; ms: number }> {
  const started = performance.now();
  const response = await fetch(url, {
    ...init,
    headers: { "x-api-key": HARBOR, "content-type": "application/json", ...init.headers },
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === "" ? {} : (JSON.parse(text) as Body),
    ms: performance.now() - started,
  };
}

function expectUnavailable(answer: { status: number; headers: Headers; body: Body; ms: number }): void {
  expect(answer.status).toBe(503);
  expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json\b/);
  expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(answer.body).toMatchObject({
    type: "urn:problem-type:service-unavailable",
    status: 503,
    title: "Service Unavailable",
  });
  expect(JSON.stringify(answer.body)).not.toMatch(/\bat .*\.(ts|js):\d+/);
  // answered at once, not after a wait (the pool's connect timeout is 5 s)
  expect(answer.ms).toBeLessThan(4000);
}

if (!available) {
  describe("the sandbox at scale on PostgreSQL", () => {
    it.skip("needs PostgreSQL binaries: see the message above", () => undefined);
  });
} else {
  beforeAll(async () => {
    server = await startPostgres({ throwaway: true });
  }, 60_000);
  afterAll(() => server?.stop());

  describe("two sandbox processes on one PostgreSQL", () => {
    const processes: SandboxProcess[] = [];
    const env = (): Record<string, string> => ({ DATABASE_URL: server.url, SANDBOX_SCHEMA: "shared" });
    let one: SandboxProcess;
    let two: SandboxProcess;

    beforeAll(async () => {
      [one, two] = await Promise.all([startSandboxProcess(env()), startSandboxProcess(env())]);
      processes.push(one, two);
    }, 60_000);
    afterAll(async () => {
      for (const child of processes) await child.stop("SIGKILL");
    });

    it("starting together on a new schema, migrate it and seed it once", async () => {
      expect(await admin("select name from shared.kysely_migration order by name")).toEqual([
        { name: "0001_companies_and_records" },
        { name: "0002_events_revision" },
        { name: "0003_ids_per_company" },
      ]);
      expect(await admin("select company_id from shared.companies order by company_id")).toEqual([
        { company_id: "5" },
        { company_id: "6" },
      ]);
    });

    it("read through one what was written through the other", async () => {
      const venue = await call(one.url, "createVenue", {
        json: { name: "Shared Hall", address: "2 Road", city: "Town", zip: "AB1" },
      });
      const venueId = (venue.body as { venue_id: number }).venue_id;
      const created = await call(two.url, "createEvent", {
        json: event({ name: "Across", venue: { venue_id: String(venueId) } }),
      });
      expect(created.status).toBe(201);
      const listed = (await listOf(one.url)).data.find((item) => item.id === created.body);
      expect(listed).toMatchObject({ name: "Across", location: { id: venueId, name: "Shared Hall" } });
      await call(one.url, "updateEvent", {
        path: { id: created.body as number },
        json: event({ name: "Edited", venue: {} }),
      });
      expect((await listOf(two.url)).data.find((item) => item.id === created.body)?.name).toBe("Edited");
    });

    it("give concurrent creates through both distinct ids and an exact count", async () => {
      const before = (await listOf(one.url)).total_count;
      const answers = await Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          call(i % 2 === 0 ? one.url : two.url, "createEvent", { json: event({ name: `Both ${i}` }) }),
        ),
      );
      const ids = answers.map((answer) => answer.body as number);
      expect(answers.every((answer) => answer.status === 201)).toBe(true);
      expect(new Set(ids).size).toBe(80);
      // consecutive, too: the company's counter gives them out in turn, whichever process asks
      const sorted = [...ids].sort((a, b) => a - b);
      expect(sorted).toEqual(Array.from({ length: 80 }, (_, i) => (sorted[0] ?? 0) + i));
      const [viaOne, viaTwo] = await Promise.all([listOf(one.url), listOf(two.url)]);
      expect(viaOne.total_count).toBe(before + 80);
      expect(viaTwo).toEqual(viaOne);
      expect(ids.every((id) => viaOne.data.some((item) => item.id === id))).toBe(true);
    });

    it("apply concurrent edits of one event one after the other: the later edit wins each field both send, none is lost", async () => {
      for (let round = 0; round < 5; round++) {
        const id = (await call(one.url, "createEvent", { json: event({ name: `Edited twice ${round}` }) }))
          .body as number;
        const [first, second] = await Promise.all([
          call(one.url, "updateEvent", {
            path: { id },
            json: event({ name: "From one", event_id: `ONE${round}`, venue: {} }),
          }),
          call(two.url, "updateEvent", {
            path: { id },
            json: event({ name: "From two", client_id: "HARBOR42", venue: {} }),
          }),
        ]);
        expect([first.status, second.status]).toEqual([200, 200]);
        const answers = [first.body, second.body] as Body[];
        // the edit applied second saw the first: its answer has both edits, and it is what is stored
        const later = answers.filter((answer) => answer.event_id === `ONE${round}` && answer.client_id === "HARBOR42");
        expect(later).toHaveLength(1);
        const stored = (await listOf(two.url)).data.find((item) => item.id === id);
        expect(stored).toEqual(later[0]);
      }
    });

    it("lose nothing one of them acknowledged when it is killed (kill -9) during writes through both", async () => {
      const acknowledged: { id: number; name: string }[] = [];
      let stop = false;
      const writer = async (url: string, tag: string): Promise<void> => {
        for (let i = 0; !stop; i++) {
          const name = `${tag} ${i}`;
          try {
            const response = await fetch(`${url}/events`, {
              method: "POST",
              headers: { "x-api-key": HARBOR, "content-type": "application/json" },
              body: JSON.stringify(event({ name })),
            });
            if (response.status === 201) acknowledged.push({ id: Number(await response.text()), name });
          } catch {
            return; // its process is gone
          }
        }
      };
      const victim = await startSandboxProcess(env());
      processes.push(victim);
      const writers = [writer(victim.url, "victim"), writer(victim.url, "victim'"), writer(two.url, "survivor")];
      while (acknowledged.filter((write) => write.name.startsWith("victim")).length < 20) await delay(5);
      victim.child.kill("SIGKILL");
      await victim.stop();
      await delay(100);
      stop = true;
      await Promise.all(writers);
      const stored = new Map((await listOf(two.url)).data.map((item) => [item.id, item.name]));
      const lost = acknowledged.filter((write) => stored.get(write.id) !== write.name);
      expect(lost).toEqual([]);
      expect(acknowledged.length).toBeGreaterThanOrEqual(20);
      // the survivor serves on, and a new process takes the dead one's place
      const again = await startSandboxProcess(env());
      processes.push(again);
      expect((await listOf(again.url)).total_count).toBe(stored.size);
    });
  });

  describe("PostgreSQL going away under an in-process sandbox", () => {
    let sandbox: Sandbox;

    beforeAll(async () => {
      sandbox = await createSandbox({ database: server.url, now: () => NOW });
    }, 30_000);
    afterAll(() => sandbox?.close());

    it("answers 503 with Retry-After to a request whose connection is killed under it, keeps nothing of it, and serves the next", async () => {
      const id = (await call(sandbox.url, "createEvent", { json: event({ name: "Locked" }) })).body as number;
      const holder = new pg.Client({ connectionString: server.url });
      await holder.connect();
      try {
        // another transaction holds the event's row, so the edit waits on it, mid-transaction
        await holder.query("begin");
        await holder.query(`select id from "${sandbox.schema}".events where id = $1 for update`, [id]);
        const edit = raw(`${sandbox.url}/events/${id}`, {
          method: "PATCH",
          body: JSON.stringify(event({ name: "Never kept", venue: {} })),
        });
        let waiting: { pid: number }[] = [];
        for (let i = 0; i < 200 && waiting.length === 0; i++) {
          await delay(20);
          waiting = await admin<{ pid: number }>(
            "select pid from pg_stat_activity where wait_event_type = 'Lock' and pid <> $1",
            [(holder as unknown as { processID: number }).processID],
          );
        }
        expect(waiting).toHaveLength(1);
        await admin("select pg_terminate_backend($1)", [waiting[0]?.pid]);
        expectUnavailable(await edit);
        await holder.query("rollback");
      } finally {
        await holder.end();
      }
      const stored = (await listOf(sandbox.url)).data.find((item) => item.id === id);
      expect(stored?.name).toBe("Locked");
      expect(
        (await call(sandbox.url, "updateEvent", { path: { id }, json: event({ name: "Kept", venue: {} }) })).status,
      ).toBe(200);
    });

    it("answers 503 with Retry-After while PostgreSQL is stopped, and serves again when it is back, without a restart", async () => {
      const before = await listOf(sandbox.url);
      await server.outage?.halt();
      try {
        for (const attempt of [
          raw(`${sandbox.url}/events`),
          raw(`${sandbox.url}/events`, { method: "POST", body: JSON.stringify(event({ name: "While away" })) }),
          raw(`${sandbox.url}/events/1`, {
            method: "PATCH",
            body: JSON.stringify(event({ name: "While away", venue: {} })),
          }),
          raw(`${sandbox.url}/wage-rules`),
        ]) {
          expectUnavailable(await attempt);
        }
        // bad input is still refused for what it is, with no database needed
        expect((await raw(`${sandbox.url}/events`, { method: "POST", body: "{" })).status).toBe(400);
      } finally {
        await server.outage?.resume();
      }
      let answer: Answer | undefined;
      for (let i = 0; i < 50 && answer?.status !== 200; i++) {
        const attempt = await raw(`${sandbox.url}/events`);
        if (attempt.status === 200) answer = await call(sandbox.url, "listEvents");
        else await delay(100);
      }
      expect(answer?.body).toEqual(before);
      expect((await call(sandbox.url, "createEvent", { json: event({ name: "After" }) })).status).toBe(201);
    }, 30_000);

    it("leaves the whole write or none of it when the client cancels mid-request", async () => {
      const before = (await listOf(sandbox.url)).total_count;
      const sent = Array.from({ length: 40 }, (_, i) =>
        event({
          name: `Cancelled ${i}`,
          client_id: "HARBOR42",
          custom_fields_text: [{ key: "Round", value: String(i) }],
          venue: { name: `Tent ${i}`, city: "Leeds", saved: "1" },
        }),
      );
      const outcomes = await Promise.all(
        sent.map(async (body, i) => {
          const controller = new AbortController();
          setTimeout(() => controller.abort(), i % 8);
          try {
            const response = await fetch(`${sandbox.url}/events`, {
              method: "POST",
              signal: controller.signal,
              headers: { "x-api-key": HARBOR, "content-type": "application/json" },
              body: JSON.stringify(body),
            });
            return response.status === 201 ? "acknowledged" : "refused";
          } catch {
            return "cancelled";
          }
        }),
      );
      // a request its client gave up on may still be written after the client has moved on: the
      // list is read once no write has landed for 300 ms (bounded), and checked as one read
      let list = await listOf(sandbox.url);
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
        await delay(300);
        const again = await listOf(sandbox.url);
        if (again.total_count === list.total_count) break;
        list = again;
      }
      const created = list.data.filter((item) => String(item.name).startsWith("Cancelled "));
      const acknowledged = outcomes.filter((outcome) => outcome === "acknowledged").length;
      expect(outcomes).not.toContain("refused");
      expect(created.length).toBeGreaterThanOrEqual(acknowledged);
      expect(list.total_count).toBe(before + created.length);
      for (const item of created) {
        const i = Number(String(item.name).slice("Cancelled ".length));
        expect(item).toMatchObject({
          client_id: "HARBOR42",
          location: { name: `Tent ${i}`, city: "Leeds", saved: true },
          custom_fields: [{ name: "Round", value: String(i) }],
        });
      }
    });
  });
}
