/** The statements of payroll groups: the insert, its id the company's next. */
import type { Selectable } from "kysely";
import type { Database, Db } from "../schema/database.js";
import { insertWithNextId } from "./ids.js";

/** A payroll group as stored. */
export type PayrollGroupRow = Selectable<Database["payroll_groups"]>;

/** The columns a new payroll group is given (the others take their defaults). */
export interface NewPayrollGroup {
  readonly name: string | null;
  readonly payroll_item_id: string | null;
  readonly invoice_cost: number | null;
  readonly default_wage: number | null;
  readonly insert_date: string;
  readonly wage_rules_id: string | null;
  readonly group_rows: readonly string[];
  readonly locations: readonly string[];
  readonly location_all: boolean | null;
}

/**
 * The columns read back from a new payroll group: all but its lists, which are stored as they
 * are sent (a `text[]` holds each string exactly) and answered from what was sent, rather than
 * read back: a group may list 150,000 locations.
 */
const READ_BACK = [
  "company_id",
  "id",
  "name",
  "payroll_item_id",
  "invoice_cost",
  "default_wage",
  "insert_date",
  "deleted",
  "wage_rules_id",
  "location_all",
  "pending",
  "update_error",
  "delete_error",
] as const satisfies readonly Exclude<keyof PayrollGroupRow, "group_rows" | "locations">[];

/** Inserts a payroll group of the company, its id the company's next: the row as stored. */
export async function insertPayrollGroup(db: Db, companyId: number, group: NewPayrollGroup): Promise<PayrollGroupRow> {
  const group_rows = [...group.group_rows];
  const locations = [...group.locations];
  const row = await insertWithNextId(
    db,
    companyId,
    "last_payroll_group_id",
    { table: "payroll_groups", idColumn: "id", returned: READ_BACK },
    {
      company_id: companyId,
      name: group.name,
      payroll_item_id: group.payroll_item_id,
      invoice_cost: group.invoice_cost,
      default_wage: group.default_wage,
      insert_date: group.insert_date,
      wage_rules_id: group.wage_rules_id,
      group_rows,
      locations,
      location_all: group.location_all,
    },
  );
  return { ...row, group_rows, locations };
}
