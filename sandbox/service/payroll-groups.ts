/** Payroll groups: created through the API, naming a wage rule and venues of the company. */
import type { PayrollGroup, PayrollGroupCreate } from "workforce-scheduling-api";
import { insertPayrollGroup, type PayrollGroupRow } from "../store/records/payroll-groups.js";
import { recordExists } from "../store/records/records.js";
import { venueIdsOf } from "../store/records/venues.js";
import type { Db } from "../store/schema/database.js";
import type { ServiceContext } from "./context.js";
import { timestampText } from "./dates.js";
import type { Caller } from "./keys.js";
import { asSent, checkReferences, oneByOne, type Reference, referenceOf } from "./references.js";
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
    const cost = body.invoice_cost === undefined ? null : decimal(body.invoice_cost);
    const refusals = [...costRefusals(body.invoice_cost, cost), ...(await unknownReferences(tx, companyId, body))];
    if (refusals.length > 0) return unprocessable(refusals);
    const row = await insertPayrollGroup(tx, companyId, {
      name: body.name ?? null,
      payroll_item_id: body.payroll_item_id ?? null,
      invoice_cost: cost ?? null,
      default_wage: null,
      insert_date: timestampText(context.now()),
      wage_rules_id: body.wage_rules_id ?? null,
      group_rows: body.group_rows ?? [],
      locations: body.locations ?? [],
      location_all: body.locationAll ?? null,
    });
    return { status: 200 as const, body: payrollGroupRecord(row) };
  });
}

/** The refusal of an `invoice_cost` sent that writes no decimal number (`cost` undefined). */
function costRefusals(sent: string | undefined, cost: number | null | undefined): Refusal[] {
  if (cost !== undefined) return [];
  return [
    {
      instancePath: "/invoice_cost",
      schemaPath: `${SCHEMA}/invoice_cost`,
      keyword: "number",
      resource: "decimal number",
      value: sent,
      says: "is not a decimal number",
    },
  ];
}

/** A refusal for the wage rule, then each of the locations, that names no record of the company. */
async function unknownReferences(db: Db, companyId: number, body: PayrollGroupCreate): Promise<Refusal[]> {
  const rules = await checkReferences(
    referenceOf(WAGE_RULE_REFERENCE, body.wage_rules_id, asSent),
    oneByOne((id: string) => recordExists(db, "wage_rules", companyId, id)),
  );
  const locations: Reference<number>[] = (body.locations ?? []).map((location, index) => ({
    instancePath: `/locations/${index}`,
    schemaPath: `${SCHEMA}/locations/items`,
    resource: "venue",
    value: location,
    key: recordNumber(location),
  }));
  // the venues of all the locations in one read (../store/records/venues.ts)
  const venues = await checkReferences(locations, (ids) => venueIdsOf(db, companyId, ids));
  return [...rules.refusals, ...venues.refusals];
}

const WAGE_RULE_REFERENCE = {
  instancePath: "/wage_rules_id",
  schemaPath: `${SCHEMA}/wage_rules_id`,
  resource: "wage rule",
};

/** The payroll group record of a stored row: fields never set are left out. */
function payrollGroupRecord(row: PayrollGroupRow): PayrollGroup {
  return {
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
}

/** The number a decimal string writes, or undefined when it writes none (or an infinite one). */
function decimal(text: string): number | undefined {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}
