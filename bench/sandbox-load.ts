/**
 * `npm run bench:sandbox` (its load part; `npm run bench:sandbox:load` alone): the sandbox under
 * load, against json-server 0.17.4 (its stable release: the whole data in one JSON file, rewritten
 * on every write) on a `db.json` holding the same events, against a hand-written baseline on the
 * same database (./support/baseline-server.ts: plain Fastify, Fastify's own body validation, one
 * query per request running the sandbox's own statement: what the sandbox's requests could cost at
 * least), and against the same inserts sent straight through the database driver, without HTTP.
 *
 * Each round starts every server afresh, in its own process, on a fresh copy of its data (the
 * bulk-loaded events vacuumed, analysed and checkpointed, the copy flushed to disk), in an order
 * that turns from round to round, and warms it up until V8 has compiled what the measured requests
 * run: 3 s of creates of the other demo company's events (not on json-server, which has no
 * companies; the measured company's events stay as many), then 3 s of edits of its first 1,000
 * events. After 1 s of edits alone, V8's optimising compiler still compiled the creates' path while
 * they were measured (178 functions in the sandbox's window of creates against 143 in the
 * baseline's, a third of the sandbox's CPU per create on threads of its own), so the measure was
 * of the compiler, the larger code's the more; after this warm-up, 14 and 39. `--warm-up edits`
 * and `--warm-up-seconds 1` measure as before (docs/benchmarks.md, "The warm-up's length"). The
 * list is measured in a process of its own, so that the writes are measured alike at every size. The figures are medians over the rounds, each a rate over a fixed time with 8 requests in
 * flight on keep-alive connections. The sandbox runs as `npm start` runs it (the built package,
 * response checks on), embedded (PGlite in a data directory), where PostgreSQL is at hand
 * (DATABASE_URL or Debian's binaries) on PostgreSQL, and where Citus is installed
 * (scripts/citus.sh) on a throwaway Citus cluster on this machine (a coordinator and two workers),
 * with DATABASE_URL naming the coordinator, then the worker holding the measured company's shards,
 * then another worker (the process routing its own requests), with the cluster's CPU per `POST
 * /events` on each node.
 *
 * - `POST /events` and `PATCH /events/{id}` at 1,000, 10,000 and 100,000 stored events, `GET
 *   /events` (the whole list) at 1,000. Targets: at 10,000, each of ours at least 5× json-server's
 *   rate (GET at 1,000); our POST rate at 100,000 within 20% of the rate at 1,000.
 * - Against the baseline, on each engine: `POST` and `PATCH` at 10,000 events at least 0.8× its
 *   rate (`GET` is reported beside it); on PostgreSQL, `POST` at 10,000 at least 50% of the
 *   driver's inserts.
 * - The server's peak RSS while it answers `GET /events` over 100,000 events, above its RSS at
 *   idle (the peak is reset through /proc before the request). Target: under 64 MiB.
 *
 * - Beside each rate of the sandbox and of the baseline, the server's CPU per request: its own user
 *   and system time from /proc over the measured window, divided by the requests answered. It
 *   moves far less than the rate when other work shares the machine. Target: the sandbox's at
 *   most 1.15× the baseline's for `POST` and `PATCH` at 10,000 events, on each engine. The spread
 *   of the rounds (lowest and highest) is printed beside each median.
 *
 * `--rounds N` (default 5), `--seconds S` (per measurement, default 3), `--warm-up-seconds S` (each
 * part of the warm-up, default 3), `--warm-up edits` (edits alone), `--sizes 1000,10000`,
 * `--targets postgres,embedded` (the sandbox's engines measured, each with its baseline; add
 * `json-server` and `citus` to measure them: all by default), `--cpu-prof DIR` (each sandbox and
 * baseline process writes a V8 CPU profile into DIR, and `DIR/windows.json` says when each
 * measurement ran, in the profiles' clock: `bench/support/cpu-profile.ts` reads them).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Kysely, sql } from "kysely";
import { openEngine, parseLocation } from "../sandbox/store/engine/engine.js";
import { insertWithNextId } from "../sandbox/store/records/ids.js";
import type { Database } from "../sandbox/store/schema/database.js";
import { type CitusCluster, citusMissing, startCitus } from "../test/support/citus.js";
import { freePort, type PostgresServer, postgresMissing, startPostgres } from "../test/support/postgres.js";
import { eventBody } from "./support/event-body.js";
import { killedWithRun, untilStopped } from "./support/interrupt.js";
import { checkParameters } from "./support/sandbox-statements.js";
import { START_FLAGS } from "./support/start-flags.js";
import { median, printTable } from "./support/stats.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : (args[at + 1] ?? fallback);
};
const ROUNDS = Number(option("rounds", "5"));
const SECONDS = Number(option("seconds", "3"));
const SIZES = option("sizes", "1000,10000,100000").split(",").map(Number);
const TARGETS = option("targets", "embedded,postgres,citus,json-server").split(",");
const PROFILES = option("cpu-prof", "");
/** What each server is warmed up with before it is measured: creates of the other company's events, then edits (`--warm-up`). */
const WARM_UP = option("warm-up", "creates,edits").split(",");
for (const kind of WARM_UP)
  if (kind !== "creates" && kind !== "edits")
    throw new Error(`--warm-up ${kind}: not a warm-up; give creates, edits or both (creates,edits)`);
