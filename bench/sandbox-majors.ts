/**
 * `npm run bench:sandbox` (its first part): the sandbox's first start and memory on each supported
 * Node major, on the official binaries CI runs (the npm registry's `node-linux-<arch>` packages,
 * unpacked into a temporary folder, as .ci/run does; `BENCH_NODE_<major>` names a binary instead).
 * Per major, medians of `--runs N` (3 by default), each major in turn within a round:
 *
 * - the first `npm start` with nothing prepared (no bundle of sandbox/main.ts, no saved image of a
 *   new database: a new cache folder), as after `npm ci --ignore-scripts`, on a new data directory:
 *   wall time to its first answer, the CPU its process used until then, and the progress lines it
 *   printed;
 * - then, on another new cache folder, npm's `prepare` as `npm ci` runs it (scripts/prepare.mjs:
 *   the bundle and the image; its wall time), and the first `npm start` after it, on a new data
 *   directory: wall time and CPU to its first answer. Target: at most 10 s.
 * - `npm start` again on that directory: wall time to its first answer.
 * - `npm start`'s resident memory (RSS) at rest, once started and left alone 20 s. Target: at most
 *   160 MB.
 * - the peak resident memory of a process whose first `createSandbox()` opens the engine, with no
 *   flag given to Node (./support/sandbox-peak.ts, bundled). Target: at most 300 MB.
 *
 * `--majors 20,22,24` and `--runs N` change what is run.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { groupStoppedWithRun, untilStopped } from "./support/interrupt.js";
import { median, printTable } from "./support/stats.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : (args[at + 1] ?? fallback);
};
const majors = option("majors", "20,22,24").split(",").map(Number);
const runs = Number(option("runs", "3"));
/** How long npm start is left alone before its memory is read (V8's memory reducer acts after about 8 s idle). */
const REST_MS = 20_000;
const RUN_CACHE = join(root, "node_modules", ".cache", "workforce-scheduling-api-run");

/** The node binary of `major`: this one's, a BENCH_NODE_<major>, or the registry's, unpacked into `dir`. */
function binaryOf(major: number, dir: string): string {
  if (Number(process.versions.node.split(".")[0]) === major) return process.execPath;
  const named = process.env[`BENCH_NODE_${major}`];
  if (named !== undefined && named !== "") return named;
  const arch = process.arch === "arm64" ? "arm64" : "x64";
  const folder = join(dir, `node-${major}`);
  spawnSync("mkdir", ["-p", folder]);
  const packed = spawnSync("npm", ["pack", "--silent", "--pack-destination", folder, `node-linux-${arch}@${major}`], {
    encoding: "utf8",
  });
  if (packed.status !== 0) throw new Error(`npm pack node-linux-${arch}@${major} failed: ${packed.stderr}`);
  const tarball = join(folder, packed.stdout.trim().split("\n").at(-1) ?? "");
  spawnSync("tar", ["-xzf", tarball, "-C", folder, "package/bin/node"], { stdio: "inherit" });
  return join(folder, "package", "bin", "node");
}

/** One start of `npm start` with `node` first on the PATH: until its first answer, then `use`, then SIGINT. */
interface Start {
  readonly wallMs: number;
  /** user and system CPU of the listening process until its first answer */
  readonly cpuMs: number;
  /** its progress lines (stderr) */
  readonly progress: string[];
  readonly restMiB?: number;
}

async function npmStart(node: string, env: Record<string, string>, rest: boolean): Promise<Start> {
  const port = 4300 + Math.floor(Math.random() * 600);
  const started = performance.now();
  const child: ChildProcess = spawn("npm", ["start", "-s"], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      PATH: `${dirname(node)}:${process.env.PATH}`,
      PORT: String(port),
      HOST: "127.0.0.1",
    },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  groupStoppedWithRun(child);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/1_12/events`, {
          headers: { "x-api-key": "demo-key-harbor" },
        });
        await response.arrayBuffer();
        if (response.status === 200) break;
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${stderr}`);
      if (performance.now() - started > 120_000) throw new Error(`npm start did not answer in 120 s:\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const wallMs = performance.now() - started;
    const pid = await nodeOf(child.pid ?? 0);
    const cpuMs = await cpuOf(pid);
    const progress = stderr.split("\n").filter((line) => line.trim() !== "");
    if (!rest) return { wallMs, cpuMs, progress };
    await new Promise((resolve) => setTimeout(resolve, REST_MS));
    return { wallMs, cpuMs, progress, restMiB: await rssOf(pid) };
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    if (child.pid !== undefined) process.kill(-child.pid, "SIGINT");
    await exited;
  }
}

/** The node process of npm's process group (npm, a shell, node): the node whose arguments run run-bundled.mjs. */
async function nodeOf(group: number): Promise<number> {
  for (const name of await import("node:fs/promises").then((fs) => fs.readdir("/proc"))) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, "utf8").catch(() => "");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) !== group) continue;
    const [program = "", ...rest] = (await readFile(`/proc/${name}/cmdline`, "utf8").catch(() => "")).split("\0");
    if (program.endsWith("node") && rest.some((arg) => arg.endsWith("run-bundled.mjs"))) return Number(name);
  }
  throw new Error(`no node process of group ${group} runs run-bundled.mjs`);
}

/** The user and system CPU a process has used, in ms (clock ticks of 10 ms). */
async function cpuOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A process's resident memory in MiB (VmRSS). */
async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** The probe's createSandbox() on `node`: its time and the process's peak RSS. */
function probe(node: string, cache: string): { ms: number; peakMiB: number } {
  const result = spawnSync(node, ["scripts/run-bundled.mjs", "bench/support/sandbox-peak.ts"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, SANDBOX_CACHE_DIR: cache },
  });
  if (result.status !== 0) throw new Error(`the probe failed on ${node}:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as { ms: number; peakMiB: number };
}

