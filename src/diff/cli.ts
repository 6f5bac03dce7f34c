import { runDiffCommand } from "./command.js";

/** `npm run spec:diff`: the breaking-change report between two versions of the spec. */
runDiffCommand(process.argv.slice(2), {
  cwd: process.cwd(),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`internal error: spec:diff failed unexpectedly. Please report this with the two specs that caused it.\n${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 70;
  },
);
