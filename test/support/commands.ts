/**
 * The generator's commands run as processes, as `npm run generate` and `npm run spec:diff` run
 * them: the built generator (lib/, through scripts/run-built.mjs), which the tests' global setup
 * (global-setup.ts) has built from src/ before any test runs.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { repoRoot } from "./paths.js";

/** A command of lib/: the generator's (`cli.js`) or the spec diff's (`diff/cli.js`). */
export type BuiltCommand = "cli.js" | "diff/cli.js";

/** Starts a command of lib/ in the repository root, its output piped. */
export function spawnCommand(command: BuiltCommand, args: readonly string[]): ChildProcess {
  return spawn(process.execPath, [join(repoRoot, "scripts", "run-built.mjs"), command, ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** What a finished command printed, and its exit code. */
export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command of lib/ to its end. */
export function runBuiltCommand(command: BuiltCommand, args: readonly string[]): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCommand(command, args);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
