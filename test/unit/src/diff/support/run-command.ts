import { runDiffCommand } from "../../../../../src/commands/diff.js";
import { repoRoot } from "../../../../support/paths.js";

/** What a run of the command printed and returned. */
export interface CommandRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `spec:diff` in this process with the given arguments, in `cwd` (the repository by default). */
export async function runCommand(args: readonly string[], cwd = repoRoot): Promise<CommandRun> {
  let stdout = "";
  let stderr = "";
  const code = await runDiffCommand(args, { cwd, out: (text) => (stdout += text), err: (text) => (stderr += text) });
  return { code, stdout, stderr };
}
