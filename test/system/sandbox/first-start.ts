/**
 * The first start of `npm start` on an empty data directory, stopped in every stage of it, with
 * SIGKILL and with SIGINT. Whatever the stage, the directory is either absent (the new one was
 * being made beside it) or whole, and the next start opens it with the whole demo seed, removing
 * any partial folder left beside it.
 *
 * The stages are seen from outside, on disk, in their order (STAGES): nothing there yet, the
 * directory's folder made, the lock being taken and taken, then the partial folder beside the
 * directory (empty, the image being written in it, the database open in it for the schema and the
 * seed, closed and tightened), then the directory moved into place (before and while PGlite starts
 * on it), and listening. Each round waits for its stage (the folders are looked at every 2 ms) and
 * sends its signal as soon as it sees it; a stage that passes between two looks is stopped in the
 * first one after it. Then what the stop left says which stage the signal landed in (a signal
 * before the process listens ends it where it is), and the sweep checks that every stage that
 * lasts longer than a look was landed in (the folder's, the lock's and the take's last
 * milliseconds: they are aimed at, and landed in when a look sees them). A stage whose rounds all
 * landed later (on a busy machine a look can come late by a whole stage) gets up to three more
 * rounds before the sweep fails. One round per stage and signal (20 rounds); SANDBOX_SWEEP_STEPS=n stops each stage at n moments instead, a fraction 0,
 * 1/n, 2/n… of its length, as a start run to the stage after the file's last measures it first.
 * Each signal's sweep is two test files, one for the phases up to the directory's move (starting,
 * making: a file `first-start-<signal>.1.test.ts`) and one for those after it (opening, listening:
 * `.2`), so that the four can run at once in different workers.
 *
 * What a next start does depends only on what a stop left: a whole directory (opened as it is), or
 * none, with or without partial folders beside it (a new one is made; the partial folders are
 * removed by name, never read). Every round's leftovers are checked to be one of these, every
 * round that left a whole directory is opened by a next start, and so is, of the rounds of each
 * signal that left none without a partial folder and of those that left none with one, the one
 * stopped latest in the start (which left the most beside it: a stale lock, a closed database);
 * SANDBOX_SWEEP_ALL=1 makes every round's next start. Two rounds run at a time, each in a folder
 * of its own; the stopped processes load the prepared image from the shared cache. The next starts
 * run in this process once every round is stopped, so that this process watches each round's
 * stages and sends its signal on time.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { createSandbox } from "../../../sandbox/index.js";
import { DEMO_SEED } from "../../../sandbox/seed/seed.js";
import { prepareImage } from "../../../sandbox/store/engine/engine.js";
import { loadImage } from "../../../sandbox/store/engine/image.js";
import { makeTempDir } from "../../support/paths.js";
import { call, SUMMIT } from "../../support/sandbox-calls.js";
import { spawnSandboxScript } from "../../support/sandbox-process.js";

/** The phases of a first start: the two files of a signal split them at the directory's move. */
export type Phase = "starting" | "making" | "opening" | "listening";

/**
 * The stages of a first start, in their order, each as what is on disk shows it (the database is
 * open while its postmaster.pid is there), with its phase; `brief`, those that last a few
 * milliseconds, which a look every 2 ms may not see.
 */
const STAGES = [
  { name: "nothing on disk", phase: "starting" },
  { name: "its folder made", phase: "starting", brief: true },
  { name: "taking the lock", phase: "starting", brief: true },
  { name: "locked", phase: "starting", brief: true },
  { name: "partial folder empty", phase: "making" },
  { name: "the image being written in the partial folder", phase: "making" },
  { name: "the database open in the partial folder", phase: "making" },
  { name: "the database closed in the partial folder", phase: "making" },
  { name: "moved into place, the database not open", phase: "opening" },
  { name: "the database opening in place", phase: "opening" },
  { name: "listening", phase: "listening" },
] as const satisfies readonly { name: string; phase: Phase; brief?: true }[];
type Stage = (typeof STAGES)[number]["name"];
const stageIndex = (stage: Stage): number => STAGES.findIndex((each) => each.name === stage);

const STEPS = Number(process.env.SANDBOX_SWEEP_STEPS ?? "") || 1;
const ALL_NEXT_STARTS = process.env.SANDBOX_SWEEP_ALL === "1";
const AT_ONCE = 2;
/** How many more rounds a stage that lasts longer than a look gets, when the ones aimed at it landed later. */
const AIMS_AGAIN = 3;
/** How long a round waits for its stage. */
const STAGE_TIMEOUT_MS = 60_000;

