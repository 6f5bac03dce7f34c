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
 * - `npm start`'s resident memory (RSS, 3 runs, each on a fresh copy of the directory) once started,
 *   and at rest after a workload of 10,000 events (10,000 creates, 2,500 edits and 20 reads of the
 *   whole list, 8 requests in flight), against json-server 0.17.4's at idle, alternating. Targets:
 *   at most 200 MB started, 250 MB after the workload. Beside each, the part of it that is PGlite's
 *   WebAssembly memory (PostgreSQL's shared buffers and its own heap).
 *
 * `--processes N`, `--starts N` change the counts.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, readlink, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { eventBody } from "./support/event-body.js";
import { groupStoppedWithRun, killedWithRun, untilStopped } from "./support/interrupt.js";
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
  return (await answering(script, env, key, async () => undefined)).ms;
}

/**
 * Starts an npm script on a free port and, once it answers, runs `use` with its base URL and the
 * process of its group that listens; stops the group then. Resolves with the milliseconds to its
 * first answer and what `use` gave.
 */
async function answering<T>(
  script: string,
  env: Record<string, string>,
  key: string,
  use: (base: string, pid: number) => Promise<T>,
): Promise<{ ms: number; result: T }> {
  const port = 3900 + Math.floor(Math.random() * 90);
  const started = performance.now();
  const child: ChildProcess = spawn("npm", ["run", "-s", script], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: "ignore",
    detached: true,
  });
  groupStoppedWithRun(child);
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/1_12/events`, { headers: { "x-api-key": key } });
        await response.arrayBuffer();
        if (response.status === 200) {
          const ms = performance.now() - started;
          const base = `http://127.0.0.1:${port}/api/1_12`;
          return { ms, result: await use(base, await listener(child.pid ?? 0, port)) };
        }
      } catch (error) {
        if (error instanceof MeasureError) throw error;
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

/** A failure of the measurement itself, not a server that is not listening yet. */
class MeasureError extends Error {}

/** The process in `group` (npm, its shell, node) listening on `port`: the one whose socket table has it. */
async function listener(group: number, port: number): Promise<number> {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, "0")} `;
  for (const pid of await groupMembers(group)) {
    const table = await readFile(`/proc/${pid}/net/tcp`, "utf8").catch(() => "");
    const inodes = new Set(
      table
        .split("\n")
        .filter((line) => line.split(/\s+/)[2]?.endsWith(hex.trim()) && line.split(/\s+/)[4] === "0A")
        .map((line) => line.trim().split(/\s+/)[9]),
    );
    for (const fd of await readdir(`/proc/${pid}/fd`).catch(() => [])) {
      const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => "");
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      if (inode !== undefined && inodes.has(inode)) return pid;
    }
  }
  throw new MeasureError(`no process of group ${group} listens on port ${port}`);
}

/** The processes of process group `group`. */
async function groupMembers(group: number): Promise<number[]> {
  const members: number[] = [];
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, "utf8").catch(() => "");
    // the fields after the command's closing parenthesis: state, ppid, pgrp, ...
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === group) members.push(Number(name));
  }
  return members;
}

/** What a process holds resident, in MiB, from /proc/<pid>/smaps. */
interface Resident {
  readonly rss: number;
  /** anonymous memory in reach of WebAssembly: a writable mapping that a reservation of 1 GiB or more without access follows (PGlite's heap) */
  readonly wasm: number;
  /** anonymous executable memory: the code V8 compiled, of JavaScript and of WebAssembly */
  readonly code: number;
  /** mapped files: the node binary and its libraries */
  readonly files: number;
}

async function residentOf(pid: number): Promise<Resident> {
  const text = await readFile(`/proc/${pid}/smaps`, "utf8");
  interface Mapping {
    start: number;
    end: number;
    perms: string;
    path: string;
    rss: number;
  }
  const mappings: Mapping[] = [];
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head !== null) {
      const [, start = "0", end = "0", perms = "", path = ""] = head;
      mappings.push({ start: Number.parseInt(start, 16), end: Number.parseInt(end, 16), perms, path, rss: 0 });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line)?.[1];
    const last = mappings.at(-1);
    if (rss !== undefined && last !== undefined) last.rss = Number(rss) / 1024;
  }
  let rss = 0;
  let wasm = 0;
  let code = 0;
  let files = 0;
  mappings.forEach((mapping, i) => {
    rss += mapping.rss;
    const next = mappings[i + 1];
    const anonymous = mapping.path === "" || mapping.path.startsWith("[anon");
    if (mapping.path.startsWith("/")) files += mapping.rss;
    else if (anonymous && mapping.perms.includes("x")) code += mapping.rss;
    else if (
      anonymous &&
      mapping.perms.startsWith("rw") &&
      next !== undefined &&
      next.start === mapping.end &&
      next.perms.startsWith("---") &&
      next.end - next.start >= 2 ** 30
    )
      wasm += mapping.rss;
  });
  return { rss, wasm, code, files };
}

/** The workload of 10,000 events: 10,000 creates, 2,500 edits, 20 reads of the whole list, 8 requests in flight. */
async function workload(base: string): Promise<void> {
  const headers = { "x-api-key": "demo-key-harbor", "content-type": "application/json" };
  const body = (i: number): string => eventBody(i);
  const inFlight = async (count: number, send: (i: number) => Promise<Response>, status: number): Promise<void> => {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < count) {
        const response = await send(next++);
        await response.arrayBuffer();
        if (response.status !== status) throw new MeasureError(`the workload got ${response.status}, not ${status}`);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
  };
  await inFlight(10_000, (i) => fetch(`${base}/events`, { method: "POST", headers, body: body(i) }), 201);
  await inFlight(
    2500,
    (i) => fetch(`${base}/events/${1 + ((i * 7919) % 10_000)}`, { method: "PATCH", headers, body: body(i) }),
    200,
  );
  for (let i = 0; i < 20; i++) await (await fetch(`${base}/events`, { headers })).arrayBuffer();
}

/** json-server 0.17.4 at idle, on a db.json of no events: its RSS once it answers. */
async function jsonServerIdle(dir: string): Promise<Resident> {
  const dbJson = join(dir, "db.json");
  await writeFile(dbJson, JSON.stringify({ events: [] }));
  const port = 3900 + Math.floor(Math.random() * 90);
  const bin = join(root, "node_modules", "json-server", "lib", "cli", "bin.js");
  const child = spawn(process.execPath, [bin, "--port", String(port), "--host", "127.0.0.1", "--quiet", dbJson], {
    cwd: root,
    stdio: "ignore",
  });
  killedWithRun(child);
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/events`)).status === 200) break;
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null || i > 1200) throw new Error(`json-server did not start (exit ${child.exitCode})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, REST_MS));
    return await residentOf(child.pid ?? 0);
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGINT");
    await exited;
  }
}

/**
 * How long a server is left alone before its memory is read: V8 gives back the memory its heap no
 * longer needs once the process has been idle for about 8 s (its memory reducer), so what is read
 * then is what the process holds at rest.
 */
const REST_MS = 20_000;

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

// npm start and npm run mock run their entries bundled: bundle them once, outside the timings
for (const entry of ["sandbox/main.ts", "generated/server/main.ts"])
  spawnSync(process.execPath, ["scripts/run-bundled.mjs", "--prepare", entry], { cwd: root, stdio: "inherit" });
const dir = await mkdtemp(join(tmpdir(), "bench-sandbox-"));
// removed on Ctrl-C too, after the servers started in it are stopped
const withdrawDir = untilStopped(() => rm(dir, { recursive: true, force: true }));
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

  const pristine = join(dir, "pristine");
  await cp(dataDir, pristine, { recursive: true });
  const started: Resident[] = [];
  const after: Resident[] = [];
  const idle: Resident[] = [];
  for (let i = 0; i < 3; i++) {
    const copy = join(dir, `memory${i}`);
    await cp(pristine, copy, { recursive: true });
    await answering("start", { DATA_DIR: copy }, "demo-key-harbor", async (base, pid) => {
      await new Promise((resolve) => setTimeout(resolve, REST_MS));
      started.push(await residentOf(pid));
      await workload(base);
      await new Promise((resolve) => setTimeout(resolve, REST_MS));
      after.push(await residentOf(pid));
    });
    idle.push(await jsonServerIdle(dir));
  }
  // read in MiB; shown in MB (10^6 bytes), as the targets are
  const megabytes = (values: readonly Resident[], part: keyof Resident): number =>
    median(values.map((v) => v[part])) * 1.048576;
  const mb = (values: readonly Resident[], part: keyof Resident): string => `${megabytes(values, part).toFixed(0)} MB`;
  const parts = (values: readonly Resident[]): string =>
    `WebAssembly memory ${mb(values, "wasm")}, compiled code ${mb(values, "code")}, files ${mb(values, "files")}`;
  const rssOf = (values: readonly Resident[]): number => megabytes(values, "rss");
  console.log(`\nResident memory (3 alternating runs; medians; MB = 10^6 bytes)\n`);
  printTable(
    ["measure", "RSS", "baseline", "ratio", "of it", "target"],
    [
      ["json-server 0.17.4 at idle (baseline)", mb(idle, "rss"), "", "", parts(idle), ""],
      [
        "npm start, once started",
        mb(started, "rss"),
        mb(idle, "rss"),
        ratio(rssOf(started), rssOf(idle)),
        parts(started),
        `<= 200 MB: ${rssOf(started) <= 200 ? "met" : "NOT MET"}`,
      ],
      [
        "npm start, at rest after 10,000 events",
        mb(after, "rss"),
        mb(idle, "rss"),
        ratio(rssOf(after), rssOf(idle)),
        parts(after),
        `<= 250 MB: ${rssOf(after) <= 250 ? "met" : "NOT MET"}`,
      ],
    ],
  );
} finally {
  withdrawDir();
  await rm(dir, { recursive: true, force: true });
}
