/**
 * `npm run sandbox:kill-test [rounds]`: the kill test at full size (20 rounds by default) on a
 * temporary PGlite data directory: rounds of `kill -9` during concurrent writes, each restarting on
 * the same directory; prints each round and the figures, and exits 1 when a write was lost.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { makeTempDir } from "../test/support/paths.js";
import { runKillRounds } from "../test/system/sandbox/kill-rounds.js";

const rounds = Number(process.argv[2] ?? "20");
const dir = await makeTempDir("sandbox-kill");
try {
  const started = Date.now();
  const figures = await runKillRounds(rounds, join(dir, "data"), (line) => console.log(line));
  console.log(
    `${figures.rounds} rounds in ${((Date.now() - started) / 1000).toFixed(0)} s: ${figures.acknowledgedCreates} creates and ${figures.acknowledgedEdits} edits acknowledged; ` +
      `${figures.found} of ${figures.acknowledgedCreates} acknowledged events found with their acknowledged names; the directory opened ${figures.opens} times of ${figures.rounds + 1}`,
  );
  for (const line of figures.lost) console.log(`LOST ${line}`);
  process.exitCode = figures.lost.length === 0 ? 0 : 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
