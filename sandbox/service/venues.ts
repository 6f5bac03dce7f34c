/** Venues: created by the API, and named by events, credentials and payroll groups. */
import type { Venue, VenueCreate } from "workforce-scheduling-api";
import { insertVenue } from "../store/records/venues.js";
import type { ServiceContext } from "./context.js";
import type { Caller } from "./keys.js";

/**
 * Stores a venue of the caller's company and answers it with its new `venue_id`, the company's
 * next (`saved` defaults to 0). One transaction: the company's counter, then the insert.
 */
export async function createVenue(
  context: ServiceContext,
  caller: Caller,
  body: VenueCreate,
): Promise<{ status: 200; body: Venue }> {
  const row = await insertVenue(context.db, caller.companyId, {
    name: body.name,
    address: body.address,
    city: body.city,
    zip: body.zip,
    saved: body.saved ?? 0,
  });
  return { status: 200, body: row };
}
