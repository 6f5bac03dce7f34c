/**
 * The kill test at a size that keeps `npm test` fast (2 rounds); `npm run sandbox:kill-test` runs
 * it at full size (20 rounds). See ./kill-rounds.ts.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { makeTempDir } from "../../support/paths.js";
import { runKillRounds } from "./kill-rounds.js";

let dir: string | undefined;
afterAll(() => (dir === undefined ? undefined : rm(dir, { recursive: true, force: true })));

it("loses no acknowledged write over 2 rounds of kill -9 during concurrent writes, and always reopens", async () => {
  dir = await makeTempDir("sandbox-kill");
  const figures = await runKillRounds(2, join(dir, "data"));
  process.stdout.write(`kill test: ${JSON.stringify(figures)}\n`);
  expect(figures.lost).toEqual([]);
  expect(figures.opens).toBe(3);
  expect(figures.acknowledgedCreates).toBeGreaterThanOrEqual(30);
  expect(figures.acknowledgedEdits).toBeGreaterThanOrEqual(4);
  expect(figures.found).toBe(figures.acknowledgedCreates);
}, 120_000);
