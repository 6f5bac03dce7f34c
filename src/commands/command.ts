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
 * Runs a command as this process: its arguments, its streams, its exit code. An error the command
 * did not expect ends it with exit code 70 and a request to report it, with `evidence` (what the
 * report needs, such as "the spec that caused it").
 */
export function runAsProcess(command: Command, name: string, evidence: string): void {
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
