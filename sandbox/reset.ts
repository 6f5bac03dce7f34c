/**
 * `npm run sandbox:reset`: empties the sandbox's database (the one `npm start` uses, from the same
 * environment) and loads the seed again, in one transaction. On a data directory a sandbox is
 * running on, that sandbox does it, asked through the directory's lock, and goes on serving.
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
