/** Wage rules: seeded, read through the API, named by payroll groups. */
import type { ServiceContext } from "./context.js";
import type { Caller } from "./keys.js";

/** The caller's company's wage rules, as seeded, in the seed's order: `{ "data": [...] }`. */
export async function listWageRules(
  context: ServiceContext,
  caller: Caller,
): Promise<{ status: 200; body: { data: unknown[] } }> {
  const rows = await context.db
    .selectFrom("wage_rules")
    .select("body")
    .where("company_id", "=", caller.companyId)
    .orderBy("position")
    .execute();
  return { status: 200, body: { data: rows.map((row) => row.body) } };
}
