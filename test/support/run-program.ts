/** Programs run to their end, with what they printed: any program, or a command of the repository's lib/. */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "./paths.js";

const execFileAsync = promisify(execFile);

/** What a program printed, and how it ended. */
export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a program to its end within `ms`, never rejecting on a non-zero exit. */
export async function runProgram(
  file: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; ms?: number },
): Promise<Run> {
  try {
    const { stdout, stderr } = await execFileAsync(file, [...args], {
      cwd: options.cwd,
      env: options.env,
      timeout: options.ms ?? 300_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string; killed?: boolean };
    const code = typeof failed.code === "number" ? failed.code : 1;
    const note = failed.killed === true ? `\n(stopped after ${options.ms ?? 300_000} ms)` : "";
    return { code, stdout: failed.stdout ?? "", stderr: `${failed.stderr ?? ""}${note}` };
  }
}

/** Runs a command of the repository's lib/ (`cli.js`, `release/cli.js`) in `cwd`. */
export function runLib(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return runProgram(process.execPath, [join(repoRoot, "lib", "src", command), ...args], { cwd, env, ms: 600_000 });
}