interface Figures {
  bare: Start[];
  prepareMs: number[];
  first: Start[];
  again: number[];
  rest: number[];
  peak: number[];
}

const dir = await mkdtemp(join(tmpdir(), "bench-sandbox-majors-"));
// removed on Ctrl-C too, after the servers started from it are stopped
const withdrawDir = untilStopped(() => rm(dir, { recursive: true, force: true }));
try {
  const nodes = new Map(majors.map((major) => [major, binaryOf(major, dir)]));
  const figures = new Map<number, Figures>(
    majors.map((major) => [major, { bare: [], prepareMs: [], first: [], again: [], rest: [], peak: [] }]),
  );
  spawnSync(process.execPath, ["scripts/run-bundled.mjs", "--prepare", "bench/support/sandbox-peak.ts"], {
    cwd: root,
    stdio: "inherit",
  });
  for (let run = 0; run < runs; run++) {
    for (const [major, node] of nodes) {
      const of = figures.get(major) as Figures;
      // nothing prepared: no bundle of npm start's entry, no saved image
      await rm(RUN_CACHE, { recursive: true, force: true });
      const bare = {
        SANDBOX_CACHE_DIR: join(dir, `bare-${major}-${run}`),
        DATA_DIR: join(dir, `bare-${major}-${run}-data`),
      };
      of.bare.push(await npmStart(node, bare, false));
      // as after npm ci: its prepare, then the first start
      await rm(RUN_CACHE, { recursive: true, force: true });
      const cache = join(dir, `cache-${major}-${run}`);
      const dataDir = join(dir, `data-${major}-${run}`);
      const preparing = performance.now();
      spawnSync(node, ["scripts/prepare.mjs"], {
        cwd: root,
        env: { ...process.env, SANDBOX_CACHE_DIR: cache, npm_command: "ci" },
      });
      of.prepareMs.push(performance.now() - preparing);
      of.first.push(await npmStart(node, { SANDBOX_CACHE_DIR: cache, DATA_DIR: dataDir }, false));
      const again = await npmStart(node, { SANDBOX_CACHE_DIR: cache, DATA_DIR: dataDir }, true);
      of.again.push(again.wallMs);
      of.rest.push(again.restMiB ?? Number.NaN);
      spawnSync(process.execPath, ["scripts/run-bundled.mjs", "--prepare", "bench/support/sandbox-peak.ts"], {
        cwd: root,
      });
      of.peak.push(probe(node, cache).peakMiB);
    }
  }
  const s = (value: number): string => `${(value / 1000).toFixed(1)} s`;
  const mb = (mib: number): string => `${(mib * 1.048576).toFixed(0)} MB`;
  console.log(`\nnpm start and createSandbox per Node major (${runs} runs each; medians; MB = 10^6 bytes)\n`);
  const wall = (starts: readonly Start[]): number => median(starts.map((start) => start.wallMs));
  const cpu = (starts: readonly Start[]): number => median(starts.map((start) => start.cpuMs));
  printTable(
    [
      "Node",
      "first start, nothing prepared (CPU)",
      "npm ci's prepare",
      "first start after it (CPU)",
      "start again",
      "RSS at rest",
      "createSandbox peak",
      "targets",
    ],
    [...figures].map(([major, of]) => {
      const first = wall(of.first);
      const rest = median(of.rest) * 1.048576;
      const peak = median(of.peak) * 1.048576;
      const met = [first <= 10_000, rest <= 160, peak <= 300];
      return [
        `${major} (${spawnSync(nodes.get(major) ?? "", ["--version"], { encoding: "utf8" }).stdout.trim()})`,
        `${s(wall(of.bare))} (${s(cpu(of.bare))})`,
        s(median(of.prepareMs)),
        `${s(first)} (${s(cpu(of.first))})`,
        s(median(of.again)),
        mb(median(of.rest)),
        mb(median(of.peak)),
        met.every(Boolean) ? "met" : `NOT MET (${["10 s", "160 MB", "300 MB"].filter((_, i) => !met[i]).join(", ")})`,
      ];
    }),
  );
  const lines = figures.get(majors[0] ?? 20)?.first[0]?.progress ?? [];
  console.log(
    `\nWhat a first start printed on stderr (Node ${majors[0]}):\n${lines.map((line) => `  ${line}`).join("\n")}`,
  );
} finally {
  withdrawDir();
  await rm(dir, { recursive: true, force: true });
}
