/**
 * Once per test run, around every test: before, the built generator (lib/) is brought up to date
 * with src/, so that the tests that run its commands as processes (commands.ts) never build it two
 * at a time; the folder the run's bundles go in (bundle.ts) is given to the workers, and removed
 * after the run.
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { repoRoot } from "./paths.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** where the workers of this run write their bundles (bundle.ts) */
    bundleRoot: string;
  }
}

export function setup(project: TestProject): () => void {
  const build = spawnSync(process.execPath, [join(repoRoot, "scripts", "run-built.mjs"), "--build"], {
    cwd: repoRoot,
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error("the generator does not build (tsc output above)");
  const bundleRoot = join(repoRoot, ".tmp", `bundles-${process.pid}`);
  project.provide("bundleRoot", bundleRoot);
  return () => rmSync(bundleRoot, { recursive: true, force: true });
}
