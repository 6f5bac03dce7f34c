#!/usr/bin/env node
/**
 * Runs one of the generator's commands from lib/ (`node scripts/run-built.mjs cli.js --check`),
 * building lib/ first only when it is older than its sources. The check reads the times of src/ and
 * runtime/ (files and folders, so a deleted file counts) and of the TypeScript configuration: a few
 * milliseconds, where a `tsc -b` that finds nothing to do costs over half a second.
 * `--build` builds when needed and runs nothing (npm's `prepare`, after install).
 *
 * runtime/ is read as it is on every run, and its modules the generator imports (the validators'
 * helpers, whose functions it calls, the media and route types) are built into lib/runtime/ beside
 * lib/src/: runtime/ is a source of lib/ too.
 */
import { spawnSync } from "node:child_process";
import { utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { builtAt, newestSource } from "./build-stamp.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const lib = join(root, "lib");
// written after each successful build: lib/ is current as of its time
const stamp = join(lib, ".built");
const configs = ["tsconfig.json", "tsconfig.generator.json"].map((name) => join(root, name));

/** The latest modification time among the sources of lib/ (src/ and runtime/), in milliseconds. */
function newestLibSource() {
  return newestSource(configs, [join(root, "src"), join(root, "runtime")]);
}

/** Builds lib/ when a source is newer than the last build; exits with tsc's status when it fails. */
async function buildWhenStale() {
  if (builtAt(stamp) >= newestLibSource()) return;
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const started = Date.now();
  const result = spawnSync(process.execPath, [tsc, "-b", "tsconfig.generator.json"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(
      "the generator does not compile (tsc -b tsconfig.generator.json failed above): fix src/ and run the command again",
    );
    process.exit(result.status ?? 1);
  }
  writeFileSync(stamp, `built from src/ in ${Date.now() - started} ms\n`);
  // dated when the build began: a source saved during the build makes the next run build again
  utimesSync(stamp, started / 1000, started / 1000);
}

const [command, ...rest] = process.argv.slice(2);
if (command === undefined) {
  console.error("usage: node scripts/run-built.mjs <command in lib/src/, e.g. cli.js> [arguments] | --build");
  process.exit(2);
}
await buildWhenStale();
if (command !== "--build") {
  // the command reads its arguments from process.argv, as when started directly
  const entry = join(lib, "src", command);
  process.argv = [process.argv[0] ?? process.execPath, entry, ...rest];
  await import(pathToFileURL(entry).href);
}
