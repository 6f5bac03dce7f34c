#!/usr/bin/env node
/**
 * `npm run docs`: the reference as one self-contained HTML file (build/reference.html), by Redocly
 * CLI's `build-docs` with telemetry and update notices off; arguments are passed on to it.
 *
 * Redocly CLI prints notices in boxes that are not about this build: on every run, that
 * build-docs now renders with Redoc 3 and custom templates may need updates (this project's
 * template, docs/redoc.hbs, is written for Redoc 3: test/system/docs/static-reference.test.ts opens the
 * page it makes), and on Node 20 that Node 20 reached its end of life and its future releases will
 * need Node 22.12. No setting turns them off, and its last release without the second (2.55)
 * cannot inline the page's bundle (`--inlineBundle`), which the offline reference needs. So the
 * boxes, and nothing else, are left out of what Redocly prints, on stdout and stderr.
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

/** A box Redocly draws around a notice, from its top border to its bottom one, with the blank lines around it. */
const NOTICE = /\n*[^\S\n]*╔[^╔╚]*╚═*╝[^\S\n]*\n+/gu;

/** `stream`'s text, all of it, once it ends. */
function textOf(stream) {
  let text = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => {
    text += chunk;
  });
  return new Promise((resolve) => stream.on("end", () => resolve(text)));
}

const child = spawn(process.execPath, [cli, ...ARGUMENTS, ...process.argv.slice(2)], {
  cwd: root,
  env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  stdio: ["ignore", "pipe", "pipe"],
});
const printed = Promise.all([textOf(child.stdout), textOf(child.stderr)]);
child.on("close", async (code, signal) => {
  const [out, errors] = await printed;
  process.stdout.write(out.replace(NOTICE, "").replace(/^\n+/, ""));
  process.stderr.write(errors.replace(NOTICE, ""));
  process.exit(code ?? (signal ? 1 : 0));
});
