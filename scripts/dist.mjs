#!/usr/bin/env node
/**
 * The package's built form, dist/: generated/ compiled by tsconfig.build.json, then the sandbox
 * by tsconfig.sandbox.json (against dist/'s declarations, as a user of the package compiles).
 *
 *   node scripts/dist.mjs build            builds dist/ from scratch (npm run build, npm pack)
 *   node scripts/dist.mjs run <file> [...]  builds dist/ only when a source is newer than the last
 *                                          build, then runs dist/<file> in this process (npm start)
 *
 * Running the built JavaScript instead of the TypeScript through a loader makes a start about
 * twice as fast: the sandbox's query layer alone is 280 modules.
 */
import { spawnSync } from "node:child_process";
import { rmSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { builtAt, newestSource } from "./build-stamp.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
const stamp = join(dist, ".built");
const SOURCES = ["generated", "sandbox"];
const CONFIGS = ["tsconfig.json", "tsconfig.build.json", "tsconfig.sandbox.json"];

/** Builds dist/ from scratch; exits with tsc's status when it fails. */
function build() {
  const started = Date.now();
  rmSync(dist, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  for (const config of ["tsconfig.build.json", "tsconfig.sandbox.json"]) {
    const result = spawnSync(process.execPath, [tsc, "-p", config, "--noCheck"], { cwd: root, stdio: "inherit" });
    if (result.status !== 0) {
      console.error(`building dist/ failed (tsc -p ${config} above); npm test typechecks everything and says more`);
      process.exit(result.status ?? 1);
    }
  }
  writeFileSync(stamp, `built in ${Date.now() - started} ms\n`);
  // dated when the build began: a source saved during the build makes the next run build again
  utimesSync(stamp, started / 1000, started / 1000);
}

const [command, file, ...rest] = process.argv.slice(2);
if (command === "build") build();
else if (command === "run" && file !== undefined) {
  if (
    builtAt(stamp) <
    newestSource(
      CONFIGS.map((name) => join(root, name)),
      SOURCES.map((name) => join(root, name)),
    )
  ) {
    process.stderr.write("building dist/ (generated/ or sandbox/ changed since the last build)\n");
    build();
  }
  process.argv = [process.argv[0] ?? process.execPath, join(dist, file), ...rest];
  await import(pathToFileURL(join(dist, file)).href);
} else {
  console.error("usage: node scripts/dist.mjs build | run <file in dist/> [arguments]");
  process.exit(2);
}
