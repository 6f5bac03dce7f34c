/**
 * Ids per company, on the database the sandbox given runs on: each company's records of every kind
 * (venues, events, payroll groups, stored files, worker documents and credentials) are numbered
 * from 1, or after its seeded ones, on counters of its own, so the other company's writes leave no
 * gap in them; concurrent creates of one company take distinct, consecutive ids; and a database
 * made before ids were counted per company keeps its ids and goes on after them, per company.
 * Called by ./behaviour.ts, so it runs on PGlite and on PostgreSQL with the sandbox of that suite.
 */
import { randomBytes } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../../sandbox/index.js";
import type { ServiceContext } from "../../../sandbox/service/context.js";
import { createEvent } from "../../../sandbox/service/events.js";
import type { Caller } from "../../../sandbox/service/keys.js";
import { createPayrollGroup } from "../../../sandbox/service/payroll-groups.js";
import { createVenue } from "../../../sandbox/service/venues.js";
import { addWorkerCredential, addWorkerDocument } from "../../../sandbox/service/workers.js";
import { parseLocation } from "../../../sandbox/store/engine/engine.js";
import { acquireEngine } from "../../../sandbox/store/engine/engines.js";
import type { Database } from "../../../sandbox/store/schema/database.js";
import { migrate } from "../../../sandbox/store/schema/migrate.js";
import { call, HARBOR, NOW, SUMMIT } from "../../support/sandbox-calls.js";

type Body = Record<string, unknown>;

/** The demo seed's workers: Sam Lee of Harbor, Jo Park of Summit. */
const WORKER: Readonly<Record<string, number>> = { [HARBOR]: 1042, [SUMMIT]: 55 };

/** The ids one create of every kind gave a company. */
interface Created {
  readonly venue: number;
  readonly event: number;
  readonly group: number;
  readonly document: number;
  readonly credential: number;
  /** the stored files of the document and of the credential */
  readonly files: readonly number[];
}

/** The number after `/files/` in a stored file's URL. */
function fileNumber(url: unknown): number {
  return Number(/\/files\/(\d+)\//.exec(String(url))?.[1]);
}

/** `count` consecutive numbers from `first`. */
function from(first: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => first + i);
}

/** Describes the ids suite on the sandbox `current` gives (reset to the demo seed before each test). */
export function describeIds(current: () => Sandbox): void {
  const api = (operation: Parameters<typeof call>[1], key: string, options: Parameters<typeof call>[2] = {}) =>
    call(current().url, operation, { key, ...options });

  /** Creates one record of every kind for the company of `key`, over HTTP: the ids answered. */
  async function createEach(key: string): Promise<Created> {
    const venue = (await api("createVenue", key, { json: { name: "Hall", address: "1 Road", city: "T", zip: "T1" } }))
      .body as { venue_id: number };
    const event = await api("createEvent", key, {
      json: { name: "Gala", date: "2024-04-20", venue: { venue_id: String(venue.venue_id) } },
    });
    const group = await api("createPayrollGroup", key, { json: { locations: [String(venue.venue_id)] } });
    const form = new FormData();
    form.set("name", "Contract");
    form.set("file", new Blob([new Uint8Array([1, 2, 3])]), "contract.bin");
    const document = await api("addWorkerDocument", key, { path: { id: WORKER[key] ?? 0 }, form });
    const credential = await api("addWorkerCredential", key, {
      path: { id: WORKER[key] ?? 0 },
      json: { credentials_id: "3", file: "scan", file_name: "scan.txt" },
    });
    expect([event.status, group.status, document.status, credential.status]).toEqual([201, 200, 200, 200]);
    return {
      venue: venue.venue_id,
      event: event.body as number,
      group: Number((group.body as Body).id),
      document: Number((document.body as Body).id),
      credential: Number((credential.body as Body).id),
      files: [fileNumber((document.body as Body).location), fileNumber((credential.body as Body).file_location_value)],
    };
  }

  /** What `count` rounds of `createEach` give a company whose venues go on after `lastVenue`. */
  function expected(lastVenue: number, rounds: number) {
    return {
      venues: from(lastVenue + 1, rounds),
      events: from(1, rounds),
      groups: from(1, rounds),
      documents: from(1, rounds),
      credentials: from(1, rounds),
      files: from(1, rounds * 2),
    };
  }

  function gathered(created: readonly Created[]) {
    return {
      venues: created.map((c) => c.venue),
      events: created.map((c) => c.event),
      groups: created.map((c) => c.group),
      documents: created.map((c) => c.document),
      credentials: created.map((c) => c.credential),
      files: created.flatMap((c) => c.files),
    };
  }

  describe("ids per company", () => {
    it("counts each company's ids from 1, or after its seeded ones, with no gap from the other's writes", async () => {
      const harbor: Created[] = [];
      const summit: Created[] = [];
      // interleaved, one record of every kind at a time: Harbor, then Summit, three rounds
      for (let round = 0; round < 3; round++) {
        harbor.push(await createEach(HARBOR));
        summit.push(await createEach(SUMMIT));
      }
      // Harbor's seed gives venues 12, 15 and 318; Summit's gives one venue without an id, its 1
      expect(gathered(harbor)).toEqual(expected(318, 3));
      expect(gathered(summit)).toEqual(expected(1, 3));
    });

    it("gives concurrent creates of one company distinct, consecutive ids, each company its own", async () => {
      const rounds = 12;
      const created = await Promise.all(
        Array.from({ length: rounds * 2 }, (_, i) => createEach(i % 2 === 0 ? HARBOR : SUMMIT)),
      );
      const sorted = (list: readonly Created[]) => {
        const ids = gathered(list);
        return Object.fromEntries(
          Object.entries(ids).map(([kind, numbers]) => [kind, [...numbers].sort((a, b) => a - b)]),
        );
      };
      expect(sorted(created.filter((_, i) => i % 2 === 0))).toEqual(expected(318, rounds));
      expect(sorted(created.filter((_, i) => i % 2 === 1))).toEqual(expected(1, rounds));
    });

    it("keeps the ids of a database made before, and goes on after each company's own highest", async () => {
      const { engine, release } = await acquireEngine(parseLocation(current().database));
      const schema = `ids_upgrade_${randomBytes(4).toString("hex")}`;
      try {
        // migrations run on the upkeep's connections, without the bound of a request's statements
        await migrate(engine.upkeep, schema, "0002_events_revision");
        const db = engine.db.withSchema(schema);
        await fillBefore(engine.db, schema);
        const before = await allIds(engine.db, schema);
        await migrate(engine.upkeep, schema);
        expect(await allIds(engine.db, schema)).toEqual(before);
        const identities = await sql<{ count: number }>`select count(*)::int as count from information_schema.columns
          where table_schema = ${schema} and is_identity = 'YES'`.execute(engine.db);
        expect(identities.rows[0]?.count).toBe(0);
        const context: ServiceContext = { db, fileUrl: () => "http://files", now: () => NOW };
        const next = async (caller: Caller, worker: number) => {
          const venue = await createVenue(context, caller, { name: "V", address: "A", city: "C", zip: "Z" });
          const event = await createEvent(context, caller, { name: "E", date: "2024-04-20", venue: {} });
          const group = await createPayrollGroup(context, caller, {});
          const file = {
            filename: "f.bin",
            mimetype: "application/octet-stream",
            encoding: "7bit",
            data: Buffer.of(1),
          };
          const document = await addWorkerDocument(context, caller, worker, { name: "D", file });
          const credential = await addWorkerCredential(context, caller, worker, { credentials_id: "3" });
          return [venue.body, event.body, group.body, document.body, credential.body].map((body) =>
            typeof body === "number" ? body : Number((body as Body).venue_id ?? (body as Body).id),
          );
        };
        // [venue, event, payroll group, worker document, worker credential], after each one's highest
        expect(await next({ companyId: 1, personnelId: 11, name: "One" }, 11)).toEqual([4, 4, 2, 3, 2]);
        expect(await next({ companyId: 2, personnelId: 22, name: "Two" }, 22)).toEqual([3, 2, 4, 4, 4]);
      } finally {
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(engine.db);
        await release();
      }
    });
  });
}

