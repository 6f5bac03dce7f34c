/**
 * The sandbox on one PostgreSQL server shared by several processes, and the server going away,
 * on a throwaway cluster of the test's own (it is stopped and started here, so DATABASE_URL's
 * will not do). Skipped with a message where there are no PostgreSQL binaries; in CI it must run.
 *
 * - Two sandbox processes (sandbox/main.ts, as `npm start` runs it; ./two-processes.ts, which the
 *   Citus suite runs too) start together on a new schema: it is migrated and seeded once. A write through one is read through the other,
 *   concurrent creates through both get distinct, consecutive ids and exact counts, concurrent
 *   edits of one event apply one after the other, and `kill -9` of one loses nothing it
 *   acknowledged.
 * - A connection killed under a request, and the server stopped, get 503 problems with
 *   `Retry-After` at once; the sandbox serves again when the server is back, without a restart.
 *   A row another transaction holds past the sandbox's bound gets a 503 within the bound, and
 *   nothing of the request is kept.
 *   A request cancelled by its client mid-write leaves the whole write or none of it.
 */
import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../../sandbox/index.js";
import { preparingPool } from "../../../sandbox/store/engine/prepared-statements.js";
import { type PostgresServer, startPostgres, throwawayAvailable } from "../../support/postgres.js";
import { type Answer, call, HARBOR, NOW } from "../../support/sandbox-calls.js";
import { postgresTemplate } from "../../support/shared-postgres.js";
import { describeTwoProcesses, event, listOf } from "./two-processes.js";

type Body = Record<string, unknown>;

const available = throwawayAvailable("the sandbox's tests of several processes and of PostgreSQL going away");
let server: PostgresServer;

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
    server = await startPostgres({ throwaway: true, template: await postgresTemplate() });
  }, 60_000);
  afterAll(() => server?.stop());

  describeTwoProcesses("one PostgreSQL", () => server.url);

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

    it("answers 503 with Retry-After within the bound when another transaction holds the row a write needs, keeping nothing", async () => {
      const bounded = await createSandbox({ database: server.url, now: () => NOW, timeout: 1000 });
      const holder = new pg.Client({ connectionString: server.url });
      await holder.connect();
      try {
        const id = (await call(bounded.url, "createEvent", { json: event({ name: "Held" }) })).body as number;
        const before = (await listOf(bounded.url)).total_count;
        await holder.query("begin");
        await holder.query(`select 1 from "${bounded.schema}".companies where company_id = 5 for update`);
        await holder.query(`select 1 from "${bounded.schema}".events where id = $1 for update`, [id]);
        const [create, edit] = await Promise.all([
          raw(`${bounded.url}/events`, { method: "POST", body: JSON.stringify(event({ name: "Never kept" })) }),
          raw(`${bounded.url}/events/${id}`, {
            method: "PATCH",
            body: JSON.stringify(event({ name: "Never kept", venue: {} })),
          }),
        ]);
        for (const answer of [create, edit]) {
          expectUnavailable(answer);
          // the bound, not the pool's connect timeout nor a hang
          expect(answer.ms).toBeGreaterThanOrEqual(900);
          expect(answer.ms).toBeLessThan(3000);
        }
        await holder.query("rollback");
        const after = await listOf(bounded.url);
        expect(after.total_count).toBe(before);
        expect(after.data.find((item) => item.id === id)?.name).toBe("Held");
        expect((await call(bounded.url, "createEvent", { json: event({ name: "After" }) })).status).toBe(201);
      } finally {
        await holder.end();
        await bounded.close();
      }
    });

    it("closes a connection whose query met an outage, so the pool never hands it out again", async () => {
      // A backend that is ended sends its error, then closes its socket as its process exits; under
      // load the close can come well after the error, and a connection released in between looked
      // alive to the pool. An error of the outage's class on a backend that lives on (raised by
      // hand) shows the rule alone: such a connection is closed, whatever its socket says yet.
      const pool = new pg.Pool({ connectionString: server.url, max: 1 });
      pool.on("error", () => undefined);
      pool.on("connect", (client) => client.on("error", () => undefined));
      const preparing = preparingPool(pool);
      const backend = async (): Promise<number> => {
        const client = await preparing.connect();
        try {
          return Number((await client.query<{ pid: number }>("select pg_backend_pid() as pid", [])).rows[0]?.pid);
        } finally {
          client.release();
        }
      };
      try {
        const first = await backend();
        expect(await backend(), "a connection that met no outage is kept").toBe(first);
        const client = await preparing.connect();
        const error = await client
          .query("do $$ begin raise exception 'going away' using errcode = '57P01'; end $$", [])
          .then(
            () => undefined,
            (caught: unknown) => caught,
          );
        client.release();
        expect(error).toMatchObject({ code: "57P01" });
        expect(await backend()).not.toBe(first);
      } finally {
        await pool.end();
      }
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
