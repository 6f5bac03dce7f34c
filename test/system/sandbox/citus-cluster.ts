/**
 * The Citus cluster of a file of the sandbox's suites on Citus (./citus.1.test.ts, ./citus.2.test.ts):
 * a database of the file's own on the run's coordinator and two workers (started once for the run,
 * ../../support/shared-postgres.ts), its workers joined there (../../support/citus.ts's
 * `citusDatabase`), so that the files run side by side in different workers, each on a cluster of
 * its own, and start no servers but a worker a file adds. Without Citus (scripts/citus.sh installs
 * it) the file's suites skip with a message; in CI they must run.
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import { type CitusCluster, type CitusNode, citusAvailable, citusDatabase } from "../../support/citus.js";
import { postgresTemplate, sharedCitus } from "../../support/shared-postgres.js";

/**
 * The bound of the suites that send a burst of one company's creates at once. A burst of 100
 * creates of one company takes 25 turns of its 4 slots (the bulkhead, while another company is
 * served; 13 of its 8 alone), and a create on three servers sharing the machine's cores took about
 * 100 ms here: its last turns come after the default bound of 3 s, and would be answered 503, as the
 * bound means them to be.
 */
export const BURST_BOUND_MS = 15_000;

/**
 * Declares `suites` on a cluster of their own in a new database named from `name` (made before them;
 * a worker they add is stopped after), or a skip where there is no Citus.
 */
export function onCitusCluster(name: string, suites: (cluster: () => CitusCluster<CitusNode>) => void): void {
  if (!citusAvailable("sandbox suites on Citus")) {
    describe("the sandbox on Citus", () => {
      it.skip("needs Citus (scripts/citus.sh installs it): see the message above", () => undefined);
    });
    return;
  }
  let cluster: CitusCluster<CitusNode> | undefined;
  beforeAll(async () => {
    // a new database each time the file runs (the run's nodes outlive a file run again in watch mode)
    cluster = await citusDatabase(await sharedCitus(), `${name}_${Date.now().toString(36)}`, await postgresTemplate());
  }, 120_000);
  afterAll(() => cluster?.stop());
  suites(() => {
    if (cluster === undefined) throw new Error("the Citus cluster did not start (see the error of beforeAll)");
    return cluster;
  });
}