/**
 * Rows of two companies written as the version before numbered them (one sequence per table, so
 * the companies' writes interleave in each): company 1 gets venues 1, 3, events 2, 3, payroll
 * group 1, files 1, 2 with documents 1, 2, credential 1; company 2 gets venue 2, event 1, groups
 * 2, 3, file 3 with document 3, credentials 2, 3.
 */
async function fillBefore(db: Kysely<Database>, schema: string): Promise<void> {
  const run = (query: ReturnType<typeof sql>) => query.execute(db);
  const table = (name: keyof Database) => sql.table(`${schema}.${name}`);
  await run(sql`insert into ${table("companies")} (company_id, name) values (1, 'One'), (2, 'Two')`);
  await run(
    sql`insert into ${table("personnel")} (company_id, personnel_id, name) values (1, 11, 'Ann'), (2, 22, 'Bo')`,
  );
  await run(
    sql`insert into ${table("credential_types")} (company_id, credentials_id, name) values (1, '3', 'C'), (2, '3', 'C')`,
  );
  for (const company of [1, 2, 1])
    await run(
      sql`insert into ${table("venues")} (company_id, name, address, city, zip) values (${company}, 'V', 'A', 'C', 'Z')`,
    );
  for (const [company, person] of [
    [2, 22],
    [1, 11],
    [1, 11],
  ])
    await run(sql`insert into ${table("events")} (company_id, name, date, created, admin_origin)
      values (${company}, 'E', '2024-01-01', '2024-01-01', ${person})`);
  for (const company of [1, 2, 2])
    await run(
      sql`insert into ${table("payroll_groups")} (company_id, insert_date) values (${company}, '2024-01-01 00:00:00')`,
    );
  for (const [company, person] of [
    [1, 11],
    [1, 11],
    [2, 22],
  ]) {
    await run(sql`with file as (
        insert into ${table("stored_files")} (company_id, file_name, media_type, bytes) values (${company}, 'f', 'x/y', '\\x01')
        returning company_id, file_id)
      insert into ${table("worker_documents")} (company_id, personnel_id, file_name, type, file_id, date_added)
      select company_id, ${person}, 'f', 'x/y', file_id, '2024-01-01' from file`);
  }
  for (const [company, person] of [
    [1, 11],
    [2, 22],
    [2, 22],
  ])
    await run(sql`insert into ${table("worker_credentials")} (company_id, personnel_id, credentials_id, submitter_id, date_submitted)
      values (${company}, ${person}, '3', ${person}, '2024-01-01 00:00:00')`);
}

/** Every numbered row's company and id, table by table. */
async function allIds(db: Kysely<Database>, schema: string): Promise<Record<string, [number, number][]>> {
  const ids: Record<string, [number, number][]> = {};
  for (const [table, column] of [
    ["venues", "venue_id"],
    ["events", "id"],
    ["payroll_groups", "id"],
    ["stored_files", "file_id"],
    ["worker_documents", "id"],
    ["worker_credentials", "id"],
  ] as const) {
    const { rows } = await sql<{ company_id: number; id: number }>`select company_id, ${sql.ref(column)} as id
      from ${sql.table(`${schema}.${table}`)} order by 1, 2`.execute(db);
    ids[table] = rows.map((row) => [Number(row.company_id), Number(row.id)]);
  }
  return ids;
}
