/**
 * Scheduled events: list, create, edit. An event is held at a venue of its company (`venue_id`)
 * or at a location made of the venue fields sent; its `admin_origin` is the person whose key
 * created it. Custom fields are sent as two lists of key/value pairs and answered as one list of
 * fields (see `customFields`).
 */
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
import {
  type EventEdit,
  type EventInsert,
  type EventRow,
  editEvent,
  eventRows,
  eventsRevision,
  insertEvent,
} from "../store/records/events.js";
import { recordExists } from "../store/records/records.js";
import type { Db } from "../store/schema/database.js";
import type { ServiceContext } from "./context.js";
import { dateText } from "./dates.js";
import type { Caller } from "./keys.js";
import { asSent, checkReferences, oneByOne, referenceOf } from "./references.js";
import { notFound, type Refusal, recordNumber, unprocessable } from "./refusals.js";

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
  return (await eventRows(db, companyId, after, limit)).map(eventRecord);
}

/**
 * Stores a new event and answers its ID (201), the company's next, or 422 for references that
 * name nothing. The common case is one transaction of two statements: the company's row, guarded
 * by the references the event makes (the venue, the client), takes its next event id and a new
 * revision of its events, and the insert takes that id (sandbox/store/records/events.ts). Only when the
 * guard holds it back are the references read again, to say which names nothing.
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
    const id = place === null ? undefined : await insertEvent(context.db, insertValues(context, caller, body, place));
    if (id !== undefined) return { status: 201, body: id };
    const refusals = await unknownReferences(context.db, caller.companyId, body);
    if (refusals.length > 0) return unprocessable(refusals);
  }
  throw new Error(
    "createEvent: the insert was held back twice, yet the venue and the client it names are the company's",
  );
}

/**
 * The columns of a new event, and the references its insert is guarded by. One object literal of
 * fixed properties, as `editValues`: spreading the location's columns into it made V8 keep each
 * insert's parameters as a dictionary.
 */
function insertValues(context: ServiceContext, caller: Caller, body: EventCreate, place: Place): EventInsert {
  const location = locationColumns(place);
  return {
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
    venue_id: location.venue_id,
    location_name: location.location_name,
    location_address: location.location_address,
    location_city: location.location_city,
    location_zip: location.location_zip,
    location_saved: location.location_saved,
  };
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
    const row = place === null ? undefined : await editEvent(context.db, editValues(caller, eventId, body, place));
    if (row !== undefined) return { status: 200, body: eventRecord(row) };
    if (!(await recordExists(context.db, "events", caller.companyId, eventId))) return notFound();
    const refusals = await unknownReferences(context.db, caller.companyId, body);
    if (refusals.length > 0) return unprocessable(refusals);
  }
  throw new Error(
    "updateEvent: the edit was held back twice, yet the event, its venue and its client are the company's",
  );
}

/**
 * The parameters of an edit of the event: each field set to the value sent or kept (a value of
 * null and `_sent` false keep the stored one), and the references it is guarded by. One object
 * literal of fixed properties: the statement reads each by name.
 */
function editValues(caller: Caller, eventId: number, body: EventUpdate, place: Place | undefined): EventEdit {
  const sentLists = body.custom_fields_text !== undefined || body.custom_fields_id !== undefined;
  const fields = sentLists ? JSON.stringify(customFields(body.custom_fields_text, body.custom_fields_id)) : null;
  const location = place === undefined ? undefined : locationColumns(place);
  const moved = location !== undefined;
  return {
    companyId: caller.companyId,
    eventId,
    name: body.name,
    date: body.date,
    event_id: body.event_id ?? null,
    event_id_sent: body.event_id !== undefined,
    client_id: body.client_id ?? null,
    client_id_sent: body.client_id !== undefined,
    job_id: body.job_id ?? null,
    job_id_sent: body.job_id !== undefined,
    admin_comments: body.admin_comments ?? null,
    admin_comments_sent: body.admin_comments !== undefined,
    comments: body.comments ?? null,
    comments_sent: body.comments !== undefined,
    custom_fields: fields,
    custom_fields_sent: sentLists,
    venue_id: location?.venue_id ?? null,
    venue_id_sent: moved,
    location_name: location?.location_name ?? null,
    location_name_sent: moved,
    location_address: location?.location_address ?? null,
    location_address_sent: moved,
    location_city: location?.location_city ?? null,
    location_city_sent: moved,
    location_zip: location?.location_zip ?? null,
    location_zip_sent: moved,
    location_saved: location?.location_saved ?? null,
    location_saved_sent: moved,
    guardVenue: place?.kind === "venue" ? place.venueId : null,
    guardClient: body.client_id ?? null,
  };
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

/** A refusal for each reference of the body, its venue then its client, that names no record of the company. */
async function unknownReferences(db: Db, companyId: number, body: EventWriteReferences): Promise<Refusal[]> {
  const venues = await checkReferences(
    referenceOf(VENUE_REFERENCE, body.venue.venue_id, recordNumber),
    oneByOne((id: number) => recordExists(db, "venues", companyId, id)),
  );
  const clients = await checkReferences(
    referenceOf(CLIENT_REFERENCE, body.client_id, asSent),
    oneByOne((id: string) => recordExists(db, "clients", companyId, id)),
  );
  return [...venues.refusals, ...clients.refusals];
}

/** What an event's write names of other records. */
type EventWriteReferences = Pick<EventCreate, "client_id"> & { readonly venue: EventVenueInput };

const VENUE_REFERENCE = {
  instancePath: "/venue/venue_id",
  schemaPath: "#/components/schemas/EventVenueInput/properties/venue_id",
  resource: "venue",
};
const CLIENT_REFERENCE = {
  instancePath: "/client_id",
  schemaPath: "#/components/schemas/EventWriteFields/properties/client_id",
  resource: "client",
};

/** The columns of the event's place: a venue's ID, or the location's fields (null where not sent). */
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