/** The moments after the spawn at which each stage was first seen, in one start. */
type Timeline = Partial<Record<Stage, number>>;

/** One stopped first start and what the next start found. */
interface Round {
  readonly signal: "SIGKILL" | "SIGINT";
  /** the stage the signal is aimed at */
  readonly target: Stage;
  /** how long after the stage was seen the signal is sent */
  readonly after: number;
  readonly dir: string;
  /** what the stop left: no directory (maybe a partial folder beside it), or a whole one */
  left?: "absent" | "whole";
  partials?: number;
  /** the process had printed that it listened before the signal */
  listened?: boolean;
  /** the database was seen open in the partial folder (so a filled one without it is closed) */
  openedInPartial?: boolean;
  /** the next start: the demo seed answered with both keys */
  opened?: boolean;
  /** partial folders left after the next start */
  partialsAfter?: number;
  /** what else the stop left beside the directory (nothing, when it is as it should be) */
  others?: readonly string[];
  /** the stage the signal landed in, read from what the stop left */
  stage?: Stage;
}

/** the first starts running now (stopped by SIGKILL after the file, should a round fail midway) */
const children = new Set<ChildProcess>();

/**
 * The sweep of one signal over the stages of some of the phases, as one test: a round at every
 * moment of each of their stages.
 */
export function describeFirstStartSweep(signal: Round["signal"], phases: readonly Phase[]): void {
  let root: string | undefined;
  afterAll(async () => {
    for (const child of children) child.kill("SIGKILL");
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });
  it(`leaves a directory the next start opens with the whole seed, wherever ${signal} stops the first start ${phases.join(" or ")}`, async () => {
    root = await makeTempDir("sandbox-first-start");
    await sweep(signal, phases, root);
  }, 300_000);
}

async function sweep(signal: Round["signal"], phases: readonly Phase[], root: string): Promise<void> {
  const started = { time: performance.now(), cpu: process.cpuUsage() };
  // the prepared image, made here when this machine has none yet (a fresh checkout), as `npm ci`
  // makes it: every start stopped then loads it, as every start after a machine's first does (when
  // it is there, it is only read and checked, not started)
  const image = await loadImage();
  if (!(image instanceof Blob)) {
    await image.release();
    await prepareImage();
  }
  const stages = STAGES.filter((stage) => phases.includes(stage.phase)).map((stage) => stage.name);
  const round = (target: Stage, k: number, after = 0): Round => ({
    signal,
    target,
    after,
    dir: join(root, `${signal}-${stageIndex(target)}-${k}`, "data"),
  });
  const rounds = stages.map((stage) => round(stage, 0));
  let timeline: Timeline = {};
  if (STEPS > 1) {
    // one start stopped in the stage after the last (or once it listens): how long each stage lasts here, now
    const last = STAGES[Math.min(stageIndex(stages.at(-1) as Stage) + 1, STAGES.length - 1)]?.name as Stage;
    const measured = rounds.find((each) => each.target === last) ?? round(last, 0);
    timeline = await stopFirstStart(measured);
    if (!rounds.includes(measured)) rounds.unshift(measured);
    for (const [i, stage] of STAGES.entries()) {
      const next = STAGES[i + 1]?.name;
      const length = next === undefined ? 0 : (timeline[next] ?? Number.NaN) - (timeline[stage.name] ?? Number.NaN);
      if (stages.includes(stage.name) && length > 0)
        for (let k = 1; k < STEPS; k++) rounds.push(round(stage.name, k, Math.round((length * k) / STEPS)));
    }
  }
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let each = rounds[next++]; each !== undefined; each = rounds[next++]) {
      if (each.stage !== undefined) continue; // the measured one, already stopped
      const seen = await stopFirstStart(each);
      if (Object.keys(seen).length > Object.keys(timeline).length) timeline = seen;
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  // a look delayed past a whole stage (the machine busy) stops the start in a later one: such a
  // stage is aimed at again, a bounded number of times, before the sweep says it was not landed in
  const lasting = STAGES.filter((stage) => stages.includes(stage.name) && !("brief" in stage)).map(
    (stage) => stage.name,
  );
  for (let attempt = 1; attempt <= AIMS_AGAIN; attempt++) {
    const landed = new Set(rounds.map((each) => each.stage));
    const missed = lasting.filter((stage) => !landed.has(stage));
    if (missed.length === 0) break;
    const again = missed.map((stage) => round(stage, STEPS + attempt));
    rounds.push(...again);
    for (const each of again) await stopFirstStart(each);
  }
  for (const each of rounds) if (needsNextStart(each, rounds)) await nextStart(each);
  const cpu = process.cpuUsage(started.cpu);
  const figures = summary(signal, rounds, timeline, performance.now() - started.time, (cpu.user + cpu.system) / 1000);
  process.stdout.write(`first-start sweep, ${signal}: ${JSON.stringify(figures)}\n`);
  const opened = rounds.filter((each) => each.opened !== undefined);
  expect(opened.filter((each) => each.opened !== true || each.partialsAfter !== 0)).toEqual([]);
  expect(rounds.filter((each) => each.left === undefined || (each.others ?? []).length > 0)).toEqual([]);
  // every leftover state was opened by a next start: each whole directory, and none with and without partial folders
  expect(rounds.filter((each) => each.left === "whole" && each.opened === undefined)).toEqual([]);
  const states = (of: readonly Round[]) => new Set(of.map(leftover));
  expect(states(opened)).toEqual(states(rounds));
  // the stops landed in every stage of these phases that lasts longer than a look
  const landed = new Set(rounds.map((each) => each.stage));
  expect(lasting.filter((stage) => !landed.has(stage))).toEqual([]);
  // a stop while making leaves a partial folder, once listening a whole directory
  const making = rounds.filter((each) => STAGES[stageIndex(each.stage as Stage)]?.phase === "making");
  if (phases.includes("making")) expect(making.filter((each) => (each.partials ?? 0) === 0)).toEqual([]);
  if (phases.includes("listening"))
    expect(rounds.filter((each) => each.stage === "listening" && each.left !== "whole")).toEqual([]);
}

