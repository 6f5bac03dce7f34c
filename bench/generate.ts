/**
 * npm run bench:generate: a full generation (all targets, cold process) against openapi-typescript's
 * CLI alone on the same document, alternating in one run; prints median wall time, the ratio, and
 * peak memory. Documents: spec/openapi.yaml and the largest corpus documents (CORPUS_DIR).
 *
 * "npm run generate" is the command users run: npm's own start and the build check included. The
 * "generator" column is the bare command (node lib/src/cli.js), which the ratio's target does not need.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { median, printTable } from "./support/stats.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const corpus = resolve(root, process.env.CORPUS_DIR ?? "../shared/corpus", "openapi");
const preload = join(root, "bench", "support", "report-resources.mjs");
const scratch = mkdtempSync(join(tmpdir(), "bench-generate-"));

interface Target {
  readonly label: string;
  readonly spec: string;
  readonly rounds: number;
  readonly limit: number;
}

const all: Target[] = [{ label: "spec/openapi.yaml", spec: join(root, "spec/openapi.yaml"), rounds: 7, limit: 1.5 }];
for (const name of ["openai.yaml", "stripe.yaml", "discord.json"]) {
  const spec = join(corpus, name);
  if (existsSync(spec)) all.push({ label: name, spec, rounds: 5, limit: 2 });
  else console.log(`skipping ${name}: not found under ${corpus} (set CORPUS_DIR)`);
}
// `--only stripe.yaml` (repeatable) measures the named documents alone
const only = process.argv.flatMap((arg, index) => (process.argv[index - 1] === "--only" ? [arg] : []));
const targets = only.length === 0 ? all : all.filter((target) => only.includes(target.label));
if (targets.length === 0) throw new Error(`--only names none of ${all.map((target) => target.label).join(", ")}`);

/** A command: the program and its arguments. */
type Command = readonly [program: string, ...args: string[]];

/** Runs one cold command; returns seconds and the peak memory (MiB) of its largest Node process. */
function measure([program, ...args]: Command): { seconds: number; peakMiB: number } {
  const resources = join(scratch, "resources.txt");
  writeFileSync(resources, "");
  const started = performance.now();
  const result = spawnSync(program, args, {
    cwd: root,
    env: { ...process.env, BENCH_RESOURCES_FILE: resources, NODE_OPTIONS: `--import ${preload}` },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`${args.join(" ")} failed:\n${result.stderr.toString()}`);
  const peakKiB = Math.max(...readFileSync(resources, "utf8").trim().split("\n").map(Number));
  return { seconds, peakMiB: peakKiB / 1024 };
}

const npmCommand = (spec: string): Command => [
  "npm",
  "run",
  "-s",
  "generate",
  "--",
  "--spec",
  spec,
  "--out",
  join(scratch, "npm"),
];
const generator = (spec: string): Command => [
  process.execPath,
  join(root, "lib", "src", "cli.js"),
  "--spec",
  spec,
  "--out",
  join(scratch, "ours"),
];
const baseline = (spec: string): Command => [
  process.execPath,
  join(root, "node_modules", "openapi-typescript", "bin", "cli.js"),
  spec,
  "-o",
  join(scratch, "baseline.ts"),
];

const rows: string[][] = [];
try {
  for (const target of targets) {
    const commands = {
      npm: npmCommand(target.spec),
      generator: generator(target.spec),
      baseline: baseline(target.spec),
    };
    const times = { npm: [] as number[], generator: [] as number[], baseline: [] as number[] };
    const peaks = { npm: [] as number[], generator: [] as number[], baseline: [] as number[] };
    for (const command of Object.values(commands)) measure(command);
    for (let round = 0; round < target.rounds; round++) {
      for (const side of ["npm", "generator", "baseline"] as const) {
        const { seconds, peakMiB } = measure(commands[side]);
        times[side].push(seconds);
        peaks[side].push(peakMiB);
      }
    }
    const ratio = median(times.npm) / median(times.baseline);
    const peak = Math.max(...peaks.npm);
    const verdict = ratio <= target.limit && peak < 1024 ? "ok" : "OVER";
    rows.push([
      target.label,
      String(target.rounds),
      median(times.npm).toFixed(2),
      median(times.generator).toFixed(2),
      median(times.baseline).toFixed(2),
      `${ratio.toFixed(2)}x`,
      `${(median(times.generator) / median(times.baseline)).toFixed(2)}x`,
      `${target.limit}x`,
      peak.toFixed(0),
      Math.max(...peaks.baseline).toFixed(0),
      verdict,
    ]);
    console.log(`measured ${target.label}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(
  "\nFull generation (cold process, all targets) vs openapi-typescript CLI alone; medians; ratio = npm run generate / openapi-ts",
);
printTable(
  [
    "document",
    "rounds",
    "npm run generate s",
    "generator s",
    "openapi-ts s",
    "ratio",
    "generator ratio",
    "target",
    "peak MiB",
    "openapi-ts peak MiB",
    "",
  ],
  rows,
);