const CONCURRENCY = 8;
/** How long each part of the warm-up lasts (`--warm-up-seconds S`, default 3). */
const WARM_UP_SECONDS = Number(option("warm-up-seconds", "3"));
if (!(WARM_UP_SECONDS >= 0))
  throw new Error(
    `--warm-up-seconds ${option("warm-up-seconds", "")}: not a number of seconds; give one such as 1 or 3`,
  );
/** The events the warm-up edits, at every size. */
const WARM_UP_EVENTS = 1000;
const KEY = "demo-key-harbor";
const HARBOR = 5;
const DANA = 7;
/** The demo seed's other company, whose events the warm-up creates: the measured company's count stays as it is. */
const SUMMIT_KEY = "demo-key-summit";
const SUMMIT = 6;

/** Whose requests the load sends: the key, and the venue its events are held at (one of the key's company). */
interface Sender {
  readonly key: string;
  readonly venue: string;
}
/** Harbor's requests, the ones measured. */
const HARBOR_SENDER: Sender = { key: KEY, venue: "318" };

type Operation = "POST /events" | "PATCH /events/{id}" | "GET /events";
type Target = "embedded" | "postgres" | Citus | "json-server" | Baseline;
/**
 * The sandbox on a Citus cluster: its process connected to the coordinator, to the worker that
 * holds the measured company's shards, or to a worker that does not (and routes its requests on).
 */
type Citus = "citus" | "citus, on the company's worker" | "citus, on another worker";
const CITUS: readonly Citus[] = ["citus", "citus, on the company's worker", "citus, on another worker"];
const isCitus = (target: Target): target is Citus => (CITUS as readonly string[]).includes(target);
/** The hand-written baseline, on each engine. */
type Baseline = "baseline, embedded" | "baseline, postgres";
const BASELINES: Record<"embedded" | "postgres", Baseline> = {
  embedded: "baseline, embedded",
  postgres: "baseline, postgres",
};

