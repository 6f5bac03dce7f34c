/**
 * Two sandbox processes (sandbox/main.ts, as `npm start` runs it) on one database, shared by the
 * suites of each server the sandbox runs on at scale (./scale.test.ts on PostgreSQL,
 * ./citus.2.test.ts on a Citus cluster): starting together on a new schema, they migrate and seed it
 * once; a write through one is read through the other; concurrent creates through both get
 * distinct, consecutive ids and exact counts; concurrent edits of one event apply one after the
 * other; and `kill -9` of one loses nothing it acknowledged.
 */
import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LATEST_MIGRATION } from "../../../sandbox/store/schema/migrate.js";
import { call, HARBOR } from "../../support/sandbox-calls.js";
import { type SandboxProcess, startSandboxProcess } from "../../support/sandbox-process.js";

type Body = Record<string, unknown>;

/** An event to create: Harbor's, at its venue 318, with `extra` fields. */
export const event = (extra: Body = {}): Body => ({
  name: "Spring gala",
  date: "2024-04-20",
  venue: { venue_id: "318" },
  ...extra,
});
/** The event list of Harbor, through the sandbox at `url`. */
export const listOf = async (url: string): Promise<{ data: Body[]; total_count: number }> =>
  (await call(url, "listEvents")).body as { data: Body[]; total_count: number };

/** Describes the two processes' tests on the database at `databaseUrl()` (named `label`). */
export function describeTwoProcesses(
  label: string,
  databaseUrl: () => string,
  settings: Readonly<Record<string, string>> = {},
): void {
  /** Runs `sql` on the database, as its own connection. */
  async function admin<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    try {
      return (await client.query<T>(sql)).rows;
    } finally {
      await client.end();
    }
  }

  describe(`two sandbox processes on ${label}`, () => {
    const processes: SandboxProcess[] = [];
    const env = (): Record<string, string> => ({ DATABASE_URL: databaseUrl(), SANDBOX_SCHEMA: "shared", ...settings });
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
      const applied = await admin<{ name: string }>("select name from shared.kysely_migration order by name");
      expect(applied.map((row) => row.name)).toEqual([
        "0001_companies_and_records",
        "0002_events_revision",
        "0003_ids_per_company",
        "0004_distribution_on_citus",
      ]);
      expect(applied.at(-1)?.name).toBe(LATEST_MIGRATION);
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
}
