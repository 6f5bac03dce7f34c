/** Payroll groups: created through the API, naming a wage rule and venues of the company. */
import { sql } from "kysely";
import type { PayrollGroup, PayrollGroupCreate } from "workforce-scheduling-api";
import type { ServiceContext } from "./context.js";
import { timestampText } from "./dates.js";
import { insertWithNextId } from "./ids.js";
import type { Caller } from "./keys.js";
import { type Refusal, recordNumber, unprocessable } from "./refusals.js";

const SCHEMA = "#/components/schemas/PayrollGroupCreate/properties";

/** A decimal number as the request's `invoice_cost` string may write it ("18.50", "-2", "1e3"). */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Stores a payroll group and answers it: its id the company's next, `invoice_cost` as a number,
 * `deleted` 0, the flags false, `insert_date` now. 422 when a reference names nothing of the company or the cost is no number.
 */
export async function createPayrollGroup(
  context: ServiceContext,
  caller: Caller,
  body: PayrollGroupCreate,
): Promise<{ status: 200; body: PayrollGroup } | ReturnType<typeof unprocessable>> {
  const companyId = caller.companyId;
  return context.db.transaction().execute(async (tx) => {
    const refusals: Refusal[] = [];
    const cost = body.invoice_cost === undefined ? null : decimal(body.invoice_cost);
    if (cost === undefined) {
      refusals.push({
        instancePath: "/invoice_cost",
        schemaPath: `${SCHEMA}/invoice_cost`,
        keyword: "number",
        resource: "decimal number",
        value: body.invoice_cost,
        says: "is not a decimal number",
      });
    }
    if (body.wage_rules_id !== undefined) {
      const rule = await tx
        .selectFrom("wage_rules")
        .select("rule_id")
        .where("company_id", "=", companyId)
        .where("rule_id", "=", body.wage_rules_id)
        .executeTakeFirst();
      if (rule === undefined) {
        refusals.push({
          instancePath: "/wage_rules_id",
          schemaPath: `${SCHEMA}/wage_rules_id`,
          keyword: "reference",
          resource: "wage rule",
          value: body.wage_rules_id,
          says: "names no wage rule of this company",
        });
      }
    }
    const locations = body.locations ?? [];
    const numbers = locations.map(recordNumber).filter((n): n is number => n !== undefined);
    const venues =
      numbers.length === 0
        ? []
        : await tx
            .selectFrom("venues")
            .select("venue_id")
            .where("company_id", "=", companyId)
            // one array parameter: the statement's text is the same for any number of locations
            .where("venue_id", "=", sql<number>`any(${numbers}::bigint[])`)
            .execute();
    const known = new Set(venues.map((venue) => venue.venue_id));
    locations.forEach((location, index) => {
      const venueId = recordNumber(location);
      if (venueId !== undefined && known.has(venueId)) return;
      refusals.push({
        instancePath: `/locations/${index}`,
        schemaPath: `${SCHEMA}/locations/items`,
        keyword: "reference",
        resource: "venue",
        value: location,
        says: "names no venue of this company",
      });
    });
    if (refusals.length > 0) return unprocessable(refusals);
    const row = await insertWithNextId(tx, companyId, "last_payroll_group_id", "payroll_groups", "id", {
      company_id: companyId,
      name: body.name ?? null,
      payroll_item_id: body.payroll_item_id ?? null,
      invoice_cost: cost ?? null,
      default_wage: null,
      insert_date: timestampText(context.now()),
      wage_rules_id: body.wage_rules_id ?? null,
      group_rows: [...(body.group_rows ?? [])],
      locations: [...locations],
      location_all: body.locationAll ?? null,
    })
      .returningAll()
      .executeTakeFirstOrThrow();
    const group: PayrollGroup = {
      id: String(row.id),
      ...(row.name === null ? {} : { name: row.name }),
      ...(row.payroll_item_id === null ? {} : { payroll_item_id: row.payroll_item_id }),
      default_wage: row.default_wage,
      insert_date: row.insert_date,
      invoice_cost: row.invoice_cost,
      deleted: row.deleted,
      ...(row.wage_rules_id === null ? {} : { wage_rules_id: row.wage_rules_id }),
      group_rows: row.group_rows,
      locations: row.locations,
      pending: row.pending,
      updateError: row.update_error,
      deleteError: row.delete_error,
    };
    return { status: 200 as const, body: group };
  });
}

/** The number a decimal string writes, or undefined when it writes none (or an infinite one). */
function decimal(text: string): number | undefined {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}
