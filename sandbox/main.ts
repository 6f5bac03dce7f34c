/**
 * `npm start`: the sandbox as a service, on PGlite in `.data/sandbox` by default (see ./settings.ts
 * for the environment and the command line it reads: `npm start -- --port 4000`). Each step of a
 * start that can take seconds (a new database, a new data directory, migrating, loading the seed)
 * is said on stderr as it begins. It prints where it listens, where the data is, the demo keys
 * when it runs on the demo seed, the keys API_KEYS adds, and a seed file it did not load because
 * the database already held data. A setting it cannot use, a port in use or a database it cannot
 * reach stops it with one line saying what to do. It logs readable lines on a terminal and JSON
 * lines on a pipe (the package's `loggerFor`). SIGINT and SIGTERM close it cleanly: the requests
 * in flight are answered, the database is closed (PGlite writes its checkpoint) and the directory
 * is let go.
 */
import { loggerFor, startFailure } from "workforce-scheduling-api/server";
import { createSandbox, type Sandbox, type SandboxOptions } from "./sandbox.js";
import { DEMO_SEED, seedKeys } from "./seed/seed.js";
import { settingsFrom, USAGE } from "./settings.js";

const argv = process.argv.slice(2);
if (argv.includes("--help")) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

let sandbox: Sandbox;
let settings: SandboxOptions;
try {
  settings = settingsFrom(process.env, argv);
  const onProgress = (step: string): void => void process.stderr.write(`${step}\n`);
  sandbox = await createSandbox({ ...settings, logger: await loggerFor(process.stdout), onProgress });
} catch (error) {
  process.stderr.write(`npm start: ${startFailure(error, "npm start")}\n`);
  process.exit(1);
}

const lines = [
  `Sandbox listening at ${sandbox.url} (reference: ${sandbox.origin}/docs)`,
  `Data: ${sandbox.description}`,
];
if (sandbox.seed === DEMO_SEED) {
  lines.push("Demo seed. Keys:");
  for (const { key, company, companyId, holder, personnelId } of seedKeys(DEMO_SEED))
    lines.push(`  X-API-KEY: ${key}   (${company}, company ${companyId}; caller ${holder}, person ${personnelId})`);
}
const extraKeys = settings.apiKeys?.length ?? 0;
const firstKey = sandbox.seed.companies[0]?.api_keys[0]?.key;
if (extraKeys > 0 && firstKey !== undefined)
  lines.push(`API_KEYS: ${extraKeys} more ${extraKeys === 1 ? "key" : "keys"} accepted, each calling as ${firstKey}`);
if (typeof settings.seed === "string" && !sandbox.seeded)
  lines.push(
    `SANDBOX_SEED ${settings.seed} was not loaded: the database holds other data, kept as it is; to replace it with the seed, run npm run sandbox:reset with the same settings`,
  );
process.stdout.write(`${lines.join("\n")}\n`);

for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void shutdown(signal));

/** Stops taking requests, answers those in flight, closes the database, then exits (forced after 10 s). */
async function shutdown(signal: string): Promise<void> {
  sandbox.server.log.info(`${signal} received: closing`);
  setTimeout(() => process.exit(1), 10_000).unref();
  try {
    await sandbox.close();
    process.exit(0);
  } catch (error) {
    process.stderr.write(`closing failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
