/**
 * A process that only takes a data directory's lock (../../sandbox/store/engine/directory-lock.ts), for
 * the lock's tests: no database, so that many can start cheaply. `node lock-holder.mjs <dir> hold`
 * takes the lock at once and keeps it until killed; `... <dir> serve` takes it on each line "take"
 * read from stdin, lets it go on "release", and ends with stdin (keeping a lock it holds: the lock
 * does not keep a process alive, so it exits). Each outcome is one line on stdout: `held <pid>`,
 * `refused <message>` or `released`.
 */
import { createInterface } from "node:readline";
import { type DirectoryLock, lockDirectory } from "../../../sandbox/store/engine/directory-lock.js";

const [, , directory = "", mode = "hold"] = process.argv;
let lock: DirectoryLock | undefined;

async function take(): Promise<boolean> {
  try {
    lock = await lockDirectory(directory);
    process.stdout.write(`held ${process.pid}\n`);
    return true;
  } catch (error) {
    process.stdout.write(`refused ${error instanceof Error ? error.message : String(error)}\n`);
    return false;
  }
}

if (mode === "hold") {
  // the lock's socket does not keep a process alive; this timer does, until the process is killed
  setInterval(() => undefined, 60_000);
  if (!(await take())) process.exit(1);
} else {
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === "take") await take();
    if (line === "release") {
      await lock?.release();
      lock = undefined;
      process.stdout.write("released\n");
    }
  }
}
