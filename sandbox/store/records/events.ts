/**
 * The statements of events: the revision of a company's events, a batch of its list, the insert
 * and the edit (each guarded by the references it makes, and each taking a new revision of the
 * company's events in its own transaction: the edit in its one statement, the insert in the
 * statement that takes the event's id, or on Citus in a statement before it), and whether an event is the company's. Each is built
 * once (./statements.ts): no text depends on what a request sends, so the service runs one text of
 * each whatever the body holds. The rules (what an event's columns hold, what a refusal says) are
 * the service's (sandbox/service/events.ts).
 */

import type { Kysely } from "kysely";
import {
  type Expression,
  expressionBuilder,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from "kysely";
import { isDistributed } from "../engine/citus.js";
import type { Database, Db } from "../schema/database.js";
import { statement } from "./statements.js";

/** The revision of the company's events: every write of one of its events takes a new one. */
export async function eventsRevision(db: Db, companyId: number): Promise<number> {
  const { rows } = await EVENTS_REVISION(db, { companyId });
  return rows[0]?.events_revision ?? 0;
}

const EVENTS_REVISION = statement((db, p: { companyId: number }) =>
  db.selectFrom("companies").select("events_revision").where("company_id", "=", p.companyId),
);

/** Up to `limit` event rows of a company with IDs above `after`, in ID order. */
export async function eventRows(db: Db, companyId: number, after: number, limit: number): Promise<EventRow[]> {
  const { rows } = await EVENT_BATCH_READ(db, { companyId, after, limit });
  return rows;
}

const EVENT_BATCH_READ = statement((db, p: { companyId: number; after: number; limit: number }) =>
  eventQuery(db, p.companyId).where("events.id", ">", p.after).orderBy("events.id").limit(p.limit),
);

/** The event's columns, each with the SQL type its value is sent as. */
const EVENT_COLUMN_TYPES = {
  company_id: "bigint",
  name: "text",
  date: "text",
  client_id: "text",
  job_id: "text",
  admin_comments: "text",
  comments: "text",
  created: "text",
  admin_origin: "bigint",
  custom_fields: "jsonb",
  venue_id: "bigint",
  location_name: "text",
  location_address: "text",
  location_city: "text",
  location_zip: "text",
  location_saved: "boolean",
} as const;

type EventColumn = keyof typeof EVENT_COLUMN_TYPES;
const EVENT_COLUMNS = Object.keys(EVENT_COLUMN_TYPES) as EventColumn[];

/** The parameters of an event's insert: its columns, and the references the company's row is guarded by. */
export type EventInsert = Record<EventColumn, unknown> & {
  readonly guardVenue: number | null;
  readonly guardClient: string | null;
};

/**
 * Inserts the event when the venue and client it is guarded by are the company's; its ID, or
 * undefined when one is not. The company's row, when the references hold, takes its next event id
 * and a new revision of its events (and stays locked until the insert commits), and the insert
 * takes that id: one statement, or on Citus two in one transaction (see ./ids.ts).
 */
export async function insertEvent(db: Kysely<Database>, values: EventInsert): Promise<number | undefined> {
  if (!isDistributed(db)) return (await INSERT_EVENT_IN_ONE(db, values)).rows[0]?.id;
  return db.transaction().execute(async (tx) => {
    const { rows } = await TAKE_EVENT_ID(db, values, tx);
    const id = rows[0]?.last_event_id;
    if (id !== undefined) await INSERT_EVENT(db, { ...values, id }, tx);
    return id;
  });
}

/** The insert in one statement: the company's row, when the references hold, gives its next event id and a new revision of its events. */
const INSERT_EVENT_IN_ONE = statement((db, p: EventInsert) =>
  db
    .with("touched", () => takeEventId(db, p))
    .insertInto("events")
    .columns(["id", ...EVENT_COLUMNS])
    .expression((eb) =>
      eb
        .selectFrom("touched")
        .select((touched) => [
          touched.ref("touched.last_event_id").as("id"),
          ...EVENT_COLUMNS.map((column) => typed(p[column], EVENT_COLUMN_TYPES[column]).as(column)),
        ]),
    )
    .returning("id"),
);

/** The company's row, when the references hold, gives its next event id and a new revision of its events. */
const TAKE_EVENT_ID = statement((db, p: EventInsert) => takeEventId(db, p));

/** The update of the company's row that gives the event's id, when the references hold. */
function takeEventId(db: Kysely<Database>, p: EventInsert) {
  return db
    .updateTable("companies")
    .set((eb) => ({ events_revision: eb("events_revision", "+", 1), last_event_id: eb("last_event_id", "+", 1) }))
    .where("company_id", "=", p.company_id as number)
    .where(referenceGuard(p.company_id as number, p.guardVenue, p.guardClient))
    .returning("last_event_id");
}

/** The event's row, with the id its company's row gave. */
const INSERT_EVENT = statement((db, p: EventInsert & { readonly id: number }) =>
  db
    .insertInto("events")
    .values({ id: p.id, ...Object.fromEntries(EVENT_COLUMNS.map((column) => [column, p[column]])) } as never),
);

/** `value` sent as a parameter of the SQL type given (a parameter a select list takes has no type of its own). */
function typed(value: unknown, type: string) {
  return sql`cast(${value} as ${sql.raw(type)})`;
}

/** The columns an edit may keep. */
export type KeptColumn = Exclude<
  keyof typeof EDITED_COLUMN_TYPES,
  "company_id" | "name" | "date" | "created" | "admin_origin"
>;
const KEPT_COLUMNS = [
  "event_id",
  "client_id",
  "job_id",
  "admin_comments",
  "comments",
  "custom_fields",
  "venue_id",
  "location_name",
  "location_address",
  "location_city",
  "location_zip",
  "location_saved",
] as const satisfies readonly KeptColumn[];

/** The parameters of an edit: each column's value and whether it was sent, and the references it is guarded by. */
export type EventEdit = {
  readonly companyId: number;
  readonly eventId: number;
  readonly name: string;
  readonly date: string;
  readonly guardVenue: number | null;
  readonly guardClient: string | null;
} & { readonly [C in KeptColumn]: unknown } & { readonly [C in KeptColumn as `${C}_sent`]: boolean };

/**
 * Edits the event when it is the company's and the venue and client it is guarded by are: the
 * record as edited, or undefined when nothing was updated.
 */
export async function editEvent(db: Db, values: EventEdit): Promise<EventRow | undefined> {
  const { rows } = await EDIT_EVENT(db, values);
  return rows[0];
}

/**
 * The edit: one text whatever the body sends (each field is set to the value sent, or kept), and
 * the record as edited, from the rows the update returns, read as the events table is (the same
 * columns).
 */
const EDIT_EVENT = statement((db, p: EventEdit) => {
  const query = db
    .with("edited", (db) =>
      db
        .updateTable("events")
        .set({
          name: p.name,
          date: p.date,
          ...Object.fromEntries(
            KEPT_COLUMNS.map((column) => [column, sentOrKept(column, p[column], p[`${column}_sent`])]),
          ),
        })
        .where("company_id", "=", p.companyId)
        .where("id", "=", p.eventId)
        .where(referenceGuard(p.companyId, p.guardVenue, p.guardClient))
        .returningAll(),
    )
    .with("touched", (db) =>
      db
        .updateTable("companies")
        .set((eb) => ({ events_revision: eb("events_revision", "+", 1) }))
        .where("company_id", "=", p.companyId)
        .where((where) => where.exists(where.selectFrom("edited").select("edited.id")))
        .returning("company_id"),
    );
  const edited = query.selectFrom("edited as events") as unknown as SelectQueryBuilder<Database, "events", object>;
  return recordColumns(edited, p.companyId);
});

/** The columns an edit sets, with their SQL types. */
const EDITED_COLUMN_TYPES = { ...EVENT_COLUMN_TYPES, event_id: "text" } as const;

/**
 * The value an edit gives `column`: the one sent, or the stored one when `sent` is false (by
 * default, when none is sent). A parameter says which, so the statement's text is the same.
 * Typed `never` to fit any column: the SQL cast gives it the column's type.
 */
function sentOrKept<C extends keyof typeof EDITED_COLUMN_TYPES>(
  column: C,
  value: unknown,
  sent: boolean,
): RawBuilder<never> {
  const stored = sql.ref(`events.${column}`);
  return sql<never>`case when ${sent} then ${typed(value, EDITED_COLUMN_TYPES[column])} else ${stored} end`;
}

/**
 * The condition a write of an event holds to: the venue and the client it names, if any, are the
 * company's. One text whatever is named: a reference not made is a null parameter.
 */
function referenceGuard(companyId: number, venueSent: number | null, clientSent: string | null): Expression<SqlBool> {
  const eb = expressionBuilder<Database>();
  const venueId = eb.cast<number | null>(eb.val(venueSent), "bigint");
  const client = eb.cast<string | null>(eb.val(clientSent), "text");
  return eb.and([
    eb.or([
      eb(venueId, "is", null),
      eb.exists(
        eb.selectFrom("venues").select("venue_id").where("company_id", "=", companyId).where("venue_id", "=", venueId),
      ),
    ]),
    eb.or([
      eb(client, "is", null),
      eb.exists(
        eb
          .selectFrom("clients")
          .select("client_id")
          .where("company_id", "=", companyId)
          .where("client_id", "=", client),
      ),
    ]),
  ]);
}

/** The events of a company with their venue and origin, as the event record needs them. */
function eventQuery(db: Db, companyId: number) {
  return recordColumns(db.selectFrom("events"), companyId);
}

/** The columns of the event record, of the company's rows `events` selects, with their venue and origin. */
function recordColumns(events: SelectQueryBuilder<Database, "events", object>, companyId: number) {
  return events
    .innerJoin("personnel", (join) =>
      join
        .onRef("personnel.company_id", "=", "events.company_id")
        .onRef("personnel.personnel_id", "=", "events.admin_origin"),
    )
    .leftJoin("venues", (join) =>
      join.onRef("venues.company_id", "=", "events.company_id").onRef("venues.venue_id", "=", "events.venue_id"),
    )
    .where("events.company_id", "=", companyId)
    .select([
      "events.id",
      "events.name",
      "events.date",
      "events.event_id",
      "events.client_id",
      "events.created",
      "events.venue_id",
      "events.location_name",
      "events.location_address",
      "events.location_city",
      "events.location_zip",
      "events.location_saved",
      "events.admin_origin",
      "events.custom_fields",
      "personnel.name as admin_name",
      "venues.name as venue_name",
      "venues.address as venue_address",
      "venues.city as venue_city",
      "venues.zip as venue_zip",
      "venues.saved as venue_saved",
    ]);
}

/** An event as read for its record: its columns, its venue's and its origin's name. */
export type EventRow = Awaited<ReturnType<ReturnType<typeof eventQuery>["executeTakeFirstOrThrow"]>>;
