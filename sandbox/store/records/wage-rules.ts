/** The statements of wage rules: the company's list, as seeded, and whether a reference names one. */
import type { Db } from "../schema/database.js";

/** The company's wage rules as seeded, in the seed's order. */
export async function wageRuleBodies(db: Db, companyId: number): Promise<unknown[]> {
  const rows = await db
    .selectFrom("wage_rules")
    .select("body")
    .where("company_id", "=", companyId)
    .orderBy("position")
    .execute();
  return rows.map((row) => row.body);
}
