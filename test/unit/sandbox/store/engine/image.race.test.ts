/**
 * The image cache below a folder another user owns (as a symlinked `node_modules/.cache`, or a
 * `SANDBOX_CACHE_DIR` under a shared folder, can put it): this user's cache folder is private, but
 * nobody can rename it away and put a folder of its own in its place, holding an image whose
 * digest matches, as fast as it can. In 50 rounds of looking for the image, the planted one is
 * never used, and each round warns that a folder above the cache is another user's.
 */
import { createHash } from "node:crypto";
import { chmod, chown, mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadImage } from "../../../../../sandbox/store/engine/image.js";
import { NOBODY, otherUserAvailable, startAsNobody, stopAllAsNobody } from "../../../../support/other-user.js";
import { makeTempDir } from "../../../../support/paths.js";

const ROUNDS = 50;
let root: string;
beforeAll(async () => {
  root = await makeTempDir("sandbox-image-race");
  await chmod(root, 0o755);
});
afterAll(async () => {
  await stopAllAsNobody();
  await rm(root, { recursive: true, force: true });
});

/**
 * nobody's side: in its folder `above`, makes `evil` holding the image file given (its text in hex),
 * then keeps swapping `cache` (this user's) and `evil` (its own) until stopped.
 */
const SWAPPER = `
const fs = require("node:fs"), path = require("node:path");
const [above, name, hex] = process.argv.slice(1);
const cache = path.join(above, "cache"), evil = path.join(above, "evil"), kept = path.join(above, "kept");
fs.mkdirSync(evil, { mode: 0o700 });
fs.writeFileSync(path.join(evil, name), Buffer.from(hex, "hex"), { mode: 0o600 });
const attempt = (act) => { try { act(); } catch {} };
const loop = () => {
  for (let i = 0; i < 50; i++) {
    attempt(() => fs.renameSync(cache, kept));
    attempt(() => fs.renameSync(evil, cache));
    attempt(() => fs.renameSync(cache, evil));
    attempt(() => fs.renameSync(kept, cache));
  }
  setImmediate(loop);
};
process.stdout.write("ready\\n");
loop();`;

/** An image of nothing a database can be made from, under a digest that matches it (a planter can compute one). */
function plantedImage(): { file: Buffer; tar: Buffer } {
  const tar = Buffer.from("not a database image\n".repeat(1000));
  const digest = createHash("sha256").update(tar).digest("hex");
  return { file: Buffer.concat([Buffer.from(`workforce-scheduling-api image sha256=${digest}\n`), tar]), tar };
}

describe.runIf(otherUserAvailable("the race of a swapped image cache"))(
  "an image cache below another user's folder",
  () => {
    it(`is not used, with a warning, while that user swaps in a cache of its own (${ROUNDS} rounds)`, async () => {
      const { version } = JSON.parse(
        await readFile(join("node_modules", "@electric-sql", "pglite", "package.json"), "utf8"),
      ) as { version: string };
      const above = join(root, "above");
      await mkdir(join(above, "cache"), { recursive: true, mode: 0o700 });
      await chown(above, NOBODY?.uid ?? 0, NOBODY?.gid ?? 0);
      const planted = plantedImage();
      const swapper = startAsNobody(SWAPPER, [above, `pglite-${version}.image`, planted.file.toString("hex")]);
      expect(await swapper.line()).toBe("ready");
      const previous = process.env.SANDBOX_CACHE_DIR;
      const warned = Symbol.for("workforce-scheduling-api/sandbox/image-warned");
      // each round's warning kept here rather than printed into the run's output
      const warnings: string[] = [];
      const heard = vi
        .spyOn(process, "emitWarning")
        .mockImplementation((warning: string | Error, options?: unknown) => {
          const type = typeof options === "object" && options !== null && "type" in options ? options.type : options;
          warnings.push(`${String(type)}: ${typeof warning === "string" ? warning : warning.message}`);
        });
      process.env.SANDBOX_CACHE_DIR = join(above, "cache");
      let used = 0;
      try {
        for (let round = 0; round < ROUNDS; round++) {
          delete (globalThis as Record<symbol, unknown>)[warned];
          const found = await loadImage();
          if (found instanceof Blob) {
            if (Buffer.from(await found.arrayBuffer()).equals(planted.tar)) used++;
          } else await found.release();
        }
      } finally {
        heard.mockRestore();
        if (previous === undefined) delete process.env.SANDBOX_CACHE_DIR;
        else process.env.SANDBOX_CACHE_DIR = previous;
        await swapper.stop();
      }
      process.stdout.write(`swapped image cache: ${ROUNDS} rounds, the planted image used ${used} times\n`);
      expect(used).toBe(0);
      expect(warnings).toHaveLength(ROUNDS);
      for (const warning of warnings)
        expect(warning).toMatch(
          /^SandboxWarning: the sandbox's image cache .* is not used: the folder above it .*\/above belongs to user nobody \(uid 65534\), who can replace what is in it; /,
        );
    });
  },
);
