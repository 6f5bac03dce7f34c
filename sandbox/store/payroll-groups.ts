/** The statements of payroll groups: the insert, its id the company's next. */
import type { Selectable } from "kysely";
import type { Database, Db } from "./database.js";
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

/** Inserts a payroll group of the company, its id the company's next: the row as stored. */
export function insertPayrollGroup(db: Db, companyId: number, group: NewPayrollGroup): Promise<PayrollGroupRow> {
  return insertWithNextId(db, companyId, "last_payroll_group_id", "payroll_groups", "id", {
    company_id: companyId,
    name: group.name,
    payroll_item_id: group.payroll_item_id,
    invoice_cost: group.invoice_cost,
    default_wage: group.default_wage,
    insert_date: group.insert_date,
    wage_rules_id: group.wage_rules_id,
    group_rows: [...group.group_rows],
    locations: [...group.locations],
    location_all: group.location_all,
  })
    .returningAll()
    .executeTakeFirstOrThrow();
}
