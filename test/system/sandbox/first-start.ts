/**
 * The first start of `npm start` on an empty data directory, stopped at every moment of it, with
 * SIGKILL and with SIGINT. Whatever the moment, the directory is either absent (the new one was
 * being made beside it) or whole, and the next start opens it with the whole demo seed, removing
 * any partial folder left beside it.
 *
 * The moments follow the start's own phases, seen from outside: starting (until the partial folder
 * appears beside the directory), making the directory there (until it is moved into place),
 * opening it (until the process prints that it listens), and listening. Once the prepared image is
 * there, one start run to its end measures how long each phase lasts in this run (on a loaded
 * machine a start takes twice as long as on a quiet one); each round then waits for the event that
 * opens its phase and stops the process a fraction of the phase's length after it: 2 moments of
 * starting, 4 of making, 3 of opening and the moment it listens, for each signal (20 rounds, and
 * one measured in each file, stopped by its signal once it listens). SANDBOX_SWEEP_STEPS=n sets n
 * moments in each of the first three phases (SANDBOX_SWEEP_STEPS=10: 64 rounds). Each signal's sweep
 * is two test files, one for the phases up to the directory's move (starting, making: a file
 * `first-start-<signal>.1.test.ts`) and one for those after it (opening, listening: `.2`), each
 * with its own measured start, so that the four can run at once in different workers.
 *
 * What a next start does depends only on what a stop left: a whole directory (opened as it is), or
 * none, with or without partial folders beside it (a new one is made; the partial folders are
 * removed by name, never read). Every round's leftovers are checked to be one of these, every
 * round that left a whole directory is opened by a next start, and so is the first round of each
 * signal that left none without a partial folder and the first that left none with one;
 * SANDBOX_SWEEP_ALL=1 makes every round's next start. Two rounds run at a time, each in a folder
 * of its own; the stopped processes load the prepared image from the shared cache. The next starts
 * run in this process once every round is stopped, so that this process watches each round's
 * phases and sends its signal on time.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { createSandbox } from "../../../sandbox/index.js";
import { DEMO_SEED } from "../../../sandbox/seed/seed.js";
import { prepareImage } from "../../../sandbox/store/engine/engine.js";
import { makeTempDir } from "../../support/paths.js";
import { call, SUMMIT } from "../../support/sandbox-calls.js";
import { spawnSandboxScript } from "../../support/sandbox-process.js";

/** The phases of a first start, each opened by an event seen from outside. */
const PHASES = ["starting", "making", "opening", "listening"] as const;
export type Phase = (typeof PHASES)[number];

const STEPS = Number(process.env.SANDBOX_SWEEP_STEPS ?? "") || undefined;
/** How many moments of each phase are stopped at, a fraction 0, 1/n, 2/n… of its length after it opens. */
const MOMENTS: Readonly<Record<Phase, number>> = {
  starting: STEPS ?? 2,
  making: STEPS ?? 4,
  opening: STEPS ?? 3,
  listening: 1,
};
const ALL_NEXT_STARTS = process.env.SANDBOX_SWEEP_ALL === "1";
const AT_ONCE = 2;
/** How long a round waits for the event opening its phase. */
const PHASE_TIMEOUT_MS = 60_000;

/** The moments after the spawn at which each phase opened, in one start. */
type Timeline = Record<Phase, number>;

/** One stopped first start and what the next start found. */
interface Round {
  readonly signal: "SIGKILL" | "SIGINT";
  readonly phase: Phase;
  /** how long after the phase opened the signal is sent */
  readonly after: number;
  readonly dir: string;
  /** what the stop left: no directory (maybe a partial folder beside it), or a whole one */
  left?: "absent" | "whole";
  partials?: number;
  /** the process had printed that it listened before the signal */
  listened?: boolean;
  /** the next start: the demo seed answered with both keys */
  opened?: boolean;
  /** partial folders left after the next start */
  partialsAfter?: number;
  /** what else the stop left beside the directory (nothing, when it is as it should be) */
  others?: readonly string[];
  /** the stage of the start the signal landed in, read from what it left (landedStage) */
  stage?: Stage;
}

/** the first starts running now (stopped by SIGKILL after the file, should a round fail midway) */
const children = new Set<ChildProcess>();

