import { type ChildProcess, spawn } from "node:child_process";
import { runGenerateCommand } from "../../src/commands/generate.js";
import { repoRoot } from "../support/paths.js";

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the generator's command in this process (as `npm run generate` would, minus the process). */
export async function runCommand(args: readonly string[]): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await runGenerateCommand(args, {
    cwd: process.cwd(),
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}

/** Runs the generator's CLI (from source) as a process, in the repository root. */
export function runCli(args: readonly string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export function spawnCli(args: readonly string[]): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", "src/cli.ts", ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
}
