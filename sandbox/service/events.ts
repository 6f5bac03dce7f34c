/**
 * Scheduled events: list, create, edit. An event is held at a venue of its company (`venue_id`)
 * or at a location made of the venue fields sent; its `admin_origin` is the person whose key
 * created it. Custom fields are sent as two lists of key/value pairs and answered as one list of
 * fields (see `customFields`).
 */
import {
  type Expression,
  expressionBuilder,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
  type Transaction,
} from "kysely";
import type {
  CustomField,
  CustomFieldInput,
  Event,
  EventCreate,
  EventList,
  EventListItem,
  EventUpdate,
  EventVenueInput,
  Location,
} from "workforce-scheduling-api";
import { type JsonStream, type PreparedJson, prepareJson, streamJson } from "workforce-scheduling-api/handlers";
import type { Database } from "../store/database.js";
import { statement } from "../store/statements.js";
import type { ServiceContext } from "./context.js";
import { dateText } from "./dates.js";
import type { Caller } from "./keys.js";
import { notFound, type Refusal, recordNumber, unprocessable } from "./refusals.js";

type Db = Kysely<Database> | Transaction<Database>;

/** How many events one read of the list takes. */
export const EVENT_BATCH = 1000;

/** A company's list as last answered, and the revision of its events it was read at. */
interface CachedList {
  readonly revision: number;
  readonly body: PreparedJson<EventList>;
}

/** The lists of the companies most recently listed, per sandbox (its context), at most LIST_CACHE_SIZE each. */
const LISTS = new WeakMap<ServiceContext, Map<number, CachedList>>();
const LIST_CACHE_SIZE = 64;

/**
 * The company's events, in ID order, and their number.
 *
 * A list of up to KEPT_BATCHES batches is kept, serialised, with the revision of the company's
 * events read before it (every write of an event takes a new revision in its own statement or
 * transaction), and answered again while that revision is current: one small read instead of the
 * list. The revision is read before the list, so a list kept is never older than its revision;
 * any write since, from any process on the database, changes the revision.
 *
 * Lists are read by key, a batch at a time (`id > last id read`, on the primary key), and a
 * longer one is answered as a `JsonStream`, written as it is read, so the server holds a few
 * batches, not the list; `total_count` is written last, as the number of events written. A list
 * read while events are created has each of them or not, and its count always matches its data.
 */
export async function listEvents(
  context: ServiceContext,
  caller: Caller,
  batchSize = EVENT_BATCH,
): Promise<{ status: 200; body: EventList | JsonStream<EventList> | PreparedJson<EventList> }> {
  const lists = LISTS.get(context) ?? new Map<number, CachedList>();
  LISTS.set(context, lists);
  const revision = await eventsRevision(context.db, caller.companyId);
  const cached = lists.get(caller.companyId);
  if (cached !== undefined && cached.revision === revision) return { status: 200, body: cached.body };
  const read: EventListItem[][] = [];
  let batch: EventListItem[] = [];
  do {
    batch = await eventBatch(context.db, caller.companyId, batch.at(-1)?.id ?? 0, batchSize);
    read.push(batch);
  } while (batch.length === batchSize && read.length < KEPT_BATCHES);
  if (batch.length < batchSize) {
    const data = read.flat();
    const body = prepareJson<EventList>({ data, total_count: data.length });
    lists.delete(caller.companyId);
    lists.set(caller.companyId, { revision, body });
    if (lists.size > LIST_CACHE_SIZE) lists.delete(lists.keys().next().value as number);
    return { status: 200, body };
  }
  const body = streamJson<EventList, "data">({
    list: "data",
    batches: eventBatches(context.db, caller.companyId, read, batchSize),
    after: (count) => ({ total_count: count }),
  });
  return { status: 200, body };
}

/** The most batches a list kept may have: a longer one is streamed, and not kept. */
export const KEPT_BATCHES = 5;

async function eventsRevision(db: Db, companyId: number): Promise<number> {
  const { rows } = await EVENTS_REVISION(db, { companyId });
  return rows[0]?.events_revision ?? 0;
}

const EVENTS_REVISION = statement((db, p: { companyId: number }) =>
  db.selectFrom("companies").select("events_revision").where("company_id", "=", p.companyId),
);

/** The batches of a company's events, from those read already, until a batch comes back short. */
async function* eventBatches(
  db: Db,
  companyId: number,
  read: EventListItem[][],
  batchSize: number,
): AsyncGenerator<EventListItem[]> {
  let batch: EventListItem[] = [];
  for (batch of read) yield batch;
  while (batch.length === batchSize) {
    batch = await eventBatch(db, companyId, batch.at(-1)?.id ?? 0, batchSize);
    if (batch.length > 0) yield batch;
  }
}