/**
 * The sweep of one signal over some of the phases, as one test: the measured start, then a round at
 * every moment of each of `phases`.
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
  // makes it: every start measured and stopped then loads it, as every start after a machine's
  // first does
  await prepareImage();
  // one start run to its end: how long each phase lasts here, now; then stopped as a round would be
  const measured: Round = { signal, phase: "listening", after: 0, dir: join(root, "measured", "data") };
  const timeline = await stopFirstStart(measured, (opened) => opened.listening + 200);
  const length = (phase: Phase): number =>
    phase === "listening" ? 0 : timeline[PHASES[PHASES.indexOf(phase) + 1] as Phase] - timeline[phase];
  const rounds: Round[] = [measured];
  for (const phase of phases)
    for (let k = 0; k < MOMENTS[phase]; k++) {
      const after = Math.round((length(phase) * k) / MOMENTS[phase]);
      rounds.push({ signal, phase, after, dir: join(root, `${signal}-${phase}-${k}`, "data") });
    }
  let next = 1;
  const worker = async (): Promise<void> => {
    for (let round = rounds[next++]; round !== undefined; round = rounds[next++])
      await stopFirstStart(round, (opened) => opened[(round as Round).phase] + (round as Round).after);
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  for (const round of rounds) if (needsNextStart(round, rounds)) await nextStart(round);
  const cpu = process.cpuUsage(started.cpu);
  const figures = summary(signal, rounds, timeline, performance.now() - started.time, (cpu.user + cpu.system) / 1000);
  process.stdout.write(`first-start sweep, ${signal}: ${JSON.stringify(figures)}\n`);
  const opened = rounds.filter((round) => round.opened !== undefined);
  expect(opened.filter((round) => round.opened !== true || round.partialsAfter !== 0)).toEqual([]);
  expect(rounds.filter((round) => round.left === undefined || (round.others ?? []).length > 0)).toEqual([]);
  // every leftover state was opened by a next start: each whole directory, and none with and without partial folders
  expect(rounds.filter((round) => round.left === "whole" && round.opened === undefined)).toEqual([]);
  const states = (of: readonly Round[]) => new Set(of.map(leftover));
  expect(states(opened)).toEqual(states(rounds));
  // the stops reached their phases: a stop while making leaves a partial folder, once listening a whole directory
  const of = rounds.filter((round) => round !== measured);
  if (phases.includes("making"))
    expect(of.filter((round) => round.phase === "making" && (round.partials ?? 0) > 0).length).toBeGreaterThan(0);
  if (phases.includes("listening"))
    expect(of.filter((round) => round.phase === "listening" && round.left === "whole").length).toBeGreaterThan(0);
}

/**
 * Spawns the first start on an empty DATA_DIR, watches when each phase opens, and sends the round's
 * signal at the moment `stopAt` answers from those seen so far (ms after the spawn); resolves
 * with the phases seen once the process has exited and its leftovers are recorded.
 */
async function stopFirstStart(round: Round, stopAt: (opened: Timeline) => number): Promise<Timeline> {
  const child = await spawnSandboxScript("main", { DATA_DIR: round.dir });
  const spawned = performance.now();
  children.add(child);
  const opened: Timeline = { starting: 0, making: Number.NaN, opening: Number.NaN, listening: Number.NaN };
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    if (Number.isNaN(opened.listening) && output.includes("Sandbox listening"))
      opened.listening = performance.now() - spawned;
  });
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const folder = join(round.dir, "..");
  // the folders beside the directory are looked at every few ms: a phase opens when its name shows
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      const now = performance.now() - spawned;
      if (Number.isNaN(opened.making) || Number.isNaN(opened.opening)) {
        const names = existsSync(folder) ? readdirSync(folder) : [];
        if (Number.isNaN(opened.making) && names.some((name) => name.startsWith("data.partial-"))) opened.making = now;
        if (Number.isNaN(opened.opening) && names.includes("data")) {
          opened.opening = now;
          if (Number.isNaN(opened.making)) opened.making = now; // made and moved between two looks
        }
      }
      const at = stopAt(opened);
      if (child.exitCode !== null || child.signalCode !== null) {
        clearInterval(timer);
        reject(new Error(`the first start exited before its ${round.phase} phase:\n${output}`));
      } else if (now >= at) {
        clearInterval(timer);
        round.listened = !Number.isNaN(opened.listening);
        child.kill(round.signal);
        resolve();
      } else if (now > PHASE_TIMEOUT_MS) {
        clearInterval(timer);
        reject(
          new Error(`the first start did not reach its ${round.phase} phase in ${PHASE_TIMEOUT_MS} ms:\n${output}`),
        );
      }
    }, 2);
  });
  await exited;
  children.delete(child);
  round.stage = await landedStage(round);
  round.left = existsSync(round.dir) ? "whole" : "absent";
  round.partials = await partialsBeside(round.dir);
  // beside the directory: itself, its lock (a socket the kernel leaves as a name), partial folders,
  // and the private folder of a take of the lock stopped midway (removed by a later take)
  round.others = (await besideNames(round.dir)).filter(
    (name) =>
      name !== "data" && name !== "data.lock" && !name.startsWith("data.partial-") && !name.startsWith(".data.lock-"),
  );
  return opened;
}

