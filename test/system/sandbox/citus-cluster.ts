/**
 * The Citus cluster of a file of the sandbox's suites on Citus (./citus.1.test.ts, ./citus.2.test.ts):
 * a throwaway coordinator and two workers (../../support/citus.ts), started once for the file, so
 * that the files run side by side in different workers. Without Citus (scripts/citus.sh installs
 * it) the file's suites skip with a message; in CI they must run.
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import { type CitusCluster, citusAvailable, startCitus } from "../../support/citus.js";

/**
 * The bound of the suites that send a burst of one company's creates at once. A burst of 100
 * creates of one company takes 25 turns of its 4 slots (the bulkhead), and a create on three servers
 * sharing the machine's cores took about 100 ms here: its last turns come after the default bound of
 * 3 s, and would be answered 503, as the bound means them to be.
 */
export const BURST_BOUND_MS = 15_000;

/** Declares `suites` on a cluster started before them and stopped after, or a skip where there is no Citus. */
export function onCitusCluster(suites: (cluster: () => CitusCluster) => void): void {
  if (!citusAvailable("sandbox suites on Citus")) {
    describe("the sandbox on Citus", () => {
      it.skip("needs Citus (scripts/citus.sh installs it): see the message above", () => undefined);
    });
    return;
  }
  let cluster: CitusCluster | undefined;
  beforeAll(async () => {
    cluster = await startCitus();
  }, 120_000);
  afterAll(() => cluster?.stop());
  suites(() => {
    if (cluster === undefined) throw new Error("the Citus cluster did not start (see the error of beforeAll)");
    return cluster;
  });
}