/**
 * The stage a first start on `round.dir` shows on disk now, or undefined when it moved on while
 * being looked at (a folder gone between two reads).
 */
function stageOnDisk(round: Round): Stage | undefined {
  if (round.listened === true) return "listening";
  const folder = dirname(round.dir);
  try {
    if (!existsSync(folder)) return "nothing on disk";
    const names = readdirSync(folder);
    if (names.includes("data"))
      return existsSync(join(round.dir, "postmaster.pid"))
        ? "the database opening in place"
        : "moved into place, the database not open";
    const partial = names.find((name) => name.startsWith("data.partial-"));
    if (partial !== undefined) {
      const inside = readdirSync(join(folder, partial));
      if (inside.length === 0) return "partial folder empty";
      if (inside.includes("postmaster.pid")) {
        round.openedInPartial = true;
        return "the database open in the partial folder";
      }
      return round.openedInPartial === true
        ? "the database closed in the partial folder"
        : "the image being written in the partial folder";
    }
    if (names.includes("data.lock")) return "locked";
    if (names.some((name) => name.startsWith(".data.lock-"))) return "taking the lock";
    return "its folder made";
  } catch {
    return undefined;
  }
}

/**
 * Spawns the first start on an empty DATA_DIR, looks at its stages every 2 ms, and sends the
 * round's signal once its stage is seen (and `round.after` ms more); resolves with when each stage
 * was seen, once the process has exited and its leftovers and landed stage are recorded.
 */
