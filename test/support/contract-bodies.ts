/** The contract's bodies as the tests send and check them: valid request bodies, and a problem answer checked. */
import { expect } from "vitest";
import { validateProblem } from "../../generated/validators/index.js";

/** The body of a problem answer, checked: status, media type, type URI, and the Problem schema. */
export async function expectProblem(
  response: Response,
  status: number,
  type: string,
): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json\b/);
  const problem = (await response.json()) as Record<string, unknown>;
  const verdict = validateProblem(problem, { allErrors: true });
  expect(verdict.errors ?? []).toEqual([]);
  expect(problem).toMatchObject({ type, status });
  expect(JSON.stringify(problem)).not.toMatch(/at .+\.(ts|js):\d+/);
  return problem;
}

/** A venue body valid against VenueCreate, with some fields replaced. */
export function venue(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: "Riverside Hall", address: "1 River Road", city: "Bristol", zip: "BS1 4DJ", saved: 1, ...overrides };
}

/** An event body valid against EventCreate, with some fields replaced. */
export function event(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: "Spring gala", date: "2024-04-20", venue: { venue_id: "318" }, ...overrides };
}
