/** `npm run generate`: the generator's command (see generate-cli.ts), run as a process. */
import { main } from "./generate-cli.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`internal error: the generator failed unexpectedly. Please report this with the spec that caused it.\n${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 70;
  },
);