/** A server under test, listening. */
interface Running {
  readonly base: string;
  readonly pid: number;
  stop(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// the load

/** Requests completed, and the seconds they took. */
interface Done {
  readonly requests: number;
  readonly seconds: number;
}

/** Sends requests from `CONCURRENCY` workers for `seconds`; answers the requests completed and the time taken. */
async function load(
  base: string,
  operation: Operation,
  size: number,
  seconds: number,
  sender: Sender = HARBOR_SENDER,
): Promise<Done> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  let sequence = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const i = sequence++;
      const id = 1 + ((Math.imul(i, 2654435761) >>> 0) % size);
      if (operation === "POST /events")
        await send(agent, sender.key, "POST", `${base}/events`, eventBody(i, sender.venue), 201);
      else if (operation === "PATCH /events/{id}")
        await send(agent, sender.key, "PATCH", `${base}/events/${id}`, eventBody(i, sender.venue), 200);
      else await send(agent, sender.key, "GET", `${base}/events`, undefined, 200);
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return { requests: done, seconds: elapsed };
}

/** The rate of `operation` (requests per second) over `seconds`. */
async function rate(
  base: string,
  operation: Operation,
  size: number,
  seconds: number,
  sender: Sender = HARBOR_SENDER,
): Promise<number> {
  const done = await load(base, operation, size, seconds, sender);
  return done.requests / done.seconds;
}

function send(
  agent: Agent,
  key: string,
  method: string,
  url: string,
  body: string | undefined,
  expected: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "x-api-key": key };
    if (body !== undefined) headers["content-type"] = "application/json";
    const req = request(url, { method, agent, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        if (response.statusCode !== expected) text += chunk;
      });
      response.on("end", () =>
        response.statusCode === expected
          ? resolve()
          : reject(new Error(`${method} ${url}: ${response.statusCode} ${text.slice(0, 300)}`)),
      );
      response.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

// ---------------------------------------------------------------------------------------------
// the data

/** Adds `count` events to Harbor's (the demo seed's first company), the way the sandbox stores them. */
async function addEvents(db: Kysely<Database>, schema: string, count: number): Promise<void> {
  await sql`insert into ${sql.table(`${schema}.events`)} (company_id, id, name, date, created, admin_origin, venue_id, custom_fields)
    select ${HARBOR}, c.last_event_id + n, 'Event ' || n, '2024-05-01', '2026-11-25', ${DANA}, 318, jsonb_build_array(jsonb_build_object('name', 'Round', 'value', n::text))
    from ${sql.table(`${schema}.companies`)} as c, generate_series(1, ${count}) as n where c.company_id = ${HARBOR}`.execute(
    db,
  );
  await sql`update ${sql.table(`${schema}.companies`)} set events_revision = events_revision + 1, last_event_id = last_event_id + ${count} where company_id = ${HARBOR}`.execute(
    db,
  );
  await settle(db, schema);
}

/**
 * Leaves the database as a service's is after its data came in, not in the middle of a bulk load:
 * the events vacuumed and analysed (else autovacuum works through them while the server is
 * measured) and a checkpoint written (else the load's dirty pages are written out then).
 */
async function settle(db: Kysely<Database>, schema: string): Promise<void> {
  await sql`vacuum analyze ${sql.table(`${schema}.events`)}`.execute(db);
  try {
    await sql`checkpoint`.execute(db);
  } catch (error) {
    console.log(`(no checkpoint after the bulk load: ${error instanceof Error ? error.message : String(error)})`);
  }
}

/** Writes the files just copied out to the disk, so that no server is measured while they are. */
function flushFiles(): void {
  spawnSync("sync");
}

/** The data of one size: a sandbox data directory, and json-server's db.json of the same events. */
interface Prepared {
  readonly size: number;
  readonly dataDir: string;
  readonly dbJson: string;
  /** the other company's requests, which the warm-up sends */
  readonly summit: Sender;
}

/** A sandbox data directory holding the demo seed and `size` events, and json-server's db.json of the same events. */
async function prepare(dir: string, size: number): Promise<Prepared> {
  const dataDir = join(dir, `embedded-${size}`);
  const { createSandbox } = await import("../sandbox/index.js");
  const sandbox = await createSandbox({ database: dataDir });
  const { acquireEngine } = await import("../sandbox/store/engine/engines.js");
  const shared = await acquireEngine(parseLocation(dataDir));
  try {
    await addEvents(shared.engine.db, "sandbox", size);
    const response = await fetch(`${sandbox.url}/events`, { headers: { "x-api-key": KEY } });
    const list = (await response.json()) as { data: unknown[] };
    const dbJson = join(dir, `db-${size}.json`);
    await writeFile(dbJson, JSON.stringify({ events: list.data }));
    const venue = await sql<{
      venue_id: string;
    }>`select venue_id::text as venue_id from sandbox.venues where company_id = ${SUMMIT} order by venue_id limit 1`.execute(
      shared.engine.db,
    );
    const summitVenue = venue.rows[0]?.venue_id;
    if (summitVenue === undefined) throw new Error(`the demo seed has no venue of company ${SUMMIT}`);
    return { size, dataDir, dbJson, summit: { key: SUMMIT_KEY, venue: summitVenue } };
  } finally {
    await sandbox.close();
    await shared.release();
  }
}

// ---------------------------------------------------------------------------------------------
// the servers

/** The node options of a measured process: `npm start`'s, and V8's CPU profile under `--cpu-prof`. */
const MEASURED_FLAGS = [...START_FLAGS, ...(PROFILES === "" ? [] : ["--cpu-prof", "--cpu-prof-dir", PROFILES])];

/** Runs the sandbox as `npm start` does (its node options, its bundled entry) with `env`, until it says where it listens. */
function startSandbox(env: Record<string, string>): Promise<Running> {
  const entry = [join(root, "scripts", "run-bundled.mjs"), "sandbox/main.ts"];
  const child = spawn(process.execPath, [...MEASURED_FLAGS, ...entry], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "development", PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return listening(child, "the sandbox", /Sandbox listening at (http:\/\/\S+\/api\/1_12)/);
}

/**
 * Runs the hand-written baseline (./support/baseline-server.ts) on `database` and `schema`, with
 * `npm start`'s node options: both sides run on the same engine settings (on the embedded engine,
 * the same compiler of PGlite's WebAssembly), so the ratio measures the code alone.
 */
function startBaseline(database: string, schema: string): Promise<Running> {
  const script = join(root, "bench", "support", "baseline-server.ts");
  const child = spawn(process.execPath, [...MEASURED_FLAGS, "--import", "tsx", script], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", BASELINE_DATABASE: database, BASELINE_SCHEMA: schema },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return listening(child, "the baseline", /Baseline listening at (http:\/\/\S+)/);
}

/** `child` once its output says where it listens (`pattern`'s first group): its output is read and dropped from then on. */
async function listening(child: ChildProcess, name: string, pattern: RegExp): Promise<Running> {
  killedWithRun(child);
  const base = await new Promise<string>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`${name} did not start in 60 s:\n${output}`)), 60_000);
    const listen = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      // the request log is read and dropped from here on
      child.stdout?.off("data", listen);
      child.stdout?.resume();
      resolve(match[1]);
    };
    child.stdout?.on("data", listen);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code}:\n${output}`)));
  });
  return running(child, base);
}

async function startJsonServer(dbJson: string): Promise<Running> {
  const port = await freePort();
  const bin = join(root, "node_modules", "json-server", "lib", "cli", "bin.js");
  const child = spawn(process.execPath, [bin, "--port", String(port), "--host", "127.0.0.1", "--quiet", dbJson], {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
  });
  killedWithRun(child);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/events?id=1`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || i > 1200) throw new Error(`json-server did not start (exit ${child.exitCode})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return running(child, base);
}

function running(child: ChildProcess, base: string): Running {
  return {
    base,
    pid: child.pid ?? 0,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      // a CPU profile is written when the process exits, not when a signal kills it
      child.kill(PROFILES === "" ? "SIGKILL" : "SIGTERM");
      await exited;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// the driver alone

/** Inserts through the driver alone (each numbered as the sandbox numbers them), from `CONCURRENCY` workers for `seconds`: inserts per second. */
async function driverRate(db: Kysely<Database>, seconds: number): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      await insertWithNextId(
        db,
        HARBOR,
        "last_event_id",
        { table: "events", idColumn: "id", returned: ["id"] },
        {
          company_id: HARBOR,
          name: `Driver ${done}`,
          date: "2024-04-20",
          created: "2026-11-25",
          admin_origin: DANA,
          venue_id: 318,
          custom_fields: JSON.stringify([{ name: "Round", value: String(done) }]),
        },
      );
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return done / ((performance.now() - started) / 1000);
}

// ---------------------------------------------------------------------------------------------
// the cluster's CPU

/** Clock ticks a second of /proc's CPU times (Linux's USER_HZ). */
const TICKS = 100;

/**
 * A process's (or, `<pid>/task/<tid>`, a thread's) parent, its own CPU ticks (user and system), of
 * them the system's, and its exited children's, from /proc.
 */
function statTimes(pid: string): { ppid: number; own: number; system: number; children: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat
    .slice(stat.lastIndexOf(")") + 2)
    .split(" ")
    .map(Number);
  const at = (index: number): number => fields[index] ?? 0;
  return { ppid: at(1), own: at(11) + at(12), system: at(12), children: at(13) + at(14) };
}

/**
 * CPU seconds a server process has used itself: in all (its threads' user and system time), on its
 * main thread (the one running its JavaScript, the thread a V8 CPU profile samples), and in the
 * kernel (the system time of all its threads). The other threads are V8's helpers: its optimising
 * compiler, and its collector's parallel and concurrent work.
 */
interface ServerCpu {
  readonly all: number;
  readonly main: number;
  readonly system: number;
}

/**
 * The system calls a process has made that read and that write (sockets, pipes and files alike),
 * from /proc: counts that no load on the machine moves, where its CPU per request does.
 */
function systemCalls(pid: number): { reads: number; writes: number } {
  const io = readFileSync(`/proc/${pid}/io`, "utf8");
  const count = (name: string): number => Number(new RegExp(`^${name}: (\\d+)$`, "m").exec(io)?.[1] ?? Number.NaN);
  return { reads: count("syscr"), writes: count("syscw") };
}

function processCpu(pid: number): ServerCpu {
  const whole = statTimes(String(pid));
  const main = statTimes(`${pid}/task/${pid}`);
  return { all: whole.own / TICKS, main: main.own / TICKS, system: whole.system / TICKS };
}

/**
 * CPU seconds the server at `postmaster` has used: the postmaster with its exited backends (its
 * children's times), and its live backends.
 */
function serverCpu(postmaster: number): number {
  const own = statTimes(String(postmaster));
  let ticks = own.own + own.children;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const entry = statTimes(pid);
      if (entry.ppid === postmaster) ticks += entry.own;
    } catch {
      // gone meanwhile
    }
  }
  return ticks / TICKS;
}

/** CPU seconds of each node of the Citus cluster: the coordinator's, then each worker's. */
function clusterCpu(): number[] {
  const pid = (node: { process: ChildProcess } | undefined): number => node?.process.pid ?? 0;
  return [citus?.coordinator, ...(citus?.workers ?? [])].map((node) => serverCpu(pid(node)));
}

/** Per way of connecting, CPU milliseconds per POST on each node (coordinator first), over the rounds. */
const cpuPerPost = new Map<Citus, number[][]>();
function recordCpu(target: Citus, before: readonly number[], after: readonly number[], posts: number): void {
  const nodes = cpuPerPost.get(target) ?? after.map(() => []);
  for (const [i, seconds] of after.entries()) nodes[i]?.push(((seconds - (before[i] ?? 0)) * 1000) / posts);
  cpuPerPost.set(target, nodes);
}

// ---------------------------------------------------------------------------------------------
// memory

/** A process's resident set and its peak, in MiB, from /proc. */
async function memoryOf(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const field = (name: string): number =>
    Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024;
  return { rss: field("VmRSS"), peak: field("VmHWM") };
}

/** The peak RSS above idle while the server answers the whole list (read to its end); checks its count. */
async function listPeak(server: Running, expected: number): Promise<number> {
  const idle = await memoryOf(server.pid);
  await writeFile(`/proc/${server.pid}/clear_refs`, "5"); // resets VmHWM to the current RSS
  const response = await fetch(`${server.base}/events`, { headers: { "x-api-key": KEY } });
  const list = (await response.json()) as { data: unknown[]; total_count: number };
  if (list.total_count !== expected || list.data.length !== expected)
    throw new Error(
      `GET /events answered ${list.data.length} events (total_count ${list.total_count}), not ${expected}`,
    );
  const after = await memoryOf(server.pid);
  return after.peak - idle.rss;
}

// ---------------------------------------------------------------------------------------------
// the run

/** The sandbox's engines measured, each with its hand-written baseline. */
type Ours = "embedded" | "postgres";

/** The least rate of the sandbox against the baseline at 10,000 events, per engine. */
const BASELINE_SHARE: Record<Ours, number> = { embedded: 0.9, postgres: 0.85 };
/** The most CPU per request of the sandbox against the baseline at 10,000 events. */
const CPU_RATIO = 1.15;
const WRITES = ["POST /events", "PATCH /events/{id}"] as const;
const OPERATIONS = [...WRITES, "GET /events"] as const;

const rps = (value: number): string => (Number.isNaN(value) ? "" : value >= 100 ? value.toFixed(0) : value.toFixed(1));
const times = (value: number, base: number): string =>
  Number.isNaN(value) || Number.isNaN(base) ? "" : `${(value / base).toFixed(value / base < 10 ? 2 : 1)}×`;
/** The sizes an operation is measured at: the list at 1,000 events, when that size is measured. */
const sizesOf = (operation: Operation): readonly number[] =>
  operation !== "GET /events" ? SIZES : SIZES.includes(1000) ? [1000] : [];

const results = new Map<string, number[]>();
const record = (target: Target | "driver", operation: string, size: number, value: number): void => {
  const key = `${target}|${operation}|${size}`;
  results.set(key, [...(results.get(key) ?? []), value]);
};
const rounds = (target: Target | "driver", operation: string, size: number): readonly number[] =>
  results.get(`${target}|${operation}|${size}`) ?? [];
const figure = (target: Target | "driver", operation: string, size: number): number =>
  median(rounds(target, operation, size));
const peaks: Record<string, number[]> = {};
/** When each measurement ran on which process, in the clock of V8's CPU profiles (µs), for `--cpu-prof`. */
const windows: {
  pid: number;
  target: Target;
  operation: Operation;
  size: number;
  round: number;
  start: number;
  end: number;
  requests: number;
  /** the server's CPU seconds over the window, from /proc */
  cpu: number;
  /** of them, its main thread's */
  main: number;
  /** of them, the kernel's (system time) */
  system: number;
}[] = [];

// npm start's entry, bundled once outside the timings
spawnSync(process.execPath, ["scripts/run-bundled.mjs", "--prepare", "sandbox/main.ts"], {
  cwd: root,
  stdio: "inherit",
});
// the baseline binds by hand what the sandbox binds: the same values in the same places, or no run
await checkParameters();
const dir = await mkdtemp(join(tmpdir(), "bench-sandbox-load-"));
const missing = postgresMissing();
const missingCitus = citusMissing();
let postgres: PostgresServer | undefined;
let citus: CitusCluster | undefined;
/** The database server of a target on one (PostgreSQL, Citus's coordinator). */
const serverUrl = (target: Target): string => (isCitus(target) ? citus?.url : postgres?.url) ?? "";
/** What the run's end stops, stopped on Ctrl-C too (the servers it spawns are killed before it) */
const stopRun = async (): Promise<void> => {
  await postgres?.stop();
  await citus?.stop();
  await rm(dir, { recursive: true, force: true });
};
const withdrawStop = untilStopped(stopRun);
try {
  if (!TARGETS.includes("postgres")) console.log("PostgreSQL left out: not among --targets");
  else if (missing === undefined) postgres = await startPostgres();
  else console.log(`PostgreSQL left out: ${missing}`);
  if (!TARGETS.includes("citus")) console.log("Citus left out: not among --targets");
  else if (missingCitus === undefined) citus = await startCitus();
  else console.log(`Citus left out: ${missingCitus}`);
  const prepared = new Map<number, Prepared>();
  for (const size of SIZES) prepared.set(size, await prepare(dir, size));
  const chosen = (target: string, server?: object): boolean => TARGETS.includes(target) && server !== undefined;
  const targets: Target[] = [
    ...(chosen("embedded", {}) ? ["embedded" as const, BASELINES.embedded] : []),
    ...(chosen("postgres", postgres) ? ["postgres" as const, BASELINES.postgres] : []),
    ...(chosen("citus", citus) ? CITUS : []),
    ...(chosen("json-server", {}) ? ["json-server" as const] : []),
  ];
  for (let round = 0; round < ROUNDS; round++) {
    for (const size of SIZES) {
      const data = prepared.get(size);
      if (data === undefined) continue;
      const order = targets.map((_, i) => targets[(i + round) % targets.length] as Target);
      for (const target of order) {
        // the list in a process of its own, while it holds exactly the events stored, so that every
        // size's writes are measured alike: in a fresh process after the same warm-up
        if (size === 1000)
          await measured(target, data, `${round}_${size}_list`, async (_, server) => {
            await measure(target, server, "GET /events", size, round);
          });
        await measured(target, data, `${round}_${size}`, async (base, server) => {
          const before = isCitus(target) ? clusterCpu() : undefined;
          const posts = await measure(target, server, "POST /events", size, round);
          if (before !== undefined && isCitus(target)) recordCpu(target, before, clusterCpu(), posts.requests);
          await measure(target, server, "PATCH /events/{id}", size, round);
          if (size === 100_000 && (target === "embedded" || target === "postgres")) {
            const count = (await (await fetch(`${base}/events`, { headers: { "x-api-key": KEY } })).json()) as {
              total_count: number;
            };
            peaks[target] = [...(peaks[target] ?? []), await listPeak(server, count.total_count)];
          }
        });
      }
      await driverRound(data, size, round);
    }
  }
  report(targets);
} finally {
  if (PROFILES !== "") await writeFile(join(PROFILES, "windows.json"), `${JSON.stringify(windows, null, 1)}\n`);
  withdrawStop();
  await stopRun();
}

/** Microseconds of the monotonic clock, the one V8's CPU profiles time their samples with. */
function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** Measures `operation` on `server` for SECONDS: records its rate, and the server's CPU per request (ms). */
async function measure(target: Target, server: Running, operation: Operation, size: number, round: number) {
  const before = processCpu(server.pid);
  const callsBefore = systemCalls(server.pid);
  const start = monotonicMicros();
  const done = await load(server.base, operation, size, SECONDS);
  const after = processCpu(server.pid);
  const callsAfter = systemCalls(server.pid);
  const end = monotonicMicros();
  const used = after.all - before.all;
  const main = after.main - before.main;
  const system = after.system - before.system;
  const ms = (seconds: number): number => (seconds * 1000) / done.requests;
  record(target, operation, size, done.requests / done.seconds);
  record(target, `cpu ${operation}`, size, ms(used));
  record(target, `cpu main ${operation}`, size, ms(main));
  record(target, `cpu other ${operation}`, size, ms(used - main));
  record(target, `cpu system ${operation}`, size, ms(system));
  record(target, `reads ${operation}`, size, (callsAfter.reads - callsBefore.reads) / done.requests);
  record(target, `writes ${operation}`, size, (callsAfter.writes - callsBefore.writes) / done.requests);
  if (PROFILES !== "")
    windows.push({
      pid: server.pid,
      target,
      operation,
      size,
      round,
      start,
      end,
      requests: done.requests,
      cpu: used,
      main,
      system,
    });
  return done;
}

/** Starts `target` on a fresh copy of the data, warms it up, runs `measure` on it, and stops it. */
async function measured(
  target: Target,
  data: Prepared,
  copy: string,
  measure: (base: string, server: Running) => Promise<void>,
): Promise<void> {
  // what the server before wrote (json-server rewrites its whole file on every write) is on the
  // disk before this one starts, not written out while it is measured
  flushFiles();
  const server = await startTarget(target, data, copy);
  try {
    // the first requests load code paths and caches, and the JIT compiles the hot ones: edits of
    // the first 1,000 events at every size, so that the warm-up leaves as many changed pages behind
    // (to be written out while the server is measured) at 100,000 events as at 1,000; creates of
    // the other company's events before them (the measured company's number of events stays as it
    // is; not on json-server, which has no companies), unless `--warm-up edits`
    if (WARM_UP.includes("creates") && target !== "json-server")
      await rate(server.base, "POST /events", data.size, WARM_UP_SECONDS, data.summit);
    if (WARM_UP.includes("edits"))
      await rate(server.base, "PATCH /events/{id}", Math.min(data.size, WARM_UP_EVENTS), WARM_UP_SECONDS);
    await measure(server.base, server);
  } finally {
    await server.stop();
  }
  process.stdout.write(".");
}

/** Starts `target` on a fresh copy of the data, `copy` naming it (a PostgreSQL schema `bench_<copy>`). */
async function startTarget(target: Target, data: Prepared, copy: string): Promise<Running> {
  if (target === "json-server") {
    const file = join(dir, `round-${copy}.json`);
    await cp(data.dbJson, file);
    flushFiles();
    return startJsonServer(file);
  }
  if (target === "embedded" || target === BASELINES.embedded) {
    const dataDir = join(dir, `round-${copy}`);
    await rm(dataDir, { recursive: true, force: true });
    await cp(data.dataDir, dataDir, { recursive: true });
    flushFiles();
    return target === "embedded" ? startSandbox({ DATA_DIR: dataDir }) : startBaseline(dataDir, "sandbox");
  }
  const schema = `bench_${copy}${target === BASELINES.postgres ? "_baseline" : ""}`;
  const { createSandbox } = await import("../sandbox/index.js");
  const seeded = await createSandbox({ database: serverUrl(target), schema });
  await seeded.close();
  const engine = await openEngine(parseLocation(serverUrl(target)));
  try {
    // through the upkeep's connections, whose statements are not bounded: at 100,000 events the
    // insert takes longer than the requests' bound of 3 s
    await addEvents(engine.upkeep, schema, data.size);
  } finally {
    await engine.close();
  }
  flushFiles();
  if (target === BASELINES.postgres) return startBaseline(postgres?.url ?? "", schema);
  return startSandbox({ DATABASE_URL: await sandboxUrl(target, schema), SANDBOX_SCHEMA: schema });
}

/**
 * Where the sandbox of `target` connects: on a worker, the process routes its own requests with
 * the metadata Citus keeps on every node, to the measured company's worker (itself, or another).
 */
async function sandboxUrl(target: Target, schema: string): Promise<string> {
  if (target !== "citus, on the company's worker" && target !== "citus, on another worker") return serverUrl(target);
  const port = await citus?.workerOf(schema, HARBOR);
  const own = target === "citus, on the company's worker";
  return citus?.workers.find((worker) => (worker.port === port) === own)?.url ?? "";
}

/** The driver-only insert rate on a fresh copy of the embedded data, and on PostgreSQL and Citus. */
async function driverRound(data: { dataDir: string }, size: number, round: number): Promise<void> {
  if (TARGETS.includes("embedded")) {
    const copy = join(dir, `driver-${round}-${size}`);
    await cp(data.dataDir, copy, { recursive: true });
    flushFiles();
    const embedded = await openEngine(parseLocation(copy));
    try {
      record("driver", "embedded", size, await driverRate(embedded.db.withSchema("sandbox"), SECONDS));
    } finally {
      await embedded.close();
      await rm(copy, { recursive: true, force: true });
    }
  }
  for (const target of ["postgres", "citus"] as const) {
    if (serverUrl(target) === "") continue;
    const engine = await openEngine(parseLocation(serverUrl(target)));
    try {
      record("driver", target, size, await driverRate(engine.db.withSchema(`bench_${round}_${size}`), SECONDS));
    } finally {
      await engine.close();
    }
  }
}

function percent(change: number): string {
  return `${change > 0 ? "+" : ""}${(change * 100).toFixed(1)}%`;
}

function report(targets: readonly Target[]): void {
  const ours = targets.filter((target): target is Ours => target === "embedded" || target === "postgres");
  const withJsonServer = targets.includes("json-server");
  console.log(
    `\n\nRequests per second (medians of ${ROUNDS} rounds of ${SECONDS} s, ${CONCURRENCY} in flight; the sandbox with response checks on)\n`,
  );
  printRates(ours);
  console.log(
    "\nThe spread of the rounds, median (lowest to highest): requests per second, and the server's CPU per request in ms (its own user and system time from /proc over the measured window)\n",
  );
  printSpread(ours);
  console.log(
    "\nThe server's CPU per request in ms by where it ran (medians): its main thread (its JavaScript, and the kernel's work for its calls), its other threads (V8's optimising compiler and the collector's helpers: mostly the compiler while the code is still being optimised), and of the whole the kernel's (system time); beside them, the system calls per request that read and that write (sockets, pipes and files, from /proc/<pid>/io)\n",
  );
  printThreads(ours);
  console.log("\nTargets\n");
  const rows = ours.flatMap((target) => [
    ...(withJsonServer ? jsonServerTargets(target) : []),
    ...baselineTargets(target),
    ...resourceTargets(target),
  ]);
  printTable(["measure", "value", "target", ""], rows);
  printCitus();
}

/**
 * On Citus, per way the sandbox connects: `POST /events`'s rate, and its CPU per request on each
 * node of the cluster (the sandbox's own process apart), with the coordinator's share of it.
 */
function printCitus(): void {
  if (cpuPerPost.size === 0) return;
  const size = Math.max(...SIZES.filter((value) => value <= 10_000));
  console.log(
    `\nCitus, POST /events at ${size.toLocaleString("en")} events and over every size: requests per second, and the cluster's CPU per request in ms (medians; each node's own processes from /proc)\n`,
  );
  const ms = (value: number): string => value.toFixed(2);
  const rows = [...cpuPerPost].map(([target, nodes]) => {
    const [coordinator = 0, ...workers] = nodes.map((values) => median(values));
    const cluster = coordinator + workers.reduce((sum, value) => sum + value, 0);
    return [
      target === "citus" ? "the coordinator" : target.replace("citus, on ", ""),
      rps(figure(target, "POST /events", size)),
      ms(coordinator),
      ...workers.map(ms),
      ms(cluster),
      `${((coordinator / cluster) * 100).toFixed(0)}%`,
    ];
  });
  const workerCount = (rows[0]?.length ?? 6) - 5;
  printTable(
    [
      "the sandbox connects to",
      "requests/s",
      "coordinator",
      ...Array.from({ length: workerCount }, (_, i) => `worker ${i + 1}`),
      "cluster",
      "coordinator's share",
    ],
    rows,
  );
}

/** The rates: each engine's sandbox against json-server and against its baseline, and the driver's inserts. */
function printRates(ours: readonly Ours[]): void {
  const header = [
    "operation",
    "stored events",
    "json-server 0.17.4 (baseline)",
    ...ours.flatMap((target) => [`sandbox, ${target}`, "ratio", `hand-written, ${target}`, "sandbox / hand-written"]),
  ];
  const rows: string[][] = [];
  for (const operation of OPERATIONS) {
    for (const size of sizesOf(operation)) {
      const base = figure("json-server", operation, size);
      rows.push([
        operation,
        size.toLocaleString("en"),
        rps(base),
        ...ours.flatMap((target) => {
          const value = figure(target, operation, size);
          const hand = figure(BASELINES[target], operation, size);
          return [rps(value), times(value, base), rps(hand), times(value, hand)];
        }),
      ]);
    }
  }
  for (const size of SIZES)
    rows.push([
      "inserts through the driver, no HTTP",
      size.toLocaleString("en"),
      "",
      ...ours.flatMap((target) => [rps(figure("driver", target, size)), "", "", ""]),
    ]);
  printTable(header, rows);
}

/** Each figure's median and range over the rounds, the rates and the CPU per request, sandbox and baseline. */
function printSpread(ours: readonly Ours[]): void {
  const spread = (values: readonly number[], format: (value: number) => string): string =>
    values.length === 0
      ? ""
      : `${format(median(values))} (${format(Math.min(...values))} to ${format(Math.max(...values))})`;
  const ms = (value: number): string => value.toFixed(3);
  const header = [
    "operation",
    "stored events",
    ...ours.flatMap((target) => [
      `sandbox, ${target}`,
      "CPU ms",
      "hand-written",
      "CPU ms",
      "CPU sandbox / hand-written",
    ]),
  ];
  const rows: string[][] = [];
  for (const operation of OPERATIONS) {
    for (const size of sizesOf(operation)) {
      rows.push([
        operation,
        size.toLocaleString("en"),
        ...ours.flatMap((target) => {
          const hand = BASELINES[target];
          return [
            spread(rounds(target, operation, size), rps),
            spread(rounds(target, `cpu ${operation}`, size), ms),
            spread(rounds(hand, operation, size), rps),
            spread(rounds(hand, `cpu ${operation}`, size), ms),
            times(figure(target, `cpu ${operation}`, size), figure(hand, `cpu ${operation}`, size)),
          ];
        }),
      ]);
    }
  }
  printTable(header, rows);
}

/** The CPU per request of the writes by thread, and the kernel's share, sandbox and baseline. */
function printThreads(ours: readonly Ours[]): void {
  const ms = (value: number): string => (Number.isNaN(value) ? "" : value.toFixed(3));
  const calls = (value: number): string => (Number.isNaN(value) ? "" : value.toFixed(2));
  const split = (target: Target, operation: Operation, size: number): string[] => {
    const of = (part: string): string => ms(figure(target, `cpu ${part} ${operation}`, size));
    const io = (kind: string): string => calls(figure(target, `${kind} ${operation}`, size));
    return [of("main"), of("other"), of("system"), `${io("reads")} / ${io("writes")}`];
  };
  const header = [
    "operation",
    "stored events",
    ...ours.flatMap((target) => [
      `sandbox, ${target}: main`,
      "other threads",
      "kernel",
      "reads / writes",
      "hand-written: main",
      "other threads",
      "kernel",
      "reads / writes",
    ]),
  ];
  const rows = WRITES.flatMap((operation) =>
    SIZES.map((size) => [
      operation,
      size.toLocaleString("en"),
      ...ours.flatMap((target) => [...split(target, operation, size), ...split(BASELINES[target], operation, size)]),
    ]),
  );
  printTable(header, rows);
}

/** Against json-server: the rates at 10,000 events (GET at 1,000), and POST's flatness from 1,000 to 100,000. */
function jsonServerTargets(target: Ours): string[][] {
  const rows: string[][] = [];
  for (const [operation, size] of [
    ...WRITES.map((write) => [write, 10_000] as const),
    ["GET /events", 1000] as const,
  ]) {
    const value = figure(target, operation, size) / figure("json-server", operation, size);
    rows.push([
      `${target}: ${operation} at ${size.toLocaleString("en")}, against json-server`,
      `${value.toFixed(1)}×`,
      ">= 5×",
      value >= 5 ? "met" : "NOT MET",
    ]);
  }
  const small = figure(target, "POST /events", 1000);
  const large = figure(target, "POST /events", 100_000);
  if (!Number.isNaN(large)) {
    const change = large / small - 1;
    rows.push([
      `${target}: POST at 100,000 against 1,000 (json-server: ${percent(figure("json-server", "POST /events", 100_000) / figure("json-server", "POST /events", 1000) - 1)}; the driver's inserts: ${percent(figure("driver", target, 100_000) / figure("driver", target, 1000) - 1)})`,
      percent(change),
      "within ±20%",
      Math.abs(change) <= 0.2 ? "met" : "NOT MET",
    ]);
  }
  return rows;
}

