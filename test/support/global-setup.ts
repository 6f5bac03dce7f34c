/**
 * Once per test run, around every test: before, the built generator (lib/) is brought up to date
 * with src/, so that the tests that run its commands as processes (commands.ts) never build it two
 * at a time; the folder the run's bundles go in (bundle.ts) is given to the workers, and removed
 * after the run; and every temporary folder the run's tests make (paths.ts's `makeTempDir`) is made
 * in one folder of the run's, removed after it too. Many tests leave theirs (the package's consumer
 * project alone is about 19 MB a run), and they piled up in the system's temporary folder.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { repoRoot, TEMP_ROOT_VARIABLE } from "./paths.js";

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
  // traversable by the users the tests run processes as (PostgreSQL's, nobody), listed by none of
  // them; the workers and the processes they start find it in their environment
  const tempRoot = mkdtempSync(join(tmpdir(), "suite-"));
  chmodSync(tempRoot, 0o711);
  process.env[TEMP_ROOT_VARIABLE] = tempRoot;
  return () => {
    rmSync(bundleRoot, { recursive: true, force: true });
    // after the PostgreSQL server's teardown (./postgres-setup.ts, set up after this file), whose
    // cluster is in it
    rmSync(tempRoot, { recursive: true, force: true, maxRetries: 3 });
    delete process.env[TEMP_ROOT_VARIABLE];
  };
}
