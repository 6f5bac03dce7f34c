#!/usr/bin/env node
/**
 * npm's `prepare`, which `npm ci` and `npm install` run in this repository (never in a project that
 * installs the package): builds the generator into lib/ when its sources changed, bundles
 * `npm start`'s entry (./run-bundled.mjs), and makes the sandbox's image of a new database when
 * this machine has none, so that the first `npm start` after `npm ci` does none of these (it took
 * 12 s of CPU, most of it `initdb`). A source that does not build fails the install, as before;
 * an image not made is left to the first start.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleOf, runBundle } from "./run-bundled.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const built = spawnSync(process.execPath, [join(root, "scripts", "run-built.mjs"), "--build"], { stdio: "inherit" });
if (built.status !== 0) process.exit(built.status ?? 1);
// npm pack and npm publish run prepare too: what they pack needs neither
if (process.env.npm_command === "pack" || process.env.npm_command === "publish") process.exit(0);
const sources = ["generated", "sandbox"].map((folder) => join(root, folder));
try {
  await bundleOf("sandbox/main.ts", sources);
  await runBundle(await bundleOf("sandbox/prepare-image.ts", sources), []);
} catch (error) {
  process.stderr.write(`the sandbox was not prepared (${error.message}): the first npm start does it\n`);
}
