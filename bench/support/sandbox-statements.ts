/**
 * The sandbox's own statements for the event operations, as the baseline server runs them: the
 * texts are taken from the sandbox's code (its handlers run once over a query layer that records
 * what it is asked and runs nothing), and the parameters are written by hand, as a hand-written
 * service would bind them. `checkParameters` holds the hand-written ones to the sandbox's: for
 * sample bodies, the same values in the same places, so the baseline runs exactly the sandbox's
 * statement.
 */
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from "kysely";
import type { EventUpdate } from "../../generated/types.js";
import { createEvent, customFields, EVENT_BATCH, listEvents, updateEvent } from "../../sandbox/service/events.js";
import { markDistributed } from "../../sandbox/store/engine/citus.js";
import type { Database } from "../../sandbox/store/schema/database.js";

/**
 * The texts of `POST /events`, `PATCH /events/{id}` and a batch of `GET /events`. A create is one
 * statement (`create`); on Citus it is two in one transaction (`createId`, the company's next id,
 * then `createInsert`), as sandbox/store/records/ids.ts says why.
 */
export interface StatementTexts {
  readonly create?: string;
  readonly createId?: string;
  readonly createInsert?: string;
  readonly update: string;
  readonly list: string;
}

/** A write body, as both schemas let it be. */
export type BodySent = EventUpdate;

/** The statements recorded, by name. */
type Named = "create" | "createId" | "createInsert" | "update";

interface Recorded {
  readonly texts: StatementTexts;
  readonly parameters: Partial<Record<Named, readonly unknown[]>>;
}

/** The caller the baseline acts for. */
interface Acting {
  readonly companyId: number;
  readonly personnelId: number;
}

/**
 * What the sandbox's handlers run for `body` (its create and its edit of event `id`), and its
 * list's batch, on PostgreSQL or (`distributed`) on Citus.
 */
async function record(
  schema: string,
  caller: Acting,
  id: number,
  body: BodySent,
  day: string,
  distributed: boolean,
): Promise<Recorded> {
  const seen: CompiledQuery[] = [];
  // one row that every statement's reader takes: whether Citus is there, an id, a revision, an event record's columns
  const row = {
    citus: distributed,
    id,
    last_event_id: id,
    events_revision: 1,
    name: "",
    date: "",
    event_id: null,
    client_id: null,
    created: day,
  };
  const connection: DatabaseConnection = {
    executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
      seen.push(query);
      return { rows: [{ ...row, admin_origin: caller.personnelId, custom_fields: [] } as R] };
    },
    streamQuery: () => {
      throw new Error("the recording query layer streams nothing");
    },
  };
  const driver: Driver = {
    init: async () => undefined,
    acquireConnection: async () => connection,
    beginTransaction: async () => undefined,
    commitTransaction: async () => undefined,
    rollbackTransaction: async () => undefined,
    releaseConnection: async () => undefined,
    destroy: async () => undefined,
  };
  const db = (
    await markDistributed(
      new Kysely<Database>({
        dialect: {
          createAdapter: () => new PostgresAdapter(),
          createDriver: () => driver,
          createIntrospector: (kysely) => new PostgresIntrospector(kysely),
          createQueryCompiler: () => new PostgresQueryCompiler(),
        },
      }),
    )
  ).withSchema(schema);
  seen.length = 0;
  const context = { db, fileUrl: () => "", now: () => new Date(`${day}T12:00:00Z`) };
  const who = { ...caller, name: "" };
  const { event_id: _, ...createBody } = body;
  await createEvent(context, who, createBody);
  await updateEvent(context, who, String(id), body);
  await listEvents(context, who);
  const names: readonly Named[] = distributed ? ["createId", "createInsert", "update"] : ["create", "update"];
  // the list's batch follows its revision's read
  const list = seen[names.length + 1];
  if (list === undefined || seen.length !== names.length + 2)
    throw new Error(
      `the sandbox ran ${seen.length} statements for a create, an edit and a list, not ${names.length + 2}`,
    );
  const texts: Record<string, string> = { list: list.sql };
  const parameters: Partial<Record<Named, readonly unknown[]>> = {};
  names.forEach((name, i) => {
    texts[name] = seen[i]?.sql ?? "";
    parameters[name] = seen[i]?.parameters ?? [];
  });
  return { texts: texts as unknown as StatementTexts, parameters };
}

/** The sandbox's texts in `schema`, on PostgreSQL or (`distributed`) on Citus. */
export async function sandboxStatementTexts(schema: string, distributed: boolean): Promise<StatementTexts> {
  const caller = { companyId: 1, personnelId: 1 };
  return (await record(schema, caller, 1, { name: "", date: "", venue: {} }, "2026-01-01", distributed)).texts;
}

