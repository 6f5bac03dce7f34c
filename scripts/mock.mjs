#!/usr/bin/env node
/**
 * `npm run mock`: the mock server of the repository's spec (generated/server/main.ts), or, with
 * `--spec FILE`, of another OpenAPI document, as `prism mock FILE` serves one: the generator
 * (lib/, as `npm run generate` runs it) writes that document's package into `--out DIR`, or into
 * a folder of the cache named after the document's path, and its server/main.ts is run. Either
 * runs bundled, as `npm start` runs the sandbox (./run-bundled.mjs); the repository's own warns
 * first when spec/openapi.yaml has changed since generated/ was written. The other options
 * (`--port`, `--host`, `--help`) are the server's, which refuses any it does not take.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleOf, runBundle } from "./run-bundled.mjs";
import { specDrift } from "./spec-drift.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const OWN = [join(root, "generated")];

/** What `--spec` and `--out` add to the server's options, for `--help`. */
const OPTIONS = [
  "  --spec FILE     serve the mock of another OpenAPI 3.0/3.1 document, generated first",
  "  --out DIR       with --spec: where its package is generated (default: a folder of node_modules/.cache)",
];

/** `--spec` and `--out` taken out of `argv` (`--spec F` or `--spec=F`), and the rest, for the server. */
function splitArguments(argv) {
  const mine = {};
  const rest = [];
  for (let at = 0; at < argv.length; at++) {
    const match = /^--(spec|out)(?:=(.*))?$/s.exec(argv[at]);
    if (match === null) {
      rest.push(argv[at]);
      continue;
    }
    const value = match[2] ?? argv[++at];
    if (value === undefined || value === "" || (match[2] === undefined && value.startsWith("--")))
      fail(`--${match[1]} needs a value: npm run mock -- --spec other.yaml [--out DIR]`);
    if (mine[match[1]] !== undefined) fail(`--${match[1]} is given twice`);
    mine[match[1]] = value;
  }
  if (mine.out !== undefined && mine.spec === undefined)
    fail("--out goes with --spec: npm run mock -- --spec other.yaml --out DIR");
  return { ...mine, rest };
}

function fail(message) {
  process.stderr.write(`npm run mock: ${message}\n`);
  process.exit(2);
}

/** Generates `spec`'s package into `out` with the built generator; exits, with its output said, when it fails. */
function generateInto(spec, out) {
  if (!existsSync(spec)) fail(`${spec} does not exist: give the path of an OpenAPI document`);
  const started = Date.now();
  process.stderr.write(`generating the mock of ${spec} into ${out}... `);
  const result = spawnSync(
    process.execPath,
    [join(root, "scripts", "run-built.mjs"), "cli.js", "--spec", spec, "--out", out],
    {
      cwd: process.cwd(),
      encoding: "utf8",
    },
  );
  if (result.status !== 0) {
    process.stderr.write(`failed:\n${result.stderr}${result.stdout}`);
    process.exit(1);
  }
  process.stderr.write(`${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

const { spec, out, rest } = splitArguments(process.argv.slice(2));
let bundle;
if (spec === undefined || rest.includes("--help")) {
  const drift = rest.includes("--help") ? undefined : specDrift(root);
  if (drift !== undefined) process.stderr.write(`${drift}\n`);
  bundle = await bundleOf("generated/server/main.ts", OWN);
} else {
  const path = resolve(spec);
  const folder =
    out === undefined
      ? join(
          root,
          "node_modules",
          ".cache",
          "workforce-scheduling-api-mock",
          createHash("sha256").update(path).digest("hex").slice(0, 12),
        )
      : resolve(out);
  generateInto(path, folder);
  bundle = await bundleOf(join(folder, "server", "main.ts"), [folder]);
}
await runBundle(bundle, rest);
// the server printed its options and returned: these are the command's own
if (rest.includes("--help")) process.stdout.write(`${OPTIONS.join("\n")}\n`);
