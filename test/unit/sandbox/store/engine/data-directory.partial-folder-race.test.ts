/**
 * A partial folder planted by another user beside a data directory in a folder everyone may write
 * (sticky, as /tmp is), its subfolder swapped for a link to a folder outside as fast as nobody can,
 * while the sandbox removes the partial folders a stopped start left (`removePartials`, as every
 * start does): 50 rounds, each with a leftover of this user's to remove. Nothing outside the data
 * directory's folder is ever deleted, the planted folder is left as it is with a warning naming its
 * owner (once), and this user's leftover is removed every round.
 */
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removePartials } from "../../../../../sandbox/store/engine/data-directory.js";
import { otherUserAvailable, startAsNobody, stopAllAsNobody } from "../../../../support/other-user.js";
import { makeTempDir } from "../../../../support/paths.js";

const ROUNDS = 50;
let root: string;

beforeAll(async () => {
  root = await makeTempDir("sandbox-partial-race");
});
afterAll(async () => {
  await stopAllAsNobody();
  await rm(root, { recursive: true, force: true });
});

/**
 * nobody's side: plants `<base>.partial-0123456789ab` (0777) holding a subfolder `sub`, which it
 * keeps renaming away and replacing with a link to the victim folder, and back, until stopped;
 * a line on stdin asks how many swaps it made.
 */
const SWAPPER = `
const fs = require("node:fs"), path = require("node:path");
const [shared, base, victim] = process.argv.slice(1);
const planted = path.join(shared, base + ".partial-0123456789ab");
fs.mkdirSync(planted); fs.chmodSync(planted, 0o777);
const sub = path.join(planted, "sub"), aside = path.join(planted, "sub-aside");
fs.mkdirSync(aside); fs.writeFileSync(path.join(aside, "inner"), "nobody's");
let swaps = 0;
const attempt = (act) => { try { act(); } catch {} };
const loop = () => {
  for (let i = 0; i < 100; i++) {
    attempt(() => fs.renameSync(aside, sub));
    attempt(() => fs.renameSync(sub, aside));
    attempt(() => fs.symlinkSync(victim, sub));
    attempt(() => fs.unlinkSync(sub));
    swaps++;
  }
  setImmediate(loop);
};
process.stdin.on("data", () => process.stdout.write("swaps " + swaps + "\\n"));
process.stdout.write("ready\\n");
loop();`;

describe.runIf(otherUserAvailable("the race of a planted partial folder"))(
  "a partial folder another user planted",
  () => {
    it(`is left as it is, nothing outside is deleted, and this user's leftover is removed (${ROUNDS} rounds)`, async () => {
      const shared = join(root, "shared");
      await mkdir(shared);
      await chmod(shared, 0o1777);
      const victim = await mkdtemp(join(root, "victim-"));
      await chmod(root, 0o755);
      await chmod(victim, 0o755);
      await writeFile(join(victim, "canary"), "must stay\n");
      const base = "data";
      const swapper = startAsNobody(SWAPPER, [shared, base, victim]);
      expect(await swapper.line()).toBe("ready");
      const warnings: string[] = [];
      const hear = (warning: Error): void => void warnings.push(warning.message);
      process.on("warning", hear);
      try {
        for (let round = 0; round < ROUNDS; round++) {
          const own = join(shared, `${base}.partial-${round.toString(16).padStart(12, "a")}`);
          await mkdir(join(own, "base", "1"), { recursive: true, mode: 0o700 });
          await writeFile(join(own, "base", "1", "file"), "a leftover of this user's");
          await removePartials(join(shared, base));
          expect(await readdir(victim), `round ${round}`).toEqual(["canary"]);
          expect((await readdir(shared)).sort(), `round ${round}`).toEqual([`${base}.partial-0123456789ab`]);
        }
        swapper.child.stdin?.write("?\n");
        const swaps = Number((await swapper.line()).replace("swaps ", ""));
        process.stdout.write(
          `planted partial folder: ${ROUNDS} rounds, ${swaps} swaps by nobody, nothing outside deleted\n`,
        );
        expect(swaps).toBeGreaterThan(ROUNDS);
      } finally {
        process.off("warning", hear);
        await swapper.stop();
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([
        `${join(shared, base)}.partial-0123456789ab belongs to user nobody (uid 65534), not to this user: it was left as it is (its owner can remove it)`,
      ]);
    });
  },
);
