/**
 * The sandbox's behaviour, operation by operation, over loopback HTTP: what each stores and
 * answers, the 404s and refused references, tenancy (two companies, no cross-company read or
 * write, another company's ID answered as an unknown one), 100 concurrent creates, and ids counted
 * per company (./ids.ts). Run on each database the sandbox runs on (./pglite.test.ts,
 * ./postgres.test.ts). Every answer is checked against the contract by `call`. Each test starts
 * from the demo seed (`reset`).
 */

import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PreparedJson } from "workforce-scheduling-api/server";
import { validateEventList } from "workforce-scheduling-api/validators";
import type { Sandbox } from "../../../sandbox/index.js";
import { EVENT_BATCH, KEPT_BATCHES, listEvents } from "../../../sandbox/service/events.js";
import { parseLocation } from "../../../sandbox/store/engine/engine.js";
import { acquireEngine } from "../../../sandbox/store/engine/engines.js";
import {
  type Answer,
  type CallOptions,
  call,
  download,
  HARBOR,
  NOT_FOUND,
  NOW,
  SUMMIT,
} from "../../support/sandbox-calls.js";
import { describeIds } from "./ids.js";

type Body = Record<string, unknown>;

/** Describes the behaviour suite on the sandbox `start` gives (closed after). */
export function describeSandbox(label: string, start: () => Promise<Sandbox>): void {
  describe(`the sandbox on ${label}`, () => {
    let sandbox: Sandbox;
    const api = (operation: Parameters<typeof call>[1], options?: CallOptions): Promise<Answer> =>
      call(sandbox.url, operation, options);
    const events = async (key = HARBOR): Promise<Body[]> =>
      ((await api("listEvents", { key })).body as { data: Body[] }).data;

    beforeAll(async () => {
      sandbox = await start();
    });
    afterAll(() => sandbox?.close());
    beforeEach(() => sandbox.reset());

    const venue = { name: "Hall", address: "1 Road", city: "Town", zip: "AB1 2CD" };
    const event = (extra: Body = {}): Body => ({
      name: "Spring gala",
      date: "2024-04-20",
      venue: { venue_id: "318" },
      ...extra,
    });

    describe("createVenue", () => {
      it("stores the venue and answers it with a new venue_id; saved defaults to 0", async () => {
        const first = await api("createVenue", { json: venue });
        // numbered after the company's own seeded venues (Harbor's 12, 15 and 318)
        expect(first).toMatchObject({ status: 200, body: { venue_id: 319, ...venue, saved: 0 } });
        const second = await api("createVenue", { json: { ...venue, name: "Annex", saved: 1 } });
        expect(second.body).toEqual({ venue_id: 320, ...venue, name: "Annex", saved: 1 });
        // the new venue is one the company can hold an event at, and the other company cannot
        expect((await api("createEvent", { json: event({ venue: { venue_id: "320" } }) })).status).toBe(201);
        expect((await api("createEvent", { key: SUMMIT, json: event({ venue: { venue_id: "320" } }) })).status).toBe(
          422,
        );
        // Summit's seeded venue, given no id, is its venue 1: its next is 2, whatever Harbor made
        expect((await api("createVenue", { key: SUMMIT, json: venue })).body).toMatchObject({ venue_id: 2 });
      });
    });

    describe("createEvent and listEvents", () => {
      it("creates an event at a venue and lists it with its derived fields", async () => {
        const created = await api("createEvent", {
          json: event({
            client_id: "HARBOR42",
            job_id: "JOB-1",
            custom_fields_text: [{ key: "Dress code", value: "Black tie" }],
            custom_fields_id: [{ key: "4", value: "Black tie" }],
          }),
        });
        expect(created).toMatchObject({ status: 201, body: 1 });
        expect(await api("listEvents")).toMatchObject({
          status: 200,
          body: {
            total_count: 1,
            data: [
              {
                id: 1,
                name: "Spring gala",
                date: "2024-04-20",
                client_id: "HARBOR42",
                created: "2026-11-25",
                location: {
                  id: 318,
                  name: "Riverside Hall",
                  address: "1 River Road",
                  city: "Bristol",
                  zip: "BS1 4DJ",
                  saved: true,
                },
                admin_origin: { personnel_id: 7, name: "Dana Ortiz" },
                custom_fields: [{ id: "4", name: "Dress code", value: "Black tie" }],
              },
            ],
          },
        });
      });

      it("gives an event without a venue_id a location made of the fields sent", async () => {
        await api("createEvent", { json: event({ venue: { name: "Beach", city: "Brighton", saved: "1" } }) });
        await api("createEvent", { json: event({ venue: { name: "Field", saved: "0" } }) });
        await api("createEvent", { json: event({ venue: {} }) });
        expect((await events()).map((e) => e.location)).toEqual([
          { name: "Beach", city: "Brighton", saved: true },
          { name: "Field", saved: false },
          {},
        ]);
      });

      it("keeps custom fields of the two lists apart unless they pair up", async () => {
        await api("createEvent", {
          json: event({
            custom_fields_text: [
              { key: "Theme", value: "Jazz" },
              { key: "Notes", value: "x" },
            ],
            custom_fields_id: [{ key: "9", value: "Blue" }],
          }),
        });
        expect((await events())[0]?.custom_fields).toEqual([
          { id: "9", value: "Blue" },
          { name: "Theme", value: "Jazz" },
          { name: "Notes", value: "x" },
        ]);
      });

      it("lists the company's events in ID order with their total count", async () => {
        for (const name of ["A", "B", "C"]) await api("createEvent", { json: event({ name }) });
        await api("createEvent", { key: SUMMIT, json: event({ name: "Summit's", venue: { venue_id: "1" } }) });
        const list = (await api("listEvents")).body as { data: Body[]; total_count: number };
        expect([list.data.map((e) => [e.id, e.name]), list.total_count]).toEqual([
          [
            [1, "A"],
            [2, "B"],
            [3, "C"],
          ],
          3,
        ]);
        expect(((await api("listEvents", { key: SUMMIT })).body as { total_count: number }).total_count).toBe(1);
      });

      it("refuses a venue or client the company does not have, naming each field, and stores nothing", async () => {
        const refused = await api("createEvent", {
          json: event({ venue: { venue_id: "999999" }, client_id: "NOBODY" }),
        });
        expect(refused.status).toBe(422);
        expect((refused.body as { errors: Body[] }).errors.map((issue) => [issue.instancePath, issue.keyword])).toEqual(
          [
            ["/venue/venue_id", "reference"],
            ["/client_id", "reference"],
          ],
        );
        // Summit's venue (1) and client exist, but not for Harbor: refused exactly as unknown ones
        const foreign = await api("createEvent", { json: event({ venue: { venue_id: "1" }, client_id: "SUMMIT1" }) });
        expect((foreign.body as { detail: string }).detail).toBe(
          "body/venue/venue_id names no venue of this company (and 1 more)",
        );
        expect((await api("createEvent", { json: event({ venue: { venue_id: "abc" } }) })).status).toBe(422);
        expect(await events()).toEqual([]);
      });
    });

    describe("updateEvent", () => {
      it("edits the event: the fields sent replace, those left out stay", async () => {
        await api("createEvent", {
          json: event({
            client_id: "HARBOR42",
            job_id: "JOB-1",
            comments: "x",
            custom_fields_id: [{ key: "4", value: "v" }],
          }),
        });
        const edited = await api("updateEvent", {
          path: { id: "1" },
          json: { name: "Gala", date: "2024-04-27", venue: {}, event_id: "GALA2024" },
        });
        expect(edited).toMatchObject({
          status: 200,
          body: {
            id: 1,
            name: "Gala",
            date: "2024-04-27",
            event_id: "GALA2024",
            client_id: "HARBOR42",
            location: { id: 318 },
            custom_fields: [{ id: "4", value: "v" }],
          },
        });
        expect(await events()).toEqual([edited.body]);
        const moved = await api("updateEvent", {
          path: { id: "1" },
          json: { name: "Gala", date: "2024-04-27", venue: { venue_id: "12" }, custom_fields_text: [] },
        });
        expect(moved.body).toMatchObject({
          location: { id: 12, name: "North warehouse" },
          custom_fields: [],
          event_id: "GALA2024",
        });
        const outside = await api("updateEvent", {
          path: { id: "1" },
          json: { name: "Gala", date: "2024-04-27", venue: { name: "Park", zip: "P1" } },
        });
        expect((outside.body as Body).location).toEqual({ name: "Park", zip: "P1" });
      });

      it("answers 404 for an unknown event and for another company's, which stays as it was", async () => {
        await api("createEvent", { json: event() });
        const edit = { name: "Taken", date: "2024-01-01", venue: {} };
        for (const id of ["2", "999999", "abc", "01", "1.0"])
          expect(await api("updateEvent", { path: { id }, json: edit }), id).toMatchObject({
            status: 404,
            body: NOT_FOUND,
          });
        expect(await api("updateEvent", { key: SUMMIT, path: { id: "1" }, json: edit })).toMatchObject({
          status: 404,
          body: NOT_FOUND,
        });
        expect((await events())[0]?.name).toBe("Spring gala");
      });

      it("refuses references the company does not have, and changes nothing", async () => {
        await api("createEvent", { json: event() });
        const refused = await api("updateEvent", {
          path: { id: "1" },
          json: { name: "X", date: "2024-01-01", venue: { venue_id: "1" }, client_id: "NOBODY" },
        });
        expect(refused.status).toBe(422);
        expect((await events())[0]).toMatchObject({ name: "Spring gala", location: { id: 318 } });
      });
    });

    describe("updateClient", () => {
      const credentialFor = async (key: string, worker: number, clientId: string): Promise<Body> =>
        (
          await api("addWorkerCredential", {
            key,
            path: { id: worker },
            json: { credentials_id: "3", clients_id: clientId },
          })
        ).body as Body;

      it("edits a client of the company and answers true; fields left out stay", async () => {
        expect(
          await api("updateClient", { path: { id: "HARBOR42" }, json: { client_name: "Harbor Events plc" } }),
        ).toMatchObject({ status: 200, body: true });
        expect(await credentialFor(HARBOR, 1042, "HARBOR42")).toMatchObject({
          clients_id: "HARBOR42",
          client_name: "Harbor Events plc",
        });
      });

      it("answers 404 for an unknown client and for another company's, which stays as it was", async () => {
        expect(await api("updateClient", { path: { id: "NOBODY" }, json: { client_name: "x" } })).toMatchObject({
          status: 404,
          body: NOT_FOUND,
        });
        expect(
          await api("updateClient", { path: { id: "SUMMIT1" }, json: { client_name: "Taken over" } }),
        ).toMatchObject({ status: 404, body: NOT_FOUND });
        expect(await credentialFor(SUMMIT, 55, "SUMMIT1")).toMatchObject({ client_name: "Summit Conferences" });
      });
    });

    describe("addWorkerCredential", () => {
      it("stores the credential and fills the answer from the stored records", async () => {
        const answer = await api("addWorkerCredential", {
          path: { id: 1042 },
          json: {
            credentials_id: "3",
            p_id: "1042",
            date_completed: "2024-03-01T10:00:00+01:00",
            date_expired: "2027-03-01T09:00:00Z",
            clients_id: null,
            locations_id: "12",
            file_name: "",
            file_type: "",
            file: null,
            name: "",
          },
        });
        expect(answer).toEqual({
          status: 200,
          headers: expect.anything(),
          body: {
            id: "1",
            personnel_id: 1042,
            credentials_id: "3",
            submitter_id: 7,
            submitter_name: "Dana Ortiz",
            date_completed: "2024-03-01 09:00:00",
            date_completed_nice: "Mar 1, 2024",
            date_expired: "2027-03-01 09:00:00",
            date_expired_nice: "Mar 1, 2027",
            date_submitted: "2026-11-25 10:00:00",
            date_submitted_nice: "Nov 25, 2026",
            file_location_value: "",
            file_name: "",
            file_display_name: "",
            clients_id: "",
            client_name: "",
            locations_id: 12,
            location_name: "North warehouse",
            deleted: 0,
            personnel_credentials_id: "1",
            company_id: 5,
            name: "Forklift licence",
            description: "Licence to operate counterbalance forklifts",
            type: "licence",
            expiration_months: 36,
            expiring_inform: 1,
            expiring_inform_period: 30,
            expiring_inform_hr: 1,
            expiring_inform_hr_period: 14,
            expired_inform: 1,
            expired_inform_hr: 1,
            rule_usable: 1,
            worker_viewable: 1,
            worker_editable: 0,
            protected: 0,
            course_id: 0,
          },
        });
      });

      it("names the credential as sent, and stores a file sent with it for the company only", async () => {
        const answer = (
          await api("addWorkerCredential", {
            path: { id: 1042 },
            json: {
              credentials_id: "4",
              name: "First aid (2024)",
              file: "scan",
              file_name: "aid.txt",
              file_type: "text/plain",
            },
          })
        ).body as Body;
        expect(answer).toMatchObject({
          name: "First aid (2024)",
          file_name: "aid.txt",
          file_display_name: "aid.txt",
          description: "Basic first aid",
        });
        const location = String(answer.file_location_value);
        expect(location).toBe(`${sandbox.origin}/files/1/aid.txt`);
        expect(await download(location)).toEqual({ status: 200, type: "text/plain", bytes: Buffer.from("scan") });
        expect((await download(location, SUMMIT)).status).toBe(404);
      });

      it("answers 404 for a worker who is not a person of the company", async () => {
        for (const [key, id] of [
          [HARBOR, 999],
          [HARBOR, 55],
          [SUMMIT, 1042],
        ] as const) {
          expect(
            await api("addWorkerCredential", { key, path: { id }, json: { credentials_id: "3" } }),
            `${key} ${id}`,
          ).toMatchObject({ status: 404, body: NOT_FOUND });
        }
      });

      it("refuses a credential type, client or venue the company does not have, naming each field", async () => {
        const issues = async (json: Body): Promise<unknown[]> => {
          const answer = await api("addWorkerCredential", { path: { id: 1042 }, json });
          expect(answer.status).toBe(422);
          return (answer.body as { errors: Body[] }).errors.map((issue) => [issue.instancePath, issue.keyword]);
        };
        expect(await issues({})).toEqual([["/credentials_id", "required"]]);
        expect(await issues({ credentials_id: "99", clients_id: "SUMMIT1", locations_id: "1" })).toEqual([
          ["/credentials_id", "reference"],
          ["/clients_id", "reference"],
          ["/locations_id", "reference"],
        ]);
        expect(await issues({ credentials_id: "3", locations_id: "twelve" })).toEqual([["/locations_id", "reference"]]);
      });
    });

    describe("addWorkerDocument", () => {
      const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      const upload = (fields: Record<string, string>, file: Buffer = bytes): FormData => {
        const form = new FormData();
        for (const [name, value] of Object.entries(fields)) form.set(name, value);
        form.set("file", new Blob([new Uint8Array(file)]), "scan.bin");
        return form;
      };

      it("stores the file's bytes and serves them at the location it answers, to the company only", async () => {
        const answer = await api("addWorkerDocument", {
          path: { id: 1042 },
          form: upload({ name: "Contract 2024", type: "application/pdf", file_name: "contract 2024.pdf" }),
        });
        expect(answer).toMatchObject({
          status: 200,
          body: {
            id: "1",
            name: "Contract 2024",
            file_name: "contract 2024.pdf",
            location: `${sandbox.origin}/files/1/contract%202024.pdf`,
            date_added: "Nov 25, 2026",
            type: "application/pdf",
            deleted: 0,
            date_deleted: null,
            worker_viewable: 1,
          },
        });
        const location = String((answer.body as Body).location);
        expect(await download(location)).toEqual({ status: 200, type: "application/pdf", bytes });
        expect((await download(location, SUMMIT)).status).toBe(404);
        expect((await download(location, null)).status).toBe(401);
        expect((await download(location, "wrong-key")).status).toBe(401);
        expect((await download(location.replace("contract%202024.pdf", "other.pdf"))).status).toBe(404);
        expect((await download(location.replace("/1/", "/2/"))).status).toBe(404);
      });

      it("takes the file name and media type of the upload when the form does not give them", async () => {
        const answer = (await api("addWorkerDocument", { path: { id: 1042 }, form: upload({ name: "Scan" }) }))
          .body as Body;
        expect(answer).toMatchObject({
          file_name: "scan.bin",
          type: "application/octet-stream",
          location: `${sandbox.origin}/files/1/scan.bin`,
        });
      });

      it("answers 404 for a worker who is not a person of the company", async () => {
        expect(await api("addWorkerDocument", { path: { id: 55 }, form: upload({ name: "Scan" }) })).toMatchObject({
          status: 404,
          body: NOT_FOUND,
        });
      });
    });

    describe("createPayrollGroup", () => {
      it("stores the group and answers it with its derived fields", async () => {
        const answer = await api("createPayrollGroup", {
          json: {
            name: "Weekend crew",
            payroll_item_id: "PI-204",
            invoice_cost: "18.50",
            locationAll: false,
            locations: ["12", "15"],
            group_rows: ["row-1", "row-2"],
            wage_rules_id: "7",
          },
        });
        expect(answer.body).toEqual({
          id: "1",
          name: "Weekend crew",
          payroll_item_id: "PI-204",
          default_wage: null,
          insert_date: "2026-11-25 10:00:00",
          invoice_cost: 18.5,
          deleted: 0,
          wage_rules_id: "7",
          group_rows: ["row-1", "row-2"],
          locations: ["12", "15"],
          pending: false,
          updateError: false,
          deleteError: false,
        });
        expect((await api("createPayrollGroup", { json: {} })).body).toMatchObject({
          id: "2",
          invoice_cost: null,
          locations: [],
          group_rows: [],
        });
      });

      it("refuses references the company does not have and a cost that is no number, naming each", async () => {
        const answer = await api("createPayrollGroup", {
          key: SUMMIT,
          json: { invoice_cost: "18,50", wage_rules_id: "7", locations: ["1", "12"] },
        });
        expect(answer.status).toBe(422);
        expect((answer.body as { errors: Body[] }).errors.map((issue) => [issue.instancePath, issue.keyword])).toEqual([
          ["/invoice_cost", "number"],
          ["/wage_rules_id", "reference"],
          ["/locations/1", "reference"],
        ]);
        expect(
          (await api("createPayrollGroup", { key: SUMMIT, json: { wage_rules_id: "1", locations: ["1"] } })).body,
        ).toMatchObject({ id: "1", wage_rules_id: "1" });
      });
    });

    describe("listWageRules", () => {
      it("answers the company's wage rules as its seed gives them", async () => {
        expect((await api("listWageRules")).body).toEqual({
          data: [
            { id: "1", name: "Standard", hourly_rate: 15.5 },
            { id: "7", name: "Weekend", hourly_rate: 18.5 },
          ],
        });
        expect((await api("listWageRules", { key: SUMMIT })).body).toEqual({
          data: [{ id: "1", name: "Base", hourly_rate: 14 }],
        });
      });
    });

    describe("keys and text", () => {
      it("refuses a request without a key or with a wrong one, before anything else", async () => {
        expect((await api("listEvents", { key: null })).status).toBe(401);
        expect((await api("createVenue", { key: "demo-key-harbo", json: venue })).status).toBe(401);
        expect((await api("createVenue", { key: HARBOR.toUpperCase(), json: venue })).status).toBe(401);
        expect((await api("createVenue", { json: venue })).body).toMatchObject({ venue_id: 319 });
      });

      it("refuses text it cannot store exactly (U+0000, lone surrogates) and stores everything else as sent", async () => {
        for (const name of ["Hall\u0000", "Hall\ud800", "\udc00Hall"]) {
          const answer = await api("createVenue", { json: { ...venue, name } });
          expect(answer.status, JSON.stringify(answer.body)).toBe(422);
          expect((answer.body as { errors: Body[] }).errors[0]).toMatchObject({
            instancePath: "/name",
            keyword: "storable",
          });
        }
        expect((await api("updateClient", { path: { id: "HARBOR42\u0000" }, json: { client_name: "x" } })).status).toBe(
          404,
        );
        const exotic = "Zürich 😀 \u2028 ' \" \\ %00";
        expect((await api("createVenue", { json: { ...venue, name: exotic } })).body).toMatchObject({ name: exotic });
      });

      it("refuses U+0000 only where it would be stored, naming the field", async () => {
        // properties never stored (one the contract leaves open, p_id, a custom field's extra) take anything
        expect((await api("createVenue", { json: { ...venue, note: "a\u0000b" } })).status).toBe(200);
        const fields = [{ key: "Dress", value: "Black tie", note: "\u0000" }];
        expect((await api("createEvent", { json: event({ custom_fields_text: fields }) })).status).toBe(201);
        const stored = await api("createEvent", {
          json: event({ custom_fields_text: [{ key: "Dress", value: "Black\u0000tie" }] }),
        });
        expect(stored.status).toBe(422);
        expect(stored.body).toMatchObject({
          detail: "body/custom_fields_text/0/value holds U+0000 or a lone surrogate, which the sandbox cannot store",
        });
        // a credential's file is stored as its bytes: U+0000 is kept, a lone surrogate (no bytes) refused
        const credential = (file: string): Promise<Answer> =>
          api("addWorkerCredential", {
            path: { id: 1042 },
            json: { credentials_id: "3", p_id: "\u0000", file, file_name: "nul.txt", file_type: "text/plain" },
          });
        const kept = await credential("a\u0000b");
        expect(kept.status).toBe(200);
        const location = String((kept.body as Body).file_location_value);
        expect((await download(location)).bytes).toEqual(Buffer.from("a\u0000b"));
        expect((await credential("a\ud800")).body).toMatchObject({
          status: 422,
          detail: "body/file holds a lone surrogate, which has no UTF-8 bytes to store",
        });
      });

      it("refuses a JSON body that is not UTF-8 (400, naming the byte offset) and stores nothing", async () => {
        const raw = Buffer.from(JSON.stringify({ ...venue, name: "Caf#" }));
        const at = raw.indexOf("#");
        raw[at] = 0xe9; // "é" in Latin-1
        const response = await fetch(`${sandbox.url}/venues`, {
          method: "POST",
          headers: { "x-api-key": HARBOR, "content-type": "application/json" },
          body: raw,
        });
        expect(response.status).toBe(400);
        expect(((await response.json()) as Body).detail).toBe(
          `The request body is not valid UTF-8: the byte at offset ${at} (0xe9) starts no well-formed UTF-8 character; send the text encoded as UTF-8.`,
        );
        // the refused body took no id: the next venue is Harbor's first after its seeded ones
        expect((await api("createVenue", { json: venue })).body).toMatchObject({ venue_id: 319 });
      });
    });

    describe("concurrency", () => {
      it("gives 100 concurrent creates 100 distinct ids and an exact count", async () => {
        const answers = await Promise.all(
          Array.from({ length: 100 }, (_, i) => api("createEvent", { json: event({ name: `Event ${i}` }) })),
        );
        const ids = answers.map((answer) => answer.body as number);
        expect(answers.every((answer) => answer.status === 201)).toBe(true);
        expect(new Set(ids).size).toBe(100);
        const list = (await api("listEvents")).body as { data: Body[]; total_count: number };
        expect(list.total_count).toBe(100);
        expect(list.data.map((e) => e.id)).toEqual([...ids].sort((a, b) => a - b));
      });
    });

    describe("a long list", () => {
      it("answers more events than one read holds as a stream: the bytes of the whole list, valid", async () => {
        const count = EVENT_BATCH * KEPT_BATCHES + 17;
        const { engine, release } = await acquireEngine(parseLocation(sandbox.database));
        try {
          await sql`insert into ${sql.table(`${sandbox.schema}.events`)} (company_id, id, name, date, created, admin_origin, location_name, custom_fields)
            select 5, n, 'Event ' || n, '2024-05-01', '2026-11-25', 7, 'Hall ' || n, jsonb_build_array(jsonb_build_object('name', 'n', 'value', n::text))
            from generate_series(1, ${count}) as n`.execute(engine.db);
          // written around the sandbox: its lists kept are made stale, and its ids counted, as its own writes do
          await sql`update ${sql.table(`${sandbox.schema}.companies`)} set events_revision = events_revision + 1, last_event_id = ${count} where company_id = 5`.execute(
            engine.db,
          );
          await api("createEvent", { key: SUMMIT, json: event({ venue: { name: "Elsewhere" } }) });
          const response = await fetch(`${sandbox.url}/events`, { headers: { "x-api-key": HARBOR } });
          expect(response.headers.get("transfer-encoding")).toBe("chunked");
          const text = await response.text();
          const whole = await listEvents(
            { db: engine.db.withSchema(sandbox.schema), fileUrl: () => "", now: () => NOW },
            { companyId: 5, personnelId: 7, name: "Dana Ortiz" },
            count + 1,
          );
          expect(text).toBe((whole.body as PreparedJson).text);
          const list = JSON.parse(text) as { data: Body[]; total_count: number };
          expect([list.total_count, list.data.length, list.data.at(-1)?.name]).toEqual([
            count,
            count,
            `Event ${count}`,
          ]);
          expect(validateEventList(list).valid).toBe(true);
        } finally {
          await release();
        }
      });
    });

    describeIds(() => sandbox);

    describe("reset", () => {
      it("empties the data and loads the seed again, numbering from the start", async () => {
        await api("createEvent", { json: event() });
        await api("createVenue", { json: venue });
        await sandbox.reset();
        expect(await events()).toEqual([]);
        expect((await api("createVenue", { json: venue })).body).toMatchObject({ venue_id: 319 });
        expect(await api("createEvent", { json: event() })).toMatchObject({ status: 201, body: 1 });
      });
    });
  });
}

export { NOW };
