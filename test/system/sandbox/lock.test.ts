/**
 * The data directory's lock (sandbox/store/engine/directory-lock.ts), with real processes that only take
 * it (./lock-holder.ts, bundled once): a holder killed and the lock taken again at once, before it
 * is reaped; a zombie holder; lock files of earlier versions naming live unrelated processes; a
 * second live process refused, naming the holder; two processes taking over one stale lock at the
 * same moment; a held lock not keeping its process alive; the socket's mode; a path longer than a
 * socket's; and the reset request a running sandbox serves through its lock (the whole command is
 * tested in ./process.test.ts).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { link, lstat, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DirectoryInUseError,
  type DirectoryLock,
  lockDirectory,
} from "../../../sandbox/store/engine/directory-lock.js";
import { parseHolder, requestReset, serveResets } from "../../../sandbox/store/engine/lock-channel.js";
import { bundled } from "../../support/bundle.js";
import { linesOf } from "../../support/lines.js";
import { makeTempDir } from "../../support/paths.js";

let dir: string;
let holderScript: string;
/** every process started, killed by its PID at the end */
const started: ChildProcess[] = [];

beforeAll(async () => {
  dir = await makeTempDir("sandbox-lock");
  [holderScript = ""] = await bundled(["test/system/sandbox/lock-holder.ts"]);
});
afterAll(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await rm(dir, { recursive: true, force: true });
});

/** Starts the holder script (`hold` or `serve`) on `directory`, by `command` (node, or a wrapper). */
function startHolder(
  directory: string,
  mode: "hold" | "serve",
  wrapper: readonly string[] = [],
): { child: ChildProcess; line: () => Promise<string> } {
  const [command = process.execPath, ...args] = [...wrapper, process.execPath, holderScript, directory, mode];
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  started.push(child);
  return { child, line: linesOf(child, "the holder") };
}

/** Takes the lock in this process, trying again while a holder just killed is still exiting. */
async function takeWithin(directory: string, ms: number): Promise<{ lock: DirectoryLock; tries: number }> {
  const deadline = Date.now() + ms;
  for (let tries = 1; ; tries++) {
    try {
      return { lock: await lockDirectory(directory), tries };
    } catch (error) {
      if (!(error instanceof DirectoryInUseError) || Date.now() > deadline) throw error;
    }
  }
}

/**
 * A process's state ("Z" for a zombie) and how many of its threads remain. A killed process's
 * first thread shows Z while its other threads (Node has several) are still exiting; its files,
 * the lock's socket among them, are closed once the last one has.
 */
function processState(pid: number): { state: string | undefined; threads: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return { state: /^State:\s+(\S)/m.exec(status)?.[1], threads: Number(/^Threads:\s+(\d+)/m.exec(status)?.[1]) };
  } catch {
    return { state: undefined, threads: 0 };
  }
}

