/**
 * `npm run bench:sandbox:instructions`: the instructions the sandbox's process runs per request,
 * beside the hand-written baseline's (./support/baseline-server.ts), on PostgreSQL, counted by
 * Valgrind's callgrind. A count of instructions moves far less with what else the machine does
 * than time, where the CPU time of `bench:sandbox:load` moves by 5 to 10% from run to run on a
 * shared 2-core machine. With one request in flight (the default) the same code gives the same
 * count within a percent, alone or beside another run (the sandbox's create 250.8k, 250.9k,
 * 252.4k); with several (`--in-flight 8`, as the load benchmark sends them), how they interleave in
 * the slowed server moves it by up to a seventh (251k beside another run, 286k alone), so compare
 * such counts only when taken in like conditions. It leaves out what time adds to instructions
 * (the kernel's work for the process's system calls, caches and branches missed), so it tells what
 * the code does, and the load benchmark what that costs.
 *
 * Each server runs as the load benchmark runs it (`npm start`'s node options, a schema of its own
 * made by the sandbox, on a throwaway PostgreSQL server or DATABASE_URL), under callgrind with its
 * instrumentation off; it is warmed up uninstrumented (creates, then edits of the events it
 * created, `--warm-up N` of each, default 10,000, so that V8 has compiled what the measured
 * requests run), then counted in `--windows N` windows (default 3) of `--requests N` creates
 * (default 1,000), then as many of edits, `--in-flight N` at a time (default 1); of each
 * operation's windows, the one whose main thread ran the fewest instructions is printed (V8's
 * compiler, timed differently under Valgrind, can still be at work in the first). Printed: per
 * request, the main thread's instructions (its JavaScript, V8's runtime and collector, Node's
 * native code; not the kernel's), the other threads' (V8's compiler and the collector's helpers,
 * whose share depends on timing, which Valgrind changes), the ratio of the main threads, sandbox
 * over baseline, and the system calls that write per request (the request log's batches, shared by
 * fewer requests under Valgrind than at full speed, show there). `--sides sandbox` counts the
 * sandbox alone.
 *
 * Needs `valgrind` (Debian's package); without it, it says so and exits with 2.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startPostgres } from "../test/support/postgres.js";
import { eventBody } from "./support/event-body.js";
import { killedWithRun, untilStopped } from "./support/interrupt.js";
import { START_FLAGS } from "./support/start-flags.js";
import { median, printTable } from "./support/stats.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(`--${name}`);
  const value = at === -1 ? fallback : Number(args[at + 1]);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} ${args[at + 1]}: not a count; give a whole number such as ${fallback}`);
  return value;
};
const WARM_UP = option("warm-up", 10_000);
const REQUESTS = option("requests", 1000);
const WINDOWS = option("windows", 3);
const CONCURRENCY = option("in-flight", 1);
type Side = "sandbox" | "baseline";
/** The servers counted (`--sides sandbox` counts the sandbox alone, to compare a change of its own). */
const SIDES = (args[args.indexOf("--sides") + 1] ?? "")
  .split(",")
  .filter((side): side is Side => (args.includes("--sides") ? side === "sandbox" || side === "baseline" : false));
if (args.includes("--sides") && SIDES.length === 0)
  throw new Error(`--sides ${args[args.indexOf("--sides") + 1]}: name sandbox, baseline or both (sandbox,baseline)`);
/** `--caches`: callgrind also simulates the caches and the branch predictor (slower), and their misses are printed. */
const CACHES = args.includes("--caches");
const COUNTED: readonly Side[] = SIDES.length === 0 ? ["sandbox", "baseline"] : SIDES;
const KEY = "demo-key-harbor";

if (spawnSync("valgrind", ["--version"]).status !== 0) {
  console.error(
    "valgrind not found: install Debian's valgrind package (apt-get install valgrind) to count instructions",
  );
  process.exit(2);
}