/** Up to `limit` events of a company with IDs above `after`, in ID order. */
async function eventBatch(db: Db, companyId: number, after: number, limit: number): Promise<EventListItem[]> {
  const { rows } = await EVENT_BATCH_READ(db, { companyId, after, limit });
  return rows.map(eventRecord);
}

const EVENT_BATCH_READ = statement((db, p: { companyId: number; after: number; limit: number }) =>
  eventQuery(db, p.companyId).where("events.id", ">", p.after).orderBy("events.id").limit(p.limit),
);

/**
 * Stores a new event and answers its ID (201), the company's next, or 422 for references that
 * name nothing. The common case is one statement: the company's row, guarded by the references
 * the event makes (the venue, the client), takes its next event id and a new revision of its
 * events, and the insert takes that id (./ids.ts). Only when the guard holds it back are
 * the references read again, to say which names nothing.
 */
export async function createEvent(
  context: ServiceContext,
  caller: Caller,
  body: EventCreate,
): Promise<{ status: 201; body: number } | ReturnType<typeof unprocessable>> {
  // a new event always has a place: the fields sent, even none
  const sent = placeSent(body.venue);
  const place = sent === undefined ? { kind: "fields" as const, fields: body.venue } : sent;
  // twice at most: a reference found missing may have been made in between (none is ever removed)
  for (let attempt = 0; attempt < 2; attempt++) {
    const id = place === null ? undefined : await insertEvent(context, caller, body, place);
    if (id !== undefined) return { status: 201, body: id };
    const refusals: Refusal[] = [];
    await checkVenue(context.db, caller.companyId, body.venue, refusals);
    await checkClient(context.db, caller.companyId, body.client_id, refusals);
    if (refusals.length > 0) return unprocessable(refusals);
  }
  throw new Error(
    "createEvent: the insert was held back twice, yet the venue and the client it names are the company's",
  );
}

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
type EventInsert = Record<EventColumn, unknown> & {
  readonly guardVenue: number | null;
  readonly guardClient: string | null;
};

/** Inserts the event when its venue and client are the company's; its ID, or undefined when one is not. */
async function insertEvent(
  context: ServiceContext,
  caller: Caller,
  body: EventCreate,
  place: Place,
): Promise<number | undefined> {
  const values: EventInsert = {
    guardVenue: place.kind === "venue" ? place.venueId : null,
    guardClient: body.client_id ?? null,
    company_id: caller.companyId,
    name: body.name,
    date: body.date,
    client_id: body.client_id ?? null,
    job_id: body.job_id ?? null,
    admin_comments: body.admin_comments ?? null,
    comments: body.comments ?? null,
    created: dateText(context.now()),
    admin_origin: caller.personnelId,
    custom_fields: JSON.stringify(customFields(body.custom_fields_text, body.custom_fields_id)),
    ...locationColumns(place),
  };
  const { rows } = await INSERT_EVENT(context.db, values);
  return rows[0]?.id;
}

