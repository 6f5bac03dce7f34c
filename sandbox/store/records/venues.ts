/**
 * The statements of venues: the insert (its id the company's next) and the reads that find which
 * venues of a company some ids name, for the references events, credentials and payroll groups make.
 */
import { sql } from "kysely";
import type { Db } from "../schema/database.js";
import { insertWithNextId } from "./ids.js";

/** A venue's columns as the API answers them. */
export interface VenueRow {
  readonly venue_id: number;
  readonly name: string;
  readonly address: string;
  readonly city: string;
  readonly zip: string;
  readonly saved: number;
}

/** Inserts a venue of the company, its `venue_id` the company's next: the row as stored. */
export function insertVenue(db: Db, companyId: number, venue: Omit<VenueRow, "venue_id">): Promise<VenueRow> {
  return insertWithNextId(
    db,
    companyId,
    "last_venue_id",
    { table: "venues", idColumn: "venue_id", returned: ["venue_id", "name", "address", "city", "zip", "saved"] },
    {
      company_id: companyId,
      name: venue.name,
      address: venue.address,
      city: venue.city,
      zip: venue.zip,
      saved: venue.saved,
    },
  );
}

/** The venue `venueId` of the company, with its name, or undefined. */
export function venueNamed(
  db: Db,
  companyId: number,
  venueId: number,
): Promise<{ venue_id: number; name: string } | undefined> {
  return db
    .selectFrom("venues")
    .select(["venue_id", "name"])
    .where("company_id", "=", companyId)
    .where("venue_id", "=", venueId)
    .executeTakeFirst();
}

/** Which of `venueIds` are venues of the company: one statement, its text the same for any number of ids. */
export async function venueIdsOf(db: Db, companyId: number, venueIds: readonly number[]): Promise<Set<number>> {
  const venues = await db
    .selectFrom("venues")
    .select("venue_id")
    .where("company_id", "=", companyId)
    // one array parameter: the statement's text is the same for any number of ids
    .where("venue_id", "=", sql<number>`any(${venueIds}::bigint[])`)
    .execute();
  return new Set(venues.map((venue) => venue.venue_id));
}
