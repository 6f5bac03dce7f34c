/**
 * A benchmark signalled mid-run (bench/support/interrupt.ts) stops what it started: a real process
 * running the module is sent SIGINT or SIGTERM while a child of its own runs, and a detached
 * process group of a parent and its child (as `npm start` runs), and the child is killed by its
 * PID, the group stopped whole, the registered stops run newest first (a withdrawn one not at all), and the
 * process exits with 128 + the signal's number. The signal is sent twice, as Ctrl-C reaches a run
 * started through `npx tsx` (from the terminal, and again from tsx): the second does not cut the stops short.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../support/paths.js";

const PROGRAM = `
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { groupStoppedWithRun, killedWithRun, untilStopped } from ${JSON.stringify(pathToFileURL(join(repoRoot, "bench", "support", "interrupt.ts")).href)};
const log = process.argv[2];
untilStopped(async () => {
  await new Promise((resolve) => setTimeout(resolve, 50));
  appendFileSync(log, "cluster\\n");
});
const withdraw = untilStopped(() => appendFileSync(log, "withdrawn\\n"));
untilStopped(() => appendFileSync(log, "folder\\n"));
withdraw();
const ended = spawn("true", { stdio: "ignore" });
killedWithRun(ended);
await new Promise((resolve) => ended.once("exit", resolve));
const server = spawn("sleep", ["60"], { stdio: "ignore" });
killedWithRun(server);
// as npm start runs: a process group of its own (which Ctrl-C does not reach), a parent and its child
const group = spawn(process.execPath, ["-e", "const c = require('node:child_process').spawn('sleep', ['60'], { stdio: 'ignore' }); console.log(c.pid); setInterval(() => {}, 1000);"], { stdio: ["ignore", "pipe", "ignore"], detached: true });
groupStoppedWithRun(group);
const grandchild = await new Promise((resolve) => group.stdout.once("data", (chunk) => resolve(String(chunk).trim())));
process.stdout.write("ready " + server.pid + " " + group.pid + " " + grandchild + "\\n");
setInterval(() => undefined, 1000);
`;

let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(join(repoRoot, ".tmp", "interrupt-"));
  await writeFile(join(dir, "program.mts"), PROGRAM);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Whether a process of this PID is alive (a zombie counts as ended). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function signalled(
  signal: "SIGINT" | "SIGTERM",
  log: string,
): Promise<{ code: number | null; servers: number[] }> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", join(dir, "program.mts"), log], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const servers = await new Promise<number[]>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const pids = /ready (\d+) (\d+) (\d+)/.exec(output);
      if (pids !== null) resolve(pids.slice(1).map(Number));
    });
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`the program exited with ${code} before it was ready:\n${output}`)));
  });
  for (const server of servers) expect(alive(server)).toBe(true);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill(signal);
  child.kill(signal);
  return { code: await exited, servers };
}

describe("a benchmark signalled while it runs", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("stops what it started on %s, newest first, and exits with %i", async (signal, status) => {
    const log = join(dir, `${signal}.log`);
    const { code, servers } = await signalled(signal, log);
    expect(code).toBe(status);
    expect(readFileSync(log, "utf8")).toBe("folder\ncluster\n");
    // the spawned server was killed by its PID, the detached group stopped whole, before the benchmark exited
    const deadline = Date.now() + 2000;
    while (servers.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(servers.filter(alive)).toEqual([]);
    expect(existsSync(log)).toBe(true);
  });
});
