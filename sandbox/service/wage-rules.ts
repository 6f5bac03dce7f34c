/** Wage rules: seeded, read through the API, named by payroll groups. */
import { wageRuleBodies } from "../store/records/wage-rules.js";
import type { ServiceContext } from "./context.js";
import type { Caller } from "./keys.js";

/** The caller's company's wage rules, as seeded, in the seed's order: `{ "data": [...] }`. */
export async function listWageRules(
  context: ServiceContext,
  caller: Caller,
): Promise<{ status: 200; body: { data: unknown[] } }> {
  return { status: 200, body: { data: await wageRuleBodies(context.db, caller.companyId) } };
}