describe("a lock whose holder died", () => {
  it("is taken again at once after its holder is killed, before it is reaped (20 rounds)", async () => {
    const directory = join(dir, "killed");
    const rounds: { ms: number; tries: number }[] = [];
    for (let round = 0; round < 20; round++) {
      const holder = startHolder(directory, "hold");
      expect(await holder.line()).toBe(`held ${holder.child.pid}`);
      // the take starts in the same tick as the kill: nothing waits for the holder's exit
      holder.child.kill("SIGKILL");
      const begun = performance.now();
      const { lock, tries } = await takeWithin(directory, 5000);
      rounds.push({ ms: Math.round(performance.now() - begun), tries });
      await lock.release();
    }
    const times = rounds.map((round) => round.ms).sort((a, b) => a - b);
    const figures = {
      rounds: rounds.length,
      takenAtFirstTry: rounds.filter((round) => round.tries === 1).length,
      medianMs: times[Math.floor(times.length / 2)],
      maxMs: times.at(-1),
    };
    process.stdout.write(`lock after kill -9: ${JSON.stringify(figures)}\n`);
    expect(rounds).toHaveLength(20);
    expect(existsSync(`${directory}.lock`)).toBe(false);
  });

  it("is taken while its holder is a zombie its parent does not reap", async () => {
    const directory = join(dir, "zombie");
    // perl forks the holder and sleeps without ever waiting for it
    const parent = startHolder(directory, "hold", [
      "perl",
      "-e",
      "my $p = fork(); if ($p == 0) { exec(@ARGV) or die } sleep 30",
    ]);
    try {
      const held = await parent.line();
      const pid = Number(/^held (\d+)$/.exec(held)?.[1]);
      expect(pid).toBeGreaterThan(0);
      expect(pid).not.toBe(parent.child.pid);
      process.kill(pid, "SIGKILL");
      const zombie = { state: "Z", threads: 1 };
      const deadline = Date.now() + 5000;
      while (JSON.stringify(processState(pid)) !== JSON.stringify(zombie) && Date.now() < deadline)
        await new Promise((wake) => setTimeout(wake, 10));
      expect(processState(pid)).toEqual(zombie);
      const lock = await lockDirectory(directory);
      // still a zombie: nothing waited for it to be reaped
      expect(processState(pid)).toEqual(zombie);
      await lock.release();
    } finally {
      parent.child.kill("SIGKILL");
    }
  });

  it("is taken over from a lock file of an earlier version, even naming a live unrelated process", async () => {
    const directory = join(dir, "old");
    await mkdir(dir, { recursive: true });
    for (const pid of [1, process.ppid, process.pid]) {
      await writeFile(`${directory}.lock`, `${JSON.stringify({ pid, host: hostname(), since: "2026-01-01" })}\n`);
      const lock = await lockDirectory(directory);
      expect((await lstat(lock.path)).isSocket()).toBe(true);
      await lock.release();
    }
    // one whose writer was killed before it wrote
    await writeFile(`${directory}.lock`, "");
    await (await lockDirectory(directory)).release();
    expect(existsSync(`${directory}.lock`)).toBe(false);
  });

  it("leaves a file in its place that is not a lock, saying so", async () => {
    const directory = join(dir, "other-file");
    await writeFile(`${directory}.lock`, "notes I keep here\n");
    await expect(lockDirectory(directory)).rejects.toThrow(
      `${directory}.lock is in the way of the data directory ${directory}'s lock and is not a lock the sandbox made: move it away, or give the sandbox another directory (DATA_DIR)`,
    );
    expect(await readFile(`${directory}.lock`, "utf8")).toBe("notes I keep here\n");
  });
});

