/**
 * `npm run sandbox:reset`: empties the sandbox's database (the one `npm start` uses, from the same
 * environment) and loads the seed again, in one transaction. A data directory in use by a running
 * sandbox is refused: stop it first.
 */
import { resetSandbox } from "./sandbox.js";
import { settingsFrom } from "./settings.js";

try {
  const done = await resetSandbox(settingsFrom(process.env));
  process.stdout.write(`${done}\n`);
} catch (error) {
  process.stderr.write(`sandbox:reset: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