/** The insert: the company's row, when the references hold, gives its next event id and a new revision of its events. */
const INSERT_EVENT = statement((db, p: EventInsert) =>
  db
    .with("touched", (db) =>
      db
        .updateTable("companies")
        .set((eb) => ({ events_revision: eb("events_revision", "+", 1), last_event_id: eb("last_event_id", "+", 1) }))
        .where("company_id", "=", p.company_id as number)
        .where(referenceGuard(p.company_id as number, p.guardVenue, p.guardClient))
        .returning("last_event_id"),
    )
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

/** `value` sent as a parameter of the SQL type given (a parameter a select list takes has no type of its own). */
function typed(value: unknown, type: string) {
  return sql`cast(${value} as ${sql.raw(type)})`;
}

/**
 * Edits an event of the company: the fields sent replace the stored ones, those left out are
 * kept. The common case is one statement: the update, guarded by the references it makes (the
 * venue, the client), the new revision of the company's events, and the record as edited. The
 * update locks the row, so edits of one event apply one after the other, each to the row as the
 * one before left it: the later edit wins each field both send, and keeps what only the earlier
 * one sent. Only when nothing is updated is the event, and each reference, read again, to say
 * which is missing.
 */
export async function updateEvent(
  context: ServiceContext,
  caller: Caller,
  id: string,
  body: EventUpdate,
): Promise<{ status: 200; body: Event } | ReturnType<typeof notFound> | ReturnType<typeof unprocessable>> {
  const eventId = recordNumber(id);
  if (eventId === undefined) return notFound();
  const place = placeSent(body.venue);
  // twice at most: a reference found missing may have been made in between (none is ever removed)
  for (let attempt = 0; attempt < 2; attempt++) {
    const row = place === null ? undefined : await editEvent(context, caller, eventId, body, place);
    if (row !== undefined) return { status: 200, body: eventRecord(row) };
    const current = await context.db
      .selectFrom("events")
      .select("id")
      .where("company_id", "=", caller.companyId)
      .where("id", "=", eventId)
      .executeTakeFirst();
    if (current === undefined) return notFound();
    const refusals: Refusal[] = [];
    await checkVenue(context.db, caller.companyId, body.venue, refusals);
    await checkClient(context.db, caller.companyId, body.client_id, refusals);
    if (refusals.length > 0) return unprocessable(refusals);
  }
  throw new Error(
    "updateEvent: the edit was held back twice, yet the event, its venue and its client are the company's",
  );
}

/** The edit of an event, when it is the company's and the venue and client it names are: the record as edited. */
async function editEvent(
  context: ServiceContext,
  caller: Caller,
  eventId: number,
  body: EventUpdate,
  place: Place | undefined,
): Promise<EventRow | undefined> {
  const sentLists = body.custom_fields_text !== undefined || body.custom_fields_id !== undefined;
  const customFieldsSent = sentLists
    ? JSON.stringify(customFields(body.custom_fields_text, body.custom_fields_id))
    : undefined;
  const location = place === undefined ? undefined : locationColumns(place);
  const { rows } = await EDIT_EVENT(context.db, {
    companyId: caller.companyId,
    eventId,
    name: body.name,
    date: body.date,
    ...sentOrKeptValue("event_id", body.event_id),
    ...sentOrKeptValue("client_id", body.client_id),
    ...sentOrKeptValue("job_id", body.job_id),
    ...sentOrKeptValue("admin_comments", body.admin_comments),
    ...sentOrKeptValue("comments", body.comments),
    ...sentOrKeptValue("custom_fields", customFieldsSent),
    ...sentOrKeptValue("venue_id", location?.venue_id, location !== undefined),
    ...sentOrKeptValue("location_name", location?.location_name, location !== undefined),
    ...sentOrKeptValue("location_address", location?.location_address, location !== undefined),
    ...sentOrKeptValue("location_city", location?.location_city, location !== undefined),
    ...sentOrKeptValue("location_zip", location?.location_zip, location !== undefined),
    ...sentOrKeptValue("location_saved", location?.location_saved, location !== undefined),
    guardVenue: place?.kind === "venue" ? place.venueId : null,
    guardClient: body.client_id ?? null,
  } as EventEdit);
  return rows[0];
}

/** The columns an edit may keep. */
type KeptColumn = Exclude<
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
type EventEdit = {
  readonly companyId: number;
  readonly eventId: number;
  readonly name: string;
  readonly date: string;
  readonly guardVenue: number | null;
  readonly guardClient: string | null;
} & { readonly [C in KeptColumn]: unknown } & { readonly [C in KeptColumn as `${C}_sent`]: boolean };

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

/** The parameters of `column` in an edit: the value sent (null when none is), and whether it is sent (by default, when it is not undefined). */
function sentOrKeptValue<C extends KeptColumn>(
  column: C,
  value: unknown,
  sent = value !== undefined,
): Record<C | `${C}_sent`, unknown> {
  return { [column]: value ?? null, [`${column}_sent`]: sent } as Record<C | `${C}_sent`, unknown>;
}

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

/** Where an event is held: a venue of the company, or a location made of the fields sent. */
type Place =
  | { readonly kind: "venue"; readonly venueId: number }
  | { readonly kind: "fields"; readonly fields: EventVenueInput };

const LOCATION_FIELDS = ["name", "address", "city", "zip", "saved"] as const;

/**
 * The place a `venue` object names, before any read: a venue by its ID, a location of the other
 * fields sent, undefined when nothing is sent (an edit keeps the location), or null for a venue ID
 * that can name no venue.
 */
function placeSent(venue: EventVenueInput): Place | undefined | null {
  if (venue.venue_id !== undefined) {
    const venueId = recordNumber(venue.venue_id);
    return venueId === undefined ? null : { kind: "venue", venueId };
  }
  return LOCATION_FIELDS.some((field) => venue[field] !== undefined) ? { kind: "fields", fields: venue } : undefined;
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

/** Refuses a venue ID sent that names no venue of the company. */
async function checkVenue(db: Db, companyId: number, venue: EventVenueInput, refusals: Refusal[]): Promise<void> {
  if (venue.venue_id === undefined) return;
  const venueId = recordNumber(venue.venue_id);
  const found =
    venueId === undefined
      ? undefined
      : await db
          .selectFrom("venues")
          .select("venue_id")
          .where("company_id", "=", companyId)
          .where("venue_id", "=", venueId)
          .executeTakeFirst();
  if (found !== undefined) return;
  refusals.push({
    instancePath: "/venue/venue_id",
    schemaPath: "#/components/schemas/EventVenueInput/properties/venue_id",
    keyword: "reference",
    resource: "venue",
    value: venue.venue_id,
    says: "names no venue of this company",
  });
}

async function checkClient(
  db: Db,
  companyId: number,
  clientId: string | undefined,
  refusals: Refusal[],
): Promise<void> {
  if (clientId === undefined) return;
  const found = await db
    .selectFrom("clients")
    .select("client_id")
    .where("company_id", "=", companyId)
    .where("client_id", "=", clientId)
    .executeTakeFirst();
  if (found !== undefined) return;
  refusals.push({
    instancePath: "/client_id",
    schemaPath: "#/components/schemas/EventWriteFields/properties/client_id",
    keyword: "reference",
    resource: "client",
    value: clientId,
    says: "names no client of this company",
  });
}

function locationColumns(place: Place) {
  if (place.kind === "venue")
    return {
      venue_id: place.venueId,
      location_name: null,
      location_address: null,
      location_city: null,
      location_zip: null,
      location_saved: null,
    };
  const { name, address, city, zip, saved } = place.fields;
  return {
    venue_id: null,
    location_name: name ?? null,
    location_address: address ?? null,
    location_city: city ?? null,
    location_zip: zip ?? null,
    location_saved: saved === undefined ? null : savedFlag(saved),
  };
}

/** The venue body's `saved` is a string: "1" and "true" are saved, anything else is not. */
function savedFlag(saved: string): boolean {
  return saved === "1" || saved.toLowerCase() === "true";
}

/**
 * The custom fields of the two lists sent: an entry of `custom_fields_id` is the field of that id
 * (`{ id: key, value }`), one of `custom_fields_text` the field of that name (`{ name: key, value }`).
 * The entries at the same position of both lists, with the same value, are one field `{ id, name, value }`
 * (the spec's example sends a field so).
 */
export function customFields(
  byName: readonly CustomFieldInput[] = [],
  byId: readonly CustomFieldInput[] = [],
): CustomField[] {
  const fields: CustomField[] = [];
  for (let i = 0; i < Math.max(byName.length, byId.length); i++) {
    const named = byName[i];
    const identified = byId[i];
    if (named !== undefined && identified !== undefined && named.value === identified.value) {
      fields.push({ id: identified.key, name: named.key, value: identified.value });
      continue;
    }
    if (identified !== undefined) fields.push({ id: identified.key, value: identified.value });
    if (named !== undefined) fields.push({ name: named.key, value: named.value });
  }
  return fields;
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

type EventRow = Awaited<ReturnType<ReturnType<typeof eventQuery>["executeTakeFirstOrThrow"]>>;

/** The event record of a row: fields never set are left out. */
export function eventRecord(row: EventRow): EventListItem {
  return {
    id: row.id,
    name: row.name,
    date: row.date,
    ...(row.event_id === null ? {} : { event_id: row.event_id }),
    ...(row.client_id === null ? {} : { client_id: row.client_id }),
    created: row.created,
    location: location(row),
    admin_origin: { personnel_id: row.admin_origin, name: row.admin_name },
    custom_fields: row.custom_fields as CustomField[],
  };
}

function location(row: EventRow): Location {
  if (row.venue_id !== null) {
    return {
      id: row.venue_id,
      name: row.venue_name ?? "",
      address: row.venue_address ?? "",
      city: row.venue_city ?? "",
      zip: row.venue_zip ?? "",
      saved: row.venue_saved === 1,
    };
  }
  const place: { -readonly [K in keyof Location]?: Location[K] } = {};
  if (row.location_name !== null) place.name = row.location_name;
  if (row.location_address !== null) place.address = row.location_address;
  if (row.location_city !== null) place.city = row.location_city;
  if (row.location_zip !== null) place.zip = row.location_zip;
  if (row.location_saved !== null) place.saved = row.location_saved;
  return place;
}
