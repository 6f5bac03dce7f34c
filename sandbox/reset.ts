/**
 * `npm run sandbox:reset`: empties the sandbox's database (the one `npm start` uses, from the same
 * environment) and loads the seed again, in one transaction. On a data directory a sandbox is
 * running on, that sandbox does it, asked through the directory's lock, and goes on serving. It
 * takes no options: the environment says which database.
 */
import { commandLineOf } from "workforce-scheduling-api/server";
import { resetSandbox } from "./sandbox.js";
import { settingsFrom } from "./settings.js";

try {
  if (commandLineOf(process.argv.slice(2), "npm run sandbox:reset", []).help !== undefined) {
    process.stdout.write(
      "npm run sandbox:reset: empties the sandbox's database and loads the seed again; it takes no options, the environment says which database (docs/sandbox.md#running-it)\n",
    );
    process.exit(0);
  }
  const done = await resetSandbox(settingsFrom(process.env));
  process.stdout.write(`${done}\n`);
} catch (error) {
  process.stderr.write(`sandbox:reset: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