/** Against the hand-written baseline: the rates, the CPU per request, and POST against the driver's inserts. */
function baselineTargets(target: Ours): string[][] {
  const rows: string[][] = [];
  const least = BASELINE_SHARE[target];
  for (const operation of OPERATIONS) {
    const size = operation === "GET /events" ? 1000 : 10_000;
    if (rounds(target, operation, size).length === 0) continue;
    const value = figure(target, operation, size) / figure(BASELINES[target], operation, size);
    const held = operation !== "GET /events";
    rows.push([
      `${target}: ${operation} at ${size.toLocaleString("en")}, against the hand-written baseline`,
      `${value.toFixed(2)}×`,
      held ? `>= ${least}×` : "",
      held ? (value >= least ? "met" : "NOT MET") : "",
    ]);
  }
  for (const operation of WRITES) {
    const key = `cpu ${operation}`;
    const value = figure(target, key, 10_000) / figure(BASELINES[target], key, 10_000);
    rows.push([
      `${target}: ${operation} at 10,000, CPU per request against the hand-written baseline's`,
      `${value.toFixed(2)}×`,
      `<= ${CPU_RATIO}×`,
      value <= CPU_RATIO ? "met" : "NOT MET",
    ]);
  }
  const driver = figure("driver", target, 10_000);
  const share = figure(target, "POST /events", 10_000) / driver;
  rows.push([
    `${target}: POST at 10,000 as a fraction of the driver's inserts (${rps(driver)}/s; hand-written: ${(
      (figure(BASELINES[target], "POST /events", 10_000) / driver) * 100
    ).toFixed(0)}%)`,
    `${(share * 100).toFixed(0)}%`,
    target === "postgres" ? ">= 50%" : "",
    target === "postgres" ? (share >= 0.5 ? "met" : "NOT MET") : "",
  ]);
  return rows;
}

/** The peak RSS answering the longest list. */
function resourceTargets(target: Ours): string[][] {
  const peak = median(peaks[target] ?? []);
  if (Number.isNaN(peak)) return [];
  return [
    [
      `${target}: peak RSS above idle answering GET /events over 100,000 events`,
      `${peak.toFixed(1)} MiB`,
      "< 64 MiB",
      peak < 64 ? "met" : "NOT MET",
    ],
  ];
}
