#!/usr/bin/env node
/**
 * `npm test`: every check, the vitest suites beside the others. Run one after another, the
 * typecheck, the code lint and the `generated/` check would add their whole time to the suite's;
 * they each use one core for a few seconds, and the suite waits on sockets, child processes and
 * the browser often enough to leave room for them. vitest prints as it goes; each
 * other check prints its output when it ends, under its name. Exits non-zero when any check fails,
 * after all of them have run. Each check is also an npm script of its own.
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const scripts = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts;
// as npm runs scripts: the packages' commands on the PATH
const env = { ...process.env, PATH: [join(root, "node_modules", ".bin"), process.env.PATH].join(delimiter) };

/**
 * The checks, each the npm script of that name (run without npm's own start-up). The spec lint
 * (`npm run lint:spec`) is one of the suites' tests (test/architecture/spec/lint.test.ts), which asserts on
 * spectral's findings; it is not run a second time here.
 */
const CHECKS = ["typecheck", "lint"].map((name) => ({ name, command: scripts[name] }));
CHECKS.push({ name: "generate -- --check", command: `${scripts.generate} --check` });

/** Runs a check with its output kept; resolves with its exit status and that output. */
function runQuiet({ name, command }) {
  return new Promise((resolve) => {
    const child = spawn(command, { cwd: root, shell: true, stdio: ["ignore", "pipe", "pipe"], env });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => resolve({ name, status: 1, output: `${output}${error.message}\n` }));
    child.on("close", (status, signal) => resolve({ name, status: status ?? (signal ? 1 : 0), output }));
  });
}

function runVitest() {
  return new Promise((resolve) => {
    const child = spawn("vitest", ["run", ...process.argv.slice(2)], { cwd: root, stdio: "inherit", env });
    child.on("error", () => resolve({ name: "vitest", status: 1 }));
    child.on("close", (status, signal) => resolve({ name: "vitest", status: status ?? (signal ? 1 : 0) }));
  });
}

// The generator is built (when stale) before anything runs, so no two checks build it at once.
const build = spawnSync(process.execPath, ["scripts/run-built.mjs", "--build"], { cwd: root, stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

const started = Date.now();
const quiet = CHECKS.map((check) =>
  runQuiet(check).then((result) => {
    // succeeded rather than passed: a CI system reads passed near a count as a count of tests
    const verdict = result.status === 0 ? "succeeded" : `FAILED (exit ${result.status})`;
    process.stdout.write(`\n── npm run ${result.name}: ${verdict} ──\n${result.output.trimEnd()}\n`);
    return result;
  }),
);
const results = await Promise.all([runVitest(), ...quiet]);
const failed = results.filter((result) => result.status !== 0);
const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (failed.length === 0) {
  console.log(
    `\nnpm test: the ${results.length} checks succeeded in ${seconds} s (${results.map((result) => result.name).join(", ")})`,
  );
} else {
  console.error(
    `\nnpm test: ${failed.length} of ${results.length} checks failed in ${seconds} s: ${failed.map((result) => result.name).join(", ")}`,
  );
  process.exit(1);
}
