/**
 * The data directory's lock among other users, in a folder everyone may write (sticky, as /tmp
 * is), with nobody as the other user:
 *
 * - a fake holder: nobody listens at `<DATA_DIR>.lock` and greets with terminal escapes and line
 *   breaks. `sandbox:reset` (`requestReset`) and a start (`lockDirectory`) are refused, 50 rounds
 *   each, naming the lock's owner, without connecting: nobody's socket receives nothing, and
 *   nothing it could say is printed;
 * - a lock swapped as it goes away: this user's lock is let go while `sandbox:reset` asks through
 *   it (or just before it asks), and nobody binds a socket of its own at the lock's path whenever
 *   it is free, 50 rounds. Whatever each round ends with, nobody never receives the seed.
 */
import { chmod, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DirectoryInUseError, lockDirectory } from "../../../sandbox/store/engine/directory-lock.js";
import { requestReset, serveResets } from "../../../sandbox/store/engine/lock-channel.js";
import { otherUserAvailable, startAsNobody, stopAllAsNobody } from "../../support/other-user.js";
import { makeTempDir } from "../../support/paths.js";

const ROUNDS = 50;
/** A seed whose key marks it: nobody must never see this text. */
const SECRET = "key-nobody-must-never-read-7c1e";
const SEED = { companies: [{ api_keys: [{ key: SECRET }] }] };

let shared: string;
beforeAll(async () => {
  const root = await makeTempDir("sandbox-lock-race");
  await chmod(root, 0o755);
  shared = join(root, "shared");
  await mkdir(shared);
  await chmod(shared, 0o1777);
});
afterAll(async () => {
  await stopAllAsNobody();
  await rm(join(shared, ".."), { recursive: true, force: true });
});

/**
 * nobody's side: a socket at the path given, greeting every connection with text that would move
 * a terminal's cursor and break lines, and counting what it receives; a line on stdin asks for the
 * counts ("connections N bytes N secret yes|no"). With "swap", it binds only while the path is
 * free, and lets it go again a few milliseconds later.
 */
const FAKE_HOLDER = `
const net = require("node:net"), fs = require("node:fs");
const [file, mode, secret] = process.argv.slice(1);
let connections = 0, bytes = 0, sawSecret = false;
const greeting = JSON.stringify({ pid: 1, host: "\\u001b[2J\\u001b[31mevil\\nhost", since: "\\u001b]0;title\\u0007" }) + "\\n";
const serve = (socket) => {
  connections++;
  socket.on("error", () => {});
  socket.on("data", (chunk) => { bytes += chunk.length; if (chunk.toString().includes(secret)) sawSecret = true; });
  socket.write(greeting + "\\u001b[1mnot json\\n");
};
const bind = () => new Promise((resolve) => {
  const server = net.createServer(serve);
  server.once("error", () => resolve(undefined));
  server.listen(file, () => { try { fs.chmodSync(file, 0o777); } catch {} resolve(server); });
});
const swap = async () => {
  const server = await bind();
  if (server !== undefined) await new Promise((wake) => setTimeout(wake, 3));
  if (server !== undefined) await new Promise((done) => server.close(done));
  setTimeout(swap, 1);
};
process.stdin.on("data", () => process.stdout.write("connections " + connections + " bytes " + bytes + " secret " + (sawSecret ? "yes" : "no") + "\\n"));
if (mode === "swap") { swap(); process.stdout.write("ready\\n"); }
else bind().then((server) => process.stdout.write(server === undefined ? "failed\\n" : "ready\\n"));`;

describe.runIf(otherUserAvailable("the races of the lock against another user"))(
  "another user's socket at the lock",
  () => {
    it(`is refused by sandbox:reset and by a start, naming its owner, and never talked to (${ROUNDS} rounds each)`, async () => {
      const directory = join(shared, "data");
      const fake = startAsNobody(FAKE_HOLDER, [`${directory}.lock`, "hold", SECRET]);
      expect(await fake.line()).toBe("ready");
      const refusal = `the lock ${directory}.lock of the data directory ${directory} belongs to user nobody (uid 65534), not to this user`;
      try {
        for (let round = 0; round < ROUNDS; round++) {
          const reset = await requestReset(directory, "sandbox", SEED).catch((error: Error) => error);
          const start = await lockDirectory(directory).catch((error: Error) => error);
          for (const outcome of [reset, start]) {
            expect(outcome, `round ${round}`).toBeInstanceOf(Error);
            const message = (outcome as Error).message;
            expect(message).toContain(refusal);
            expect([...message].filter((character) => character < " " || character === "\u007f")).toEqual([]);
          }
        }
        fake.child.stdin?.write("?\n");
        expect(await fake.line()).toBe("connections 0 bytes 0 secret no");
      } finally {
        await fake.stop();
      }
    });
  },
);

describe.runIf(otherUserAvailable("the races of the lock against another user"))(
  "this user's lock let go while sandbox:reset asks",
  () => {
    it(`never hands the seed to the socket another user binds in its place (${ROUNDS} rounds)`, async () => {
      const directory = join(shared, "swapped");
      const swapper = startAsNobody(FAKE_HOLDER, [`${directory}.lock`, "swap", SECRET]);
      expect(await swapper.line()).toBe("ready");
      const outcomes = { reset: 0, refused: 0 };
      let resets = 0;
      try {
        for (let round = 0; round < ROUNDS; round++) {
          const lock = await takeBetween(directory, () => swapper.output());
          const stop = serveResets(directory, "sandbox", async () => void resets++);
          const ask = (): Promise<"reset" | "refused"> =>
            requestReset(directory, "sandbox", SEED).then(
              () => "reset",
              () => "refused",
            );
          const letGo = async (): Promise<void> => {
            stop();
            await lock.release();
          };
          const pause = (): Promise<unknown> => new Promise((wake) => setTimeout(wake, (round % 7) * 4));
          // even rounds ask and then let the lock go; odd ones let it go and then ask, as a late reset would
          const asked = round % 2 === 0 ? ask() : letGo().then(pause).then(ask);
          if (round % 2 === 0) await pause().then(letGo);
          outcomes[await asked]++;
        }
        swapper.child.stdin?.write("?\n");
        const counts = await swapper.line();
        process.stdout.write(
          `lock let go while asked: ${ROUNDS} rounds, ${outcomes.reset} reset by this user's sandbox, ${outcomes.refused} refused; nobody's socket: ${counts}\n`,
        );
        expect(counts).toMatch(/ secret no$/);
        expect(outcomes.reset).toBe(resets);
      } finally {
        await swapper.stop();
      }
    });
  },
);

/** Takes the lock, trying again while nobody's socket holds its path (it lets it go within milliseconds). */
async function takeBetween(directory: string, output: () => string): ReturnType<typeof lockDirectory> {
  for (let tries = 0; ; tries++) {
    try {
      return await lockDirectory(directory);
    } catch (error) {
      const nobodys = error instanceof Error && error.message.includes("belongs to user nobody");
      if ((!nobodys && !(error instanceof DirectoryInUseError)) || tries > 200)
        throw new Error(`the lock could not be taken in ${tries} tries (nobody's script: ${output()})`, {
          cause: error,
        });
      await new Promise((wake) => setTimeout(wake, 2));
    }
  }
}
