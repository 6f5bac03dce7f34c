/**
 * The guard under which a stale lock is taken over (sandbox/store/engine/lock-guard.ts), squatted by
 * another user, nobody, who binds every abstract name it can find or compute: the name an earlier
 * version used (made from the lock's path, which anyone can read in /proc/net/unix), every name of
 * the sandbox it sees in /proc/net/unix as soon as its holder lets it go, and, where it can look
 * into the lock's folder, the first names of the series the sandbox would use for the stale lock
 * there. Each round leaves a stale lock of this user's (a socket nobody listens on) and takes the
 * lock over: it must be taken within the guard's wait, every round.
 */
import { chmod, link, mkdir, realpath, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockDirectory } from "../../../sandbox/store/engine/directory-lock.js";
import { otherUserAvailable, startAsNobody, stopAllAsNobody } from "../../support/other-user.js";
import { makeTempDir } from "../../support/paths.js";

const ROUNDS = 50;
let root: string;
beforeAll(async () => {
  root = await realpath(await makeTempDir("sandbox-guard-race"));
});
afterAll(async () => {
  await stopAllAsNobody();
  await rm(root, { recursive: true, force: true });
});

/**
 * nobody's side: squats abstract names and keeps them; "compute" also computes, from the stale lock
 * it can lstat, the first two names of the sandbox's series. A line on stdin asks how many names it
 * holds.
 */
const SQUATTER = `
const net = require("node:net"), fs = require("node:fs"), crypto = require("node:crypto");
const [lock, mode] = process.argv.slice(1);
const held = new Map();
const squat = (name) => {
  if (held.has(name)) return;
  const server = net.createServer((connection) => connection.destroy());
  held.set(name, server);
  server.once("error", () => held.delete(name));
  server.listen(name);
};
const sha = (text) => crypto.createHash("sha256").update(text).digest("hex");
const seen = new Set();
const look = () => {
  squat("\\0workforce-scheduling-api-lock-" + sha(lock));
  for (const line of fs.readFileSync("/proc/net/unix", "latin1").split("\\n")) {
    const name = line.trim().split(/\\s+/)[7];
    if (name !== undefined && name.startsWith("@workforce-scheduling-api")) seen.add(name);
  }
  for (const name of seen) squat("\\0" + name.slice(1));
  if (mode === "compute") {
    try {
      const stale = fs.lstatSync(lock, { bigint: true });
      for (const index of [0, 1])
        squat("\\0workforce-scheduling-api-guard-" + sha(lock + "\\0" + stale.dev + ":" + stale.ino + ":" + stale.ctimeNs + ":" + index));
    } catch {}
  }
  setTimeout(look, 2);
};
process.stdin.on("data", () => process.stdout.write("holding " + held.size + "\\n"));
look();
process.stdout.write("ready\\n");`;

/** Leaves a stale lock of this user's at `file`: a socket nobody listens on. */
async function plantStale(file: string): Promise<void> {
  await rm(file, { force: true });
  const bound = `${file}.planting`;
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(bound, resolve));
  await link(bound, file);
  // closing removes the bound name and leaves the linked one with no listener
  await new Promise((resolve) => server.close(resolve));
}

/**
 * Takes over a stale lock at `<folder>/data` 50 times with nobody's squatter running in `mode`;
 * answers how many takeovers succeeded, the longest take (ms, printed: a figure, not a bound,
 * since a loaded machine stretches it) and how many names nobody held at the end. A guard held
 * hostage makes `lockDirectory` refuse the start, so the count is what shows it.
 */
async function squattedRounds(
  folder: string,
  mode: "watch" | "compute",
): Promise<{ taken: number; longest: number; holding: number }> {
  const directory = join(folder, "data");
  const squatter = startAsNobody(SQUATTER, [`${directory}.lock`, mode]);
  expect(await squatter.line()).toBe("ready");
  try {
    let longest = 0;
    let taken = 0;
    for (let round = 0; round < ROUNDS; round++) {
      await plantStale(`${directory}.lock`);
      const begun = performance.now();
      const lock = await lockDirectory(directory);
      longest = Math.max(longest, performance.now() - begun);
      taken += 1;
      await lock.release();
    }
    squatter.child.stdin?.write("?\n");
    const holding = Number((await squatter.line()).replace("holding ", ""));
    process.stdout.write(
      `guard squatted (${mode}): ${ROUNDS} takeovers, the longest ${longest.toFixed(0)} ms; nobody held ${holding} names\n`,
    );
    return { taken, longest, holding };
  } finally {
    await squatter.stop();
  }
}

describe.runIf(otherUserAvailable("the races of the lock's guard against another user"))(
  "the takeover guard squatted by another user",
  () => {
    it(`does not keep a stale lock in a private folder from being taken over (${ROUNDS} rounds)`, async () => {
      const folder = join(root, "private");
      await mkdir(folder, { mode: 0o700 });
      const { taken, holding } = await squattedRounds(folder, "watch");
      expect(taken).toBe(ROUNDS);
      expect(holding).toBeGreaterThan(1);
    });

    it(`does not keep a stale lock in a shared folder from being taken over, where nobody computes the names (${ROUNDS} rounds)`, async () => {
      const folder = join(root, "shared");
      await mkdir(folder);
      await chmod(root, 0o755);
      await chmod(folder, 0o1777);
      const { taken } = await squattedRounds(folder, "compute");
      expect(taken).toBe(ROUNDS);
    });
  },
);
