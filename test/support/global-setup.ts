/**
 * Before any test: the built generator (lib/) is brought up to date with src/, once, so that the
 * tests that run its commands as processes (commands.ts) never build it two at a time.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { repoRoot } from "./paths.js";

export function setup(): void {
  const build = spawnSync(process.execPath, [join(repoRoot, "scripts", "run-built.mjs"), "--build"], {
    cwd: repoRoot,
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error("the generator does not build (tsc output above)");
}