async function stopFirstStart(round: Round): Promise<Timeline> {
  const child = await spawnSandboxScript("main", { DATA_DIR: round.dir });
  const spawned = performance.now();
  children.add(child);
  const seen: Timeline = {};
  let output = "";
  let listened = false;
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    listened ||= output.includes("Sandbox listening");
  });
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await new Promise<void>((resolve, reject) => {
    const look = (): void => {
      const now = performance.now() - spawned;
      // the listening line counts from the look after it came, as the folders do
      if (listened) round.listened = true;
      const stage = stageOnDisk(round);
      if (stage !== undefined) for (const each of STAGES.slice(0, stageIndex(stage) + 1)) seen[each.name] ??= now;
      const reached = seen[round.target];
      if (child.exitCode !== null || child.signalCode !== null) {
        clearInterval(timer);
        reject(new Error(`the first start exited before its stage ${round.target}:\n${output}`));
      } else if (reached !== undefined && now >= reached + round.after) {
        clearInterval(timer);
        round.listened = listened;
        child.kill(round.signal);
        resolve();
      } else if (now > STAGE_TIMEOUT_MS) {
        clearInterval(timer);
        reject(
          new Error(`the first start did not reach its stage ${round.target} in ${STAGE_TIMEOUT_MS} ms:\n${output}`),
        );
      }
    };
    const timer = setInterval(look, 2);
    look();
  });
  await exited;
  children.delete(child);
  round.stage = stageOnDisk(round) ?? round.target;
  round.left = existsSync(round.dir) ? "whole" : "absent";
  round.partials = await partialsBeside(round.dir);
  // beside the directory: itself, its lock (a socket the kernel leaves as a name), partial folders,
  // and the private folder of a take of the lock stopped midway (removed by a later take)
  round.others = (await besideNames(round.dir)).filter(
    (name) =>
      name !== "data" && name !== "data.lock" && !name.startsWith("data.partial-") && !name.startsWith(".data.lock-"),
  );
  return seen;
}

/** Starts the sandbox on the directory a stopped start left, checks the demo seed, and closes it. */
async function nextStart(round: Round): Promise<void> {
  const sandbox = await createSandbox({ database: round.dir });
  try {
    const harbor = DEMO_SEED.companies[0];
    const rules = await call(sandbox.url, "listWageRules");
    const events = await call(sandbox.url, "listEvents", { key: SUMMIT });
    round.opened =
      rules.status === 200 &&
      JSON.stringify((rules.body as { data: unknown }).data) === JSON.stringify(harbor?.wage_rules) &&
      events.status === 200;
    round.partialsAfter = await partialsBeside(round.dir);
  } finally {
    await sandbox.close();
  }
}

async function partialsBeside(dir: string): Promise<number> {
  return (await besideNames(dir)).filter((name) => name.startsWith("data.partial-")).length;
}

/** The names in the directory's folder. */
async function besideNames(dir: string): Promise<string[]> {
  return readdir(join(dir, "..")).catch(() => []);
}

/** What a stop left, as far as a next start can tell: the directory whole or absent, partial folders or not. */
function leftover(round: Round): string {
  return `${round.signal} ${round.left} ${round.left === "absent" && (round.partials ?? 0) > 0 ? "with" : "without"} partial folders`;
}

/**
 * Whether a round's next start is made: every one with SANDBOX_SWEEP_ALL, else each whole directory
 * and, of each other leftover state, the round stopped latest in the start.
 */
function needsNextStart(round: Round, rounds: readonly Round[]): boolean {
  if (ALL_NEXT_STARTS || round.left === "whole") return true;
  const latest = (a: Round, b: Round): Round => (stageIndex(b.stage as Stage) >= stageIndex(a.stage as Stage) ? b : a);
  return (
    rounds.filter((other) => other.left !== undefined && leftover(other) === leftover(round)).reduce(latest) === round
  );
}

/** The sweep's figures: when the stages were seen, where the signal's stops landed, and what it cost. */
function summary(
  signal: Round["signal"],
  rounds: readonly Round[],
  timeline: Timeline,
  wallMs: number,
  cpuMs: number,
): Record<string, unknown> {
  return {
    stagesSeenAtMs: Object.fromEntries(Object.entries(timeline).map(([stage, at]) => [stage, Math.round(at)])),
    [signal]: {
      absent: rounds.filter((round) => round.left === "absent").length,
      absentWithPartial: rounds.filter((round) => round.left === "absent" && (round.partials ?? 0) > 0).length,
      whole: rounds.filter((round) => round.left === "whole").length,
      afterListening: rounds.filter((round) => round.listened).length,
      nextStartOpened: rounds.filter((round) => round.opened).length,
    },
    stops: rounds.map(
      (round) =>
        `${round.target} +${round.after} ms: ${round.stage}${round.opened === undefined ? "" : ", started again"}`,
    ),
    stopsByStage: Object.fromEntries(
      STAGES.map(({ name }) => [name, rounds.filter((round) => round.stage === name).length]).filter(
        ([, n]) => n !== 0,
      ),
    ),
    wallSeconds: Math.round(wallMs / 100) / 10,
    testProcessCpuSeconds: Math.round(cpuMs / 100) / 10,
  };
}
