/**
 * The storm of hostile requests (test/system/mock-server/storm.test.ts) aimed at the sandbox, in this process
 * on an in-memory database (so it shares the test worker's embedded engine), seeded with the
 * storm's key: the same rules (no 5xx, every
 * error a problem whose status is the HTTP status, no invalid request answered 2xx), with the
 * sandbox's own answers to valid requests (404 for the storm's made-up IDs, 422 for its made-up
 * references) allowed where the mock answers 2xx. Afterwards the data must be consistent: the event
 * list is valid, its count exact, and it holds exactly the events the storm's 201s created.
 * A quarter of the storm's cases of each kind are sent (over 1,500): the mock takes them all, and
 * most never reach a handler.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateEventList } from "../../../generated/validators/index.js";
import { createSandbox, type Sandbox, type Seed } from "../../../sandbox/index.js";
import { stormCases } from "../mock-server/storm/plan.js";
import { runStorm, type StormResult } from "../mock-server/storm/run.js";
import { STORM_KEY } from "../mock-server/storm/wire.js";

let sandbox: Sandbox;
let results: StormResult[] = [];

/** The storm's key, held by a person of company 1; the storm's own IDs name nothing, so most valid requests get 404 or 422. */
const SEED: Seed = {
  companies: [
    {
      company_id: 1,
      name: "Storm",
      api_keys: [{ key: STORM_KEY, personnel_id: 1042 }],
      personnel: [{ personnel_id: 1042, name: "Sam Lee" }],
      clients: [{ id: "HARBOR42", client_name: "Harbor Events Ltd" }],
      credential_types: [{ credentials_id: "3", name: "Forklift licence" }],
      wage_rules: [{ id: "7", name: "Weekend" }],
      venues: [{ venue_id: 318, name: "Riverside Hall", address: "1 River Road", city: "Bristol", zip: "BS1 4DJ" }],
    },
  ],
};

beforeAll(async () => {
  sandbox = await createSandbox({ seed: SEED });
  // the mock's successes are the sandbox's successes or its own refusals: no status is expected of them
  const cases = stormCases()
    .filter((_, index) => index % 4 === 0)
    .map((stormCase) =>
      stormCase.status !== undefined && stormCase.status < 300 ? { ...stormCase, status: undefined } : stormCase,
    );
  results = await runStorm(Number(new URL(sandbox.url).port), cases, { handlersTell: false });
}, 180_000);

afterAll(() => sandbox?.close());

describe("the storm aimed at the sandbox", () => {
  it("breaks no rule of the contract", () => {
    const broken = results
      .filter((result) => result.violations.length > 0)
      .map(
        (result) =>
          `${result.case.category} / ${result.case.label}: ${result.violations.join("; ")} [answers ${result.statuses.join(", ")}]`,
      );
    expect(results.length).toBeGreaterThan(1500);
    expect(new Set(results.map((result) => result.case.category)).size).toBe(16);
    expect(broken.slice(0, 20)).toEqual([]);
  });

  it("answers valid requests with successes and with its own refusals", () => {
    const statuses = new Map<number, number>();
    for (const result of results)
      for (const status of result.statuses) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    process.stdout.write(
      `sandbox storm answers: ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}×${n}`)
        .join(", ")}\n`,
    );
    expect(statuses.get(201) ?? 0).toBeGreaterThan(10);
    expect(statuses.get(404) ?? 0).toBeGreaterThan(50);
    expect(statuses.get(422) ?? 0).toBeGreaterThan(10);
  });

  it("leaves the data consistent: the list valid, its count exact, and every event a 201 created", async () => {
    const response = await fetch(`${sandbox.url}/events`, { headers: { "x-api-key": STORM_KEY } });
    const list = (await response.json()) as { data: { id: number }[]; total_count: number };
    expect(validateEventList(list).valid).toBe(true);
    const ids = list.data.map((event) => event.id);
    expect(list.total_count).toBe(ids.length);
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
    const created = results.reduce((sum, result) => sum + result.statuses.filter((status) => status === 201).length, 0);
    expect(ids.length).toBe(created);
  });
});