/** The parameters of the sandbox's create in one statement, by hand. */
export function createParameters(caller: Acting, body: BodySent, day: string): unknown[] {
  // the insert's without the id, which the statement takes from the company's row
  return [...createIdParameters(caller, body), ...createInsertParameters(caller, 0, body, day).slice(1)];
}

/** The parameters of the sandbox's first statement of a create (the company's next id), by hand. */
export function createIdParameters(caller: Acting, body: BodySent): unknown[] {
  const company = caller.companyId;
  // the company's events revision and its last event id, each one up
  return [1, 1, company, ...guard(company, placeOf(body).venueId, body.client_id ?? null)];
}

/** The parameters of the sandbox's insert of a create, the event's id `id`, by hand. */
export function createInsertParameters(caller: Acting, id: number, body: BodySent, day: string): unknown[] {
  const company = caller.companyId;
  const place = placeOf(body);
  const client = body.client_id ?? null;
  return [
    id,
    company,
    body.name,
    body.date,
    client,
    body.job_id ?? null,
    body.admin_comments ?? null,
    body.comments ?? null,
    day,
    caller.personnelId,
    JSON.stringify(customFields(body.custom_fields_text, body.custom_fields_id)),
    ...place.columns,
  ];
}

/** The parameters of the sandbox's edit statement, by hand. */
export function updateParameters(caller: Acting, id: number, body: BodySent): unknown[] {
  const company = caller.companyId;
  const sent = body.venue.venue_id !== undefined || LOCATION.some((field) => body.venue[field] !== undefined);
  const place = sent ? placeOf(body) : { venueId: null, columns: [null, null, null, null, null, null] };
  const client = body.client_id ?? null;
  const lists = body.custom_fields_text !== undefined || body.custom_fields_id !== undefined;
  const pair = (value: unknown, given = value !== undefined): unknown[] => [given, value ?? null];
  return [
    body.name,
    body.date,
    ...pair(body.event_id),
    ...pair(body.client_id),
    ...pair(body.job_id),
    ...pair(body.admin_comments),
    ...pair(body.comments),
    ...pair(lists ? JSON.stringify(customFields(body.custom_fields_text, body.custom_fields_id)) : undefined),
    ...place.columns.flatMap((value) => pair(value, sent)),
    company,
    id,
    ...guard(company, place.venueId, client),
    // the company's events revision, one up
    1,
    company,
    company,
  ];
}

/** The parameters of the guard of both writes: the venue and the client named, if any, are the company's. */
function guard(company: number, venueId: number | null, client: string | null): unknown[] {
  return [venueId, company, venueId, client, company, client];
}

const LOCATION = ["name", "address", "city", "zip", "saved"] as const;

/** The venue columns of a body: its venue's id, or the location of its fields. */
function placeOf(body: BodySent): { venueId: number | null; columns: unknown[] } {
  const venue = body.venue;
  if (venue.venue_id !== undefined) {
    const venueId = Number(venue.venue_id);
    return { venueId, columns: [venueId, null, null, null, null, null] };
  }
  const saved = venue.saved === undefined ? null : venue.saved === "1" || venue.saved.toLowerCase() === "true";
  return {
    venueId: null,
    columns: [null, venue.name ?? null, venue.address ?? null, venue.city ?? null, venue.zip ?? null, saved],
  };
}

/**
 * Holds the hand-written parameters to the sandbox's for sample bodies (a venue by id, a location
 * of fields, a client and custom fields of both lists): throws where one differs.
 */
export async function checkParameters(): Promise<void> {
  const caller = { companyId: 5, personnelId: 7 };
  const bodies: BodySent[] = [
    { name: "Load 1", date: "2024-04-20", venue: { venue_id: "318" }, custom_fields_text: [{ key: "R", value: "1" }] },
    {
      name: "Gala",
      date: "2024-05-01",
      client_id: "HARBOR42",
      job_id: "J1",
      comments: "c",
      event_id: "E1",
      venue: { name: "Hall", city: "Bergen", saved: "true" },
      custom_fields_id: [{ key: "9", value: "x" }],
      custom_fields_text: [{ key: "K", value: "x" }],
    },
  ];
  for (const body of bodies)
    for (const distributed of [false, true]) {
      const { parameters } = await record("sandbox", caller, 12, body, "2026-01-01", distributed);
      const hand: Record<Named, unknown[]> = {
        create: createParameters(caller, body, "2026-01-01"),
        createId: createIdParameters(caller, body),
        createInsert: createInsertParameters(caller, 12, body, "2026-01-01"),
        update: updateParameters(caller, 12, body),
      };
      for (const [statement, theirs] of Object.entries(parameters)) {
        const ours = JSON.stringify(hand[statement as Named]);
        if (ours !== JSON.stringify(theirs))
          throw new Error(
            `the baseline's parameters of ${statement} differ from the sandbox's for ${JSON.stringify(body)}:\n baseline ${ours}\n sandbox  ${JSON.stringify(theirs)}`,
          );
      }
    }
}

export { EVENT_BATCH };
