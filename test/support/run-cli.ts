import type { ChildProcess } from "node:child_process";
import { runGenerateCommand } from "../../src/commands/generate.js";
import { type CommandResult, runBuiltCommand, spawnCommand } from "./commands.js";

export type CliResult = CommandResult;

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

/** Runs the generator's CLI as a process, as `npm run generate` does. */
export function runCli(args: readonly string[]): Promise<CliResult> {
  return runBuiltCommand("cli.js", args);
}

/** Starts the generator's CLI as a process, as `npm run generate` does. */
export function spawnCli(args: readonly string[]): ChildProcess {
  return spawnCommand("cli.js", args);
}
