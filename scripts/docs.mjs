#!/usr/bin/env node
/**
 * `npm run docs`: the reference as one self-contained HTML file (build/reference.html), by Redocly
 * CLI's `build-docs` with telemetry and update notices off; arguments are passed on to it.
 *
 * On Node 20, Redocly CLI prints a box saying that Node 20 reached its end of life and that its
 * future releases will need Node 22.12. No setting turns it off, and its last release without it
 * (2.55) cannot inline the page's bundle (`--inlineBundle`), which the offline reference needs.
 * This project supports Node 20.19 and later, and this Redocly release runs on it, so that box,
 * and nothing else, is left out of what Redocly prints.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = join(dirname(createRequire(import.meta.url).resolve("@redocly/cli/package.json")), "bin", "cli.js");
const ARGUMENTS = [
  "build-docs",
  "spec/openapi.yaml",
  "--inlineBundle",
  "--template",
  "docs/redoc.hbs",
  "--output",
  "build/reference.html",
];

/** Redocly's end-of-life box about Node 20, from its top border to its bottom one. */
const NODE_20_NOTICE = /\n?[^\S\n]*╔[^╔╚]*Node\.js 20 reached end-of-life[^╔╚]*╚═*╝[^\S\n]*\n?/u;

const child = spawn(process.execPath, [cli, ...ARGUMENTS, ...process.argv.slice(2)], {
  cwd: root,
  env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  stdio: ["ignore", "inherit", "pipe"],
});
let errors = "";
child.stderr.setEncoding("utf8");
child.stderr.on("data", (chunk) => {
  errors += chunk;
});
child.on("close", (code, signal) => {
  process.stderr.write(errors.replace(NODE_20_NOTICE, "\n"));
  process.exit(code ?? (signal ? 1 : 0));
});
