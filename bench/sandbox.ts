/**
 * `npm run bench:sandbox`: what the sandbox costs to start and reset, each figure a median, with
 * the baseline it is compared with measured in the same run.
 *
 * - In fresh processes (3 by default): the first `createSandbox` of a process (it opens the
 *   embedded engine: the baseline), the ones after it (10 each: they only create their schema),
 *   the memory each of those adds, and `reset()` of a sandbox holding 100 events (20 each).
 *   Targets: a sandbox after the first under 1 s and 100 MB, a reset under 100 ms.
 * - `npm start` on an existing data directory, time to its first answer (5 runs), against `npm run
 *   mock` (the stateless mock server, the baseline), alternating; and on a new directory.
 *   Target: under 3 s.
 *
 * `--processes N`, `--starts N` change the counts.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median, printTable } from "./support/stats.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(args[at + 1]);
};

/** What one process measured. */
interface InProcess {
  first: number;
  next: number[];
  addedMiB: number;
  reset: number[];
}

const PROBE = `
import { createSandbox } from "./sandbox/index.js";
const mib = () => process.memoryUsage().rss / 1048576;
const headers = { "x-api-key": "demo-key-harbor", "content-type": "application/json" };
let t = performance.now();
const first = await createSandbox();
const firstMs = performance.now() - t;
const afterFirst = mib();
const next = [], open = [];
for (let i = 0; i < 10; i++) {
  t = performance.now();
  open.push(await createSandbox());
  next.push(performance.now() - t);
}
const addedMiB = (mib() - afterFirst) / open.length;
const reset = [];
for (let i = 0; i < 20; i++) {
  await Promise.all(Array.from({ length: 100 }, (_, n) => fetch(first.url + "/events", { method: "POST", headers, body: JSON.stringify({ name: "E" + n, date: "2024-04-20", venue: { venue_id: "318" } }) }).then((r) => r.text())));
  t = performance.now();
  await first.reset();
  reset.push(performance.now() - t);
}
for (const sandbox of [first, ...open]) await sandbox.close();
console.log(JSON.stringify({ first: firstMs, next, addedMiB, reset }));
`;

function inProcess(): InProcess {
  const result = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", PROBE], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`the probe failed:\n${result.stderr}`);
  const line = result.stdout.trim().split("\n").at(-1) ?? "";
  return JSON.parse(line) as InProcess;
}

/** Starts an npm script on a free port and resolves with the milliseconds to its first answer. */
async function timeToAnswer(script: string, env: Record<string, string>, key: string): Promise<number> {
  const port = 3900 + Math.floor(Math.random() * 90);
  const started = performance.now();
  const child: ChildProcess = spawn("npm", ["run", "-s", script], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: "ignore",
    detached: true,
  });
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/1_12/events`, { headers: { "x-api-key": key } });
        if (response.status === 200) return performance.now() - started;
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
      if (performance.now() - started > 60_000) throw new Error(`${script} did not answer in 60 s`);
    }
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    if (child.pid !== undefined) process.kill(-child.pid, "SIGINT");
    await exited;
  }
}

const ms = (value: number): string => `${value.toFixed(0)} ms`;
const ratio = (value: number, base: number): string => `${(value / base).toFixed(3)}×`;

const processes = option("processes", 3);
const starts = option("starts", 5);
const runs: InProcess[] = [];
for (let i = 0; i < processes; i++) runs.push(inProcess());
const first = median(runs.map((run) => run.first));
const next = median(runs.flatMap((run) => run.next));
const added = median(runs.map((run) => run.addedMiB));
const reset = median(runs.flatMap((run) => run.reset));
console.log(`\ncreateSandbox and reset, in memory (${processes} fresh processes; medians)\n`);
printTable(
  ["measure", "median", "baseline", "ratio", "target"],
  [
    ["createSandbox, the first of a process (baseline)", ms(first), "", "", ""],
    [
      "createSandbox after the first",
      ms(next),
      ms(first),
      ratio(next, first),
      `< 1000 ms: ${next < 1000 ? "met" : "NOT MET"}`,
    ],
    [
      "memory added by each after the first",
      `${added.toFixed(1)} MiB`,
      "",
      "",
      `< 100 MiB: ${added < 100 ? "met" : "NOT MET"}`,
    ],
    [
      "reset() with 100 events",
      ms(reset),
      ms(next),
      `${ratio(reset, next)} of a new sandbox`,
      `< 100 ms: ${reset < 100 ? "met" : "NOT MET"}`,
    ],
  ],
);

// npm start runs the built sandbox: build it once, outside the timings
spawnSync(process.execPath, ["scripts/dist.mjs", "build"], { cwd: root, stdio: "inherit" });
const dir = await mkdtemp(join(tmpdir(), "bench-sandbox-"));
try {
  const dataDir = join(dir, "data");
  const fresh = [await timeToAnswer("start", { DATA_DIR: dataDir }, "demo-key-harbor")];
  const existing: number[] = [];
  const mock: number[] = [];
  for (let i = 0; i < starts; i++) {
    existing.push(await timeToAnswer("start", { DATA_DIR: dataDir }, "demo-key-harbor"));
    mock.push(await timeToAnswer("mock", {}, "any-key"));
  }
  for (let i = 1; i < 3; i++)
    fresh.push(await timeToAnswer("start", { DATA_DIR: join(dir, `data${i}`) }, "demo-key-harbor"));
  console.log(`\nnpm start, time to the first answer (${starts} alternating runs; a new directory: 3 runs; medians)\n`);
  printTable(
    ["measure", "median", "baseline", "ratio", "target"],
    [
      ["npm run mock (baseline)", ms(median(mock)), "", "", ""],
      [
        "npm start, existing data directory",
        ms(median(existing)),
        ms(median(mock)),
        ratio(median(existing), median(mock)),
        `< 3000 ms: ${median(existing) < 3000 ? "met" : "NOT MET"}`,
      ],
      ["npm start, new data directory", ms(median(fresh)), ms(median(mock)), ratio(median(fresh), median(mock)), ""],
    ],
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