/** Sends one request and answers its body, failing on any other status than `expected`. */
function send(agent: Agent, method: string, url: string, body: string, expected: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const headers = { "x-api-key": KEY, "content-type": "application/json" };
    const req = request(url, { method, agent, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () =>
        response.statusCode === expected
          ? resolve(text)
          : reject(new Error(`${method} ${url}: ${response.statusCode} ${text.slice(0, 300)}`)),
      );
      response.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

let sequence = 0;

/** `count` creates (answering the ids made) or edits of `ids`, `CONCURRENCY` in flight. */
async function drive(
  base: string,
  kind: "create" | "edit",
  count: number,
  ids: readonly string[] = [],
): Promise<string[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const made: string[] = [];
  let left = count;
  const worker = async (): Promise<void> => {
    while (left > 0) {
      left -= 1;
      const i = sequence++;
      if (kind === "create") made.push(await send(agent, "POST", `${base}/events`, eventBody(i), 201));
      else await send(agent, "PATCH", `${base}/events/${ids[i % ids.length]}`, eventBody(i), 200);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  agent.destroy();
  return made;
}

interface Measured {
  readonly child: ChildProcess;
  readonly base: string;
  readonly out: string;
}

/** Starts `script` under callgrind, instrumentation off, until its output matches `pattern`. */
function start(
  name: string,
  dir: string,
  script: string[],
  env: Record<string, string>,
  pattern: RegExp,
): Promise<Measured> {
  const out = join(dir, `${name}.callgrind`);
  const valgrind = [
    "--tool=callgrind",
    "--instr-atstart=no",
    "--separate-threads=yes",
    ...(CACHES ? ["--cache-sim=yes", "--branch-sim=yes"] : []),
    // V8 writes its compiled code into memory it then runs: Valgrind must look for such changes
    "--smc-check=all-non-file",
    `--vgdb-prefix=${join(dir, "vgdb")}`,
    `--callgrind-out-file=${out}`,
  ];
  const child = spawn("valgrind", [...valgrind, process.execPath, ...START_FLAGS, ...script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  killedWithRun(child);
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`${name} did not start in 5 minutes:\n${output}`)), 300_000);
    const listen = (chunk: Buffer): void => {
      output += chunk.toString();
      const base = pattern.exec(output)?.[1];
      if (base === undefined) return;
      clearTimeout(timer);
      child.stdout?.off("data", listen);
      child.stdout?.resume();
      resolve({ child, base, out });
    };
    child.stdout?.on("data", listen);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code}:\n${output.slice(-3000)}`)));
  });
}

/** Asks callgrind in process `pid` to do `command` (instrumentation on or off, a dump). */
function control(dir: string, pid: number, ...command: string[]): void {
  const done = spawnSync("callgrind_control", [`--vgdb-prefix=${join(dir, "vgdb")}`, ...command, String(pid)], {
    encoding: "utf8",
  });
  if (done.status !== 0) throw new Error(`callgrind_control ${command.join(" ")}: ${done.stdout}${done.stderr}`);
}

/** Callgrind's counts of one thread: instructions (`Ir`) and, with `--caches`, the simulated misses. */
type Events = Record<string, number>;

/** The counts of dump `part` (1, 2, ...) of `out`: the main thread's, and the other threads' added up. */
function instructions(out: string, part: number): { main: Events; others: Events } {
  const folder = join(out, "..");
  const prefix = `${out.split("/").at(-1)}.${part}-`;
  const main: Events = {};
  const others: Events = {};
  for (const file of readdirSync(folder).filter((name) => name.startsWith(prefix))) {
    const text = readFileSync(join(folder, file), "utf8");
    const names = (/^events: (.+)$/m.exec(text)?.[1] ?? "").split(" ");
    const totals = (/^totals: (.+)$/m.exec(text)?.[1] ?? "").split(" ").map(Number);
    const into = file.endsWith("-01") ? main : others;
    names.forEach((name, i) => {
      into[name] = (into[name] ?? 0) + (totals[i] ?? 0);
    });
  }
  return { main, others };
}

/**
 * Of the `WINDOWS` dumps from `first` on, the one whose main thread ran the fewest instructions:
 * the window in which V8 had compiled the most of what the requests run. A window in which the
 * compiler was still at work (its threads' count high) runs more of the code unoptimised, and the
 * count of the same requests can then be a fifth higher.
 */
function settled(out: string, first: number): { main: Events; others: Events } {
  const windows = Array.from({ length: WINDOWS }, (_, i) => instructions(out, first + i));
  return windows.reduce((best, window) => ((window.main["Ir"] ?? 0) < (best.main["Ir"] ?? 0) ? window : best));
}

const counts = new Map<string, { main: Events; others: Events }>();
/** Per side and operation, the system calls that write per request in each window. */
const writes = new Map<string, number[]>();

/** The system calls that write (sockets, pipes, files) process `pid` has made, from /proc. */
function writeCalls(pid: number): number {
  return Number(/^syscw: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? Number.NaN);
}

const dir = await mkdtemp(join(tmpdir(), "sandbox-instructions-"));
const postgres = await startPostgres();
/** What the run's end stops, stopped on Ctrl-C too (the servers under callgrind are killed before it) */
const stopRun = async (): Promise<void> => {
  await postgres.stop();
  await rm(dir, { recursive: true, force: true });
};
const withdrawStop = untilStopped(stopRun);
try {
  const { createSandbox } = await import("../sandbox/index.js");
  for (const side of COUNTED) {
    const schema = `instructions_${side}`;
    await (await createSandbox({ database: postgres.url, schema })).close();
    const server =
      side === "sandbox"
        ? await start(
            side,
            dir,
            ["scripts/run-bundled.mjs", "sandbox/main.ts", "--host", "127.0.0.1", "--port", "0"],
            // not HOST: Valgrind names its control pipes after $HOST, where callgrind_control looks
            { DATABASE_URL: postgres.url, SANDBOX_SCHEMA: schema, NODE_ENV: "development" },
            /Sandbox listening at (http:\/\/\S+\/api\/1_12)/,
          )
        : await start(
            side,
            dir,
            ["--import", "tsx", join(root, "bench", "support", "baseline-server.ts")],
            { BASELINE_DATABASE: postgres.url, BASELINE_SCHEMA: schema, NODE_ENV: "production" },
            /Baseline listening at (http:\/\/\S+)/,
          );
    const pid = server.child.pid ?? 0;
    try {
      process.stdout.write(`${side}: warming up (${WARM_UP} creates and edits)... `);
      const ids = await drive(server.base, "create", WARM_UP);
      await drive(server.base, "edit", WARM_UP, ids);
      process.stdout.write("counting... ");
      control(dir, pid, "-i", "on");
      // the creates' windows, then the edits': dumps 1 to WINDOWS, then WINDOWS + 1 to 2 × WINDOWS
      for (const kind of ["create", "edit"] as const)
        for (let window = 0; window < WINDOWS; window++) {
          const before = writeCalls(pid);
          await drive(server.base, kind, REQUESTS, ids);
          control(dir, pid, "-d");
          const key = `${side} ${kind === "create" ? "POST" : "PATCH"}`;
          writes.set(key, [...(writes.get(key) ?? []), (writeCalls(pid) - before) / REQUESTS]);
        }
      control(dir, pid, "-i", "off");
      console.log("done");
      counts.set(`${side} POST`, settled(server.out, 1));
      counts.set(`${side} PATCH`, settled(server.out, 1 + WINDOWS));
    } finally {
      server.child.kill("SIGKILL");
    }
  }
} finally {
  withdrawStop();
  await stopRun();
}

const perRequest = (side: Side, operation: string, thread: "main" | "others", event = "Ir"): number =>
  (counts.get(`${side} ${operation}`)?.[thread][event] ?? 0) / REQUESTS;
const thousands = (count: number): string => `${(count / 1000).toFixed(1)}k`;
console.log(
  `\nInstructions per request on PostgreSQL (callgrind; the lowest of ${WINDOWS} windows of ${REQUESTS} requests, after ${WARM_UP} of each uninstrumented; ${CONCURRENCY} in flight)\n`,
);
printTable(
  [
    "operation",
    "sandbox: main thread",
    "other threads",
    "baseline: main thread",
    "other threads",
    "main threads, sandbox / baseline",
  ],
  ["POST", "PATCH"].map((operation) => [
    operation === "POST" ? "POST /events" : "PATCH /events/{id}",
    ...(["sandbox", "baseline"] as const).flatMap((side) =>
      COUNTED.includes(side)
        ? [thousands(perRequest(side, operation, "main")), thousands(perRequest(side, operation, "others"))]
        : ["not counted", ""],
    ),
    COUNTED.length === 2
      ? `${(perRequest("sandbox", operation, "main") / perRequest("baseline", operation, "main")).toFixed(3)}×`
      : "",
  ]),
);

// The request log's lines wait at most 20 ms for others to be written with (log-output.ts): under
// Valgrind, whose requests take some fifty times as long, a batch holds fewer lines, and its write
// is shared by fewer requests than in a run at full speed (bench:sandbox:load's reads / writes).
console.log(
  "\nSystem calls that write, per request, in the counted windows (median; Valgrind's own included, alike on both sides): the sandbox's extra ones are its request log's batches, which hold fewer lines under Valgrind than at full speed, so that the log counts for more here than it runs\n",
);
printTable(
  ["operation", "sandbox", "baseline"],
  ["POST", "PATCH"].map((operation) => [
    operation === "POST" ? "POST /events" : "PATCH /events/{id}",
    ...(["sandbox", "baseline"] as const).map((side) => {
      const each = writes.get(`${side} ${operation}`);
      return each === undefined ? "not counted" : median(each).toFixed(2);
    }),
  ]),
);

/** What callgrind's simulation counts, for `--caches`: the misses per request on the main thread. */
const MISSES: readonly [string, string][] = [
  ["I1mr", "first-level instruction cache"],
  ["D1mr", "first-level data cache, reads"],
  ["D1mw", "first-level data cache, writes"],
  ["ILmr", "last-level cache, instructions"],
  ["DLmr", "last-level cache, data reads"],
  ["DLmw", "last-level cache, data writes"],
  ["Bcm", "conditional branches mispredicted"],
  ["Bim", "indirect branches mispredicted"],
];
if (CACHES) {
  console.log("\nSimulated misses per request on the main thread (callgrind's model of this machine's caches)\n");
  printTable(
    ["operation", "miss", "sandbox", "baseline", "sandbox / baseline"],
    ["POST", "PATCH"].flatMap((operation) =>
      MISSES.map(([event, what]) => {
        const [ours, theirs] = (["sandbox", "baseline"] as const).map((side) =>
          perRequest(side, operation, "main", event),
        ) as [number, number];
        return [
          operation === "POST" ? "POST /events" : "PATCH /events/{id}",
          what,
          ours.toFixed(0),
          theirs.toFixed(0),
          COUNTED.length === 2 && theirs > 0 ? `${(ours / theirs).toFixed(2)}×` : "",
        ];
      }),
    ),
  );
}