describe("a lock whose holder lives", () => {
  it("refuses a second process and this one, naming the holder; its socket is 0600 whatever the umask", async () => {
    const directory = join(dir, "live");
    const before = process.umask(0);
    let holder: ReturnType<typeof startHolder>;
    try {
      holder = startHolder(directory, "hold");
    } finally {
      process.umask(before);
    }
    try {
      expect(await holder.line()).toBe(`held ${holder.child.pid}`);
      const info = await lstat(`${directory}.lock`);
      expect([info.isSocket(), (info.mode & 0o777).toString(8)]).toEqual([true, "600"]);
      // the private folder it was bound in is gone
      expect((await readdir(dir)).filter((name) => name.startsWith(".live.lock"))).toEqual([]);
      const refusal = `the data directory ${directory} is in use by process ${holder.child.pid} on ${hostname()} (since `;
      const second = startHolder(directory, "hold");
      expect(await second.line()).toContain(`refused ${refusal}`);
      await expect(lockDirectory(directory)).rejects.toThrow(refusal);
    } finally {
      holder.child.kill("SIGKILL");
    }
  });

  it("lets one of two processes taking over one stale lock at the same moment win, every round (20 rounds), and does not keep its process alive", async () => {
    const directory = join(dir, "race");
    const racers = [startHolder(directory, "serve"), startHolder(directory, "serve")];
    const wins = [0, 0];
    try {
      for (let round = 0; round < 20; round++) {
        await plantStale(`${directory}.lock`, round % 2 === 0 ? "socket" : "old file");
        for (const racer of racers) racer.child.stdin?.write("take\n");
        const outcomes = await Promise.all(racers.map((racer) => racer.line()));
        const winner = outcomes.findIndex((outcome) => outcome.startsWith("held "));
        expect(
          outcomes.filter((outcome) => outcome.startsWith("held ")),
          JSON.stringify(outcomes),
        ).toHaveLength(1);
        const loser = outcomes[1 - winner] ?? "";
        expect(loser).toContain(`in use by process ${racers[winner]?.child.pid} on `);
        wins[winner] = (wins[winner] ?? 0) + 1;
        racers[winner]?.child.stdin?.write("release\n");
        expect(await racers[winner]?.line()).toBe("released");
      }
      // a held lock does not keep its process alive: with stdin closed, the holder ends on its own
      const [last, other] = racers;
      last?.child.stdin?.write("take\n");
      expect(await last?.line()).toBe(`held ${last?.child.pid}`);
      const exits = racers.map((racer) => new Promise((resolve) => racer.child.once("exit", resolve)));
      for (const racer of racers) racer.child.stdin?.end();
      expect(await Promise.all(exits)).toEqual([0, 0]);
      expect(other?.child.exitCode).toBe(0);
      await (await lockDirectory(directory)).release();
    } finally {
      for (const racer of racers) if (racer.child.exitCode === null) racer.child.kill("SIGKILL");
    }
    process.stdout.write(`lock takeover races: wins ${JSON.stringify(wins)}\n`);
    expect((wins[0] ?? 0) + (wins[1] ?? 0)).toBe(20);
  });

  it("works on a path longer than a socket's, reached through a shorter one", async () => {
    const deep = join(dir, "a".repeat(60), "b".repeat(60));
    const directory = join(deep, "data");
    expect(Buffer.byteLength(`${directory}.lock`)).toBeGreaterThan(107);
    const lock = await lockDirectory(directory);
    expect((await lstat(`${directory}.lock`)).isSocket()).toBe(true);
    await expect(lockDirectory(directory)).rejects.toThrow(
      `the data directory ${directory} is in use by this process (another sandbox)`,
    );
    await lock.release();
    expect(await readdir(deep)).toEqual([]);
  });

  it("passes a reset request to the handler of its schema, and answers its error", async () => {
    const directory = join(dir, "reset");
    const lock = await lockDirectory(directory);
    const received: unknown[] = [];
    const stop = serveResets(directory, "sandbox", async (seed) => {
      received.push(seed);
      if (received.length === 2) throw new Error("the seed is wrong");
    });
    try {
      expect((await requestReset(directory, "sandbox", { companies: [] })).pid).toBe(process.pid);
      expect(received).toEqual([{ companies: [] }]);
      await expect(requestReset(directory, "sandbox", { companies: [] })).rejects.toThrow(
        "the sandbox in this process (another sandbox) did not reset: the seed is wrong",
      );
      await expect(requestReset(directory, "other", {})).rejects.toThrow(
        "did not reset: no sandbox on the schema other runs in this process now",
      );
    } finally {
      stop();
      await lock.release();
    }
    await expect(requestReset(directory, "sandbox", {})).rejects.toThrow(
      `the sandbox holding the data directory ${directory} stopped before it could be asked to reset it`,
    );
  });
});

describe("what a holder says", () => {
  it("is printed only as escaped text: no terminal control, line break or other character outside printable ASCII", () => {
    const greeting = JSON.stringify({ pid: 7, host: "\u001b[2Jevil\nhost\u009b", since: `\u0007${"x".repeat(100)}` });
    expect(parseHolder(greeting)).toEqual({
      pid: 7,
      host: "\\u001b[2Jevil\\u000ahost\\u009b",
      since: `\\u0007${"x".repeat(39)}…`,
    });
    expect(parseHolder('{"pid": 1.5, "host": "h"}')).toBeUndefined();
  });
});

/** Leaves a stale lock at `file`: a socket nobody listens on, or a lock file of an earlier version. */
async function plantStale(file: string, kind: "socket" | "old file"): Promise<void> {
  await rm(file, { force: true });
  if (kind === "old file") {
    await writeFile(file, `${JSON.stringify({ pid: 1, host: hostname(), since: "2026-01-01" })}\n`);
    return;
  }
  const bound = `${file}.planting`;
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(bound, resolve));
  await link(bound, file);
  // closing removes the bound name and leaves the linked one with no listener
  await new Promise((resolve) => server.close(resolve));
}
