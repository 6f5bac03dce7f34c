/**
 * npm run bench:generate: a full generation (all targets, cold process) against openapi-typescript's
 * CLI alone on the same document, alternating in one run; prints median wall time, the ratio, and
 * peak memory. Documents: spec/openapi.yaml and the largest corpus documents (CORPUS_DIR).
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

const targets: Target[] = [{ label: "spec/openapi.yaml", spec: join(root, "spec/openapi.yaml"), rounds: 7, limit: 1.5 }];
for (const name of ["openai.yaml", "stripe.yaml", "discord.json"]) {
  const spec = join(corpus, name);
  if (existsSync(spec)) targets.push({ label: name, spec, rounds: 3, limit: 2 });
  else console.log(`skipping ${name}: not found under ${corpus} (set CORPUS_DIR)`);
}

/** Runs one cold process; returns seconds and peak memory (MiB). */
function measure(args: readonly string[]): { seconds: number; peakMiB: number } {
  const resources = join(scratch, "resources.txt");
  writeFileSync(resources, "");
  const started = performance.now();
  const result = spawnSync(process.execPath, ["--import", preload, ...args], {
    cwd: root,
    env: { ...process.env, BENCH_RESOURCES_FILE: resources },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`${args.join(" ")} failed:\n${result.stderr.toString()}`);
  const peakKiB = Math.max(...readFileSync(resources, "utf8").trim().split("\n").map(Number));
  return { seconds, peakMiB: peakKiB / 1024 };
}

const ours = (spec: string): string[] => [join(root, "lib", "cli.js"), "--spec", spec, "--out", join(scratch, "ours")];
const baseline = (spec: string): string[] => [join(root, "node_modules", "openapi-typescript", "bin", "cli.js"), spec, "-o", join(scratch, "baseline.ts")];

const rows: string[][] = [];
try {
  for (const target of targets) {
    const times = { ours: [] as number[], baseline: [] as number[] };
    const peaks = { ours: [] as number[], baseline: [] as number[] };
    measure(ours(target.spec));
    measure(baseline(target.spec));
    for (let round = 0; round < target.rounds; round++) {
      const a = measure(ours(target.spec));
      const b = measure(baseline(target.spec));
      times.ours.push(a.seconds);
      times.baseline.push(b.seconds);
      peaks.ours.push(a.peakMiB);
      peaks.baseline.push(b.peakMiB);
    }
    const ratio = median(times.ours) / median(times.baseline);
    const peak = Math.max(...peaks.ours);
    const verdict = ratio <= target.limit && peak < 1024 ? "ok" : "OVER";
    rows.push([
      target.label,
      String(target.rounds),
      median(times.ours).toFixed(2),
      median(times.baseline).toFixed(2),
      `${ratio.toFixed(2)}x`,
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
console.log("\nFull generation (cold process, all targets) vs openapi-typescript CLI alone; medians");
printTable(["document", "rounds", "ours s", "openapi-ts s", "ratio", "target", "ours peak MiB", "openapi-ts peak MiB", ""], rows);
