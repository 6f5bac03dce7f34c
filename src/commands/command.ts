import { setFlagsFromString } from "node:v8";

/** Where a command writes (its standard output and standard error), and the folder it runs in. */
export interface CommandIo {
  readonly cwd: string;
  out(text: string): void;
  err(text: string): void;
}

/** A command: its arguments and where it writes; resolves with its exit code. */
export type Command = (argv: readonly string[], io: CommandIo) => Promise<number>;

/** The process's own streams and working folder. */
export function processIo(): CommandIo {
  return {
    cwd: process.cwd(),
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
  };
}

/**
 * The V8 option that has a process optimise a function after about 15 times the use V8 waits for
 * by default, on the Node versions whose V8 is known to take it, or undefined. A command runs for
 * a second or a few, most of its code a few times, and V8's optimising compiler spent about a
 * quarter of a generation's CPU on code that had little left to run once optimised (`npm run
 * generate` of OpenAI's document: 2.27 s before, 1.89 s after; docs/benchmarks.md, "Generation").
 * Each V8 counts use its way: Node 20's the bytecode run between two checks (`--interrupt-budget`,
 * 67,584 by default), Node 22's and 24's the calls (`--invocation-count-for-turbofan`, 3,000).
 */
export function laterOptimisationFlag(nodeVersion: string): string | undefined {
  const major = Number(nodeVersion.replace(/^v/, "").split(".")[0]);
  if (major === 20) return "--interrupt-budget=1048576";
  if (major === 22 || major === 24) return "--invocation-count-for-turbofan=45000";
  return undefined;
}

/**
 * Runs a command as this process: its arguments, its streams, its exit code. An error the command
 * did not expect ends it with exit code 70 and a request to report it, with `evidence` (what the
 * report needs, such as "the spec that caused it"). V8 optimises later in it (`laterOptimisationFlag`).
 */
export function runAsProcess(command: Command, name: string, evidence: string): void {
  const flag = laterOptimisationFlag(process.version);
  if (flag !== undefined) setFlagsFromString(flag);
  command(process.argv.slice(2), processIo()).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `internal error: ${name} failed unexpectedly. Please report this with ${evidence}.\n${(error as Error).stack ?? String(error)}\n`,
      );
      process.exitCode = 70;
    },
  );
}