/** The stages of a first start, as what a stop in each leaves on disk shows them, in their order. */
const STAGES = [
  "nothing on disk",
  "its folder made",
  "taking the lock",
  "locked",
  "partial folder empty",
  "partial folder filled, the database not open",
  "the database open in the partial folder",
  "moved into place, the database not open",
  "the database opening in place",
  "listening",
] as const;
type Stage = (typeof STAGES)[number];

/**
 * The stage a stopped first start was in when its signal came, from what it left (a signal before
 * it listens ends the process where it is, so what is on disk is what was there at the signal): the
 * database is open while its postmaster.pid is there.
 */
async function landedStage(round: Round): Promise<Stage> {
  if (round.listened === true) return "listening";
  const folder = join(round.dir, "..");
  const names = await besideNames(round.dir);
  if (names.includes("data"))
    return existsSync(join(round.dir, "postmaster.pid"))
      ? "the database opening in place"
      : "moved into place, the database not open";
  const partial = names.find((name) => name.startsWith("data.partial-"));
  if (partial !== undefined) {
    const inside = await readdir(join(folder, partial));
    if (inside.length === 0) return "partial folder empty";
    return inside.includes("postmaster.pid")
      ? "the database open in the partial folder"
      : "partial folder filled, the database not open";
  }
  if (names.includes("data.lock")) return "locked";
  if (names.length > 0) return "taking the lock";
  return existsSync(folder) ? "its folder made" : "nothing on disk";
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

/** Whether a round's next start is made: every one with SANDBOX_SWEEP_ALL, else the first of each leftover state and each whole directory. */
function needsNextStart(round: Round, rounds: readonly Round[]): boolean {
  if (ALL_NEXT_STARTS || round.left === "whole") return true;
  return rounds.find((other) => other.left !== undefined && leftover(other) === leftover(round)) === round;
}

/** The sweep's figures: the phases' moments, where the signal's stops landed, and what it cost. */
function summary(
  signal: Round["signal"],
  rounds: readonly Round[],
  timeline: Timeline,
  wallMs: number,
  cpuMs: number,
): Record<string, unknown> {
  return {
    phasesOpenedAtMs: Object.fromEntries(PHASES.map((phase) => [phase, Math.round(timeline[phase])])),
    [signal]: {
      absent: rounds.filter((round) => round.left === "absent").length,
      absentWithPartial: rounds.filter((round) => round.left === "absent" && (round.partials ?? 0) > 0).length,
      whole: rounds.filter((round) => round.left === "whole").length,
      afterListening: rounds.filter((round) => round.listened).length,
      nextStartOpened: rounds.filter((round) => round.opened).length,
    },
    stops: rounds.map((round) => `${round.phase} +${round.after} ms: ${round.stage}`),
    stopsByStage: Object.fromEntries(
      STAGES.map((stage) => [stage, rounds.filter((round) => round.stage === stage).length]).filter(([, n]) => n !== 0),
    ),
    wallSeconds: Math.round(wallMs / 100) / 10,
    testProcessCpuSeconds: Math.round(cpuMs / 100) / 10,
  };
}
