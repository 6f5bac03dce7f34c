/**
 * The first start of `npm start` on an empty data directory, stopped at every moment: SIGKILL and
 * SIGINT every 200 ms from 0 to 3 s after the process is spawned (32 rounds). Whatever the moment,
 * the directory is either absent (the new one was being made beside it) or whole, and the next
 * start opens it with the whole demo seed, removing any partial folder left beside it.
 *
 * What a next start does depends only on what a stop left: a whole directory (opened as it is), or
 * none, with or without partial folders beside it (a new one is made; the partial folders are
 * removed by name, never read). Every round's leftovers are checked to be one of these, every
 * round that left a whole directory is opened by a next start, and so is the first round of each
 * signal that left none without a partial folder and the first that left none with one: a next
 * start costs a PGlite start (about 1.8 s of CPU), and one for each round would more than double
 * the sweep's cost. SANDBOX_SWEEP_STEP_MS sets another step (100: 62 rounds, about 70 s on the
 * 2-core machine), SANDBOX_SWEEP_ALL=1 makes every round's next start (with a step of 100, about
 * 190 s and 185 s of CPU). Two rounds
 * run at a time, each in a folder of its own; the stopped processes load the prepared image from
 * the shared cache; the next starts run in this process, one after the other, while the later
 * rounds are stopped.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { createSandbox } from "../../sandbox/index.js";
import { DEMO_SEED } from "../../sandbox/seed/seed.js";
import { makeTempDir } from "../support/paths.js";
import { spawnSandboxScript } from "./process.js";
import { call, SUMMIT } from "./support.js";

const STEP_MS = Number(process.env.SANDBOX_SWEEP_STEP_MS ?? "") || 200;
const ALL_NEXT_STARTS = process.env.SANDBOX_SWEEP_ALL === "1";
const LAST_MS = 3000;
const AT_ONCE = 2;

/** One stopped first start and what the next start found. */
interface Round {
  readonly signal: "SIGKILL" | "SIGINT";
  readonly at: number;
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
}

let root: string | undefined;
const children = new Set<ChildProcess>();
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

it("leaves a directory the next start opens with the whole seed, wherever SIGKILL or SIGINT stops the first start", async () => {
  const started = { time: performance.now(), cpu: process.cpuUsage() };
  root = await makeTempDir("sandbox-first-start");
  const rounds: Round[] = [];
  for (const signal of ["SIGKILL", "SIGINT"] as const)
    for (let at = 0; at <= LAST_MS; at += STEP_MS)
      rounds.push({ signal, at, dir: join(root, `${signal}-${at}`, "data") });
  const checks: Promise<void>[] = [];
  let checking = Promise.resolve();
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let round = rounds[next++]; round !== undefined; round = rounds[next++]) {
      await stopFirstStart(round);
      const stopped = round;
      if (!needsNextStart(stopped, rounds)) continue;
      const check = checking.then(() => nextStart(stopped));
      checks.push(check);
      // the next starts run one after the other, each after the last whatever it did; a failure is
      // the test's, once the rounds are done (Promise.all below), never an unhandled rejection
      checking = check.catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  await Promise.all(checks);
  const cpu = process.cpuUsage(started.cpu);
  const figures = summary(rounds, performance.now() - started.time, (cpu.user + cpu.system) / 1000);
  process.stdout.write(`first-start sweep: ${JSON.stringify(figures)}\n`);
  const opened = rounds.filter((round) => round.opened !== undefined);
  expect(opened.filter((round) => round.opened !== true || round.partialsAfter !== 0)).toEqual([]);
  expect(rounds.filter((round) => round.left === undefined || (round.others ?? []).length > 0)).toEqual([]);
  // every leftover state was opened by a next start: each whole directory, and none with and without partial folders
  expect(rounds.filter((round) => round.left === "whole" && round.opened === undefined)).toEqual([]);
  const states = (of: readonly Round[]) => new Set(of.map(leftover));
  expect(states(opened)).toEqual(states(rounds));
}, 300_000);

/** Spawns the first start on an empty DATA_DIR and stops it `round.at` ms later. */
async function stopFirstStart(round: Round): Promise<void> {
  const child = await spawnSandboxScript("main", { DATA_DIR: round.dir });
  children.add(child);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await new Promise((resolve) => setTimeout(resolve, round.at));
  round.listened = output.includes("Sandbox listening");
  child.kill(round.signal);
  await exited;
  children.delete(child);
  round.left = existsSync(round.dir) ? "whole" : "absent";
  round.partials = await partialsBeside(round.dir);
  // beside the directory: itself, its lock (a socket the kernel leaves as a name), partial folders,
  // and the private folder of a take of the lock stopped midway (removed by a later take)
  round.others = (await besideNames(round.dir)).filter(
    (name) =>
      name !== "data" && name !== "data.lock" && !name.startsWith("data.partial-") && !name.startsWith(".data.lock-"),
  );
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

/** The sweep's figures: where the stops landed, by signal, and what it cost. */
function summary(rounds: readonly Round[], wallMs: number, cpuMs: number): Record<string, unknown> {
  const by = (signal: string) => {
    const of = rounds.filter((round) => round.signal === signal);
    return {
      absent: of.filter((round) => round.left === "absent").length,
      absentWithPartial: of.filter((round) => round.left === "absent" && (round.partials ?? 0) > 0).length,
      whole: of.filter((round) => round.left === "whole").length,
      afterListening: of.filter((round) => round.listened).length,
      firstWhole: of.find((round) => round.left === "whole")?.at,
      nextStartOpened: of.filter((round) => round.opened).length,
    };
  };
  return {
    SIGKILL: by("SIGKILL"),
    SIGINT: by("SIGINT"),
    wallSeconds: Math.round(wallMs / 100) / 10,
    testProcessCpuSeconds: Math.round(cpuMs / 100) / 10,
  };
}
