/**
 * The cache of scripts/run-bundled.mjs (`npm start`, `npm run mock`): bounded to the bundles of the
 * entries used last, as `npm run mock -- --spec` makes a bundle for each folder it generates into;
 * a bundle used is dated by its access time, its modification time left to the freshness check;
 * only this user's regular files are removed, a link is never followed.
 */
import { spawnSync } from "node:child_process";
import { chmod, chown, lstat, mkdir, readdir, readFile, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneBundles } from "../../../scripts/run-bundled.mjs";
import { NOBODY, otherUserAvailable } from "../../support/other-user.js";
import { makeTempDir, repoRoot } from "../../support/paths.js";

let root: string;
beforeAll(async () => {
  root = await makeTempDir("run-bundled");
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** A bundle file named `name` in `folder`, last used `minutesAgo` minutes ago. */
async function bundle(folder: string, name: string, minutesAgo: number): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, `// ${name}\n`);
  const used = new Date(Date.now() - minutesAgo * 60_000);
  await utimes(path, used, used);
  return path;
}

describe("the bundles' cache", () => {
  it("keeps the bundles of the entries used last, and removes the others and old partial bundles", async () => {
    const folder = join(root, "cache");
    await mkdir(folder, { mode: 0o755 });
    for (let i = 0; i < 20; i++) await bundle(folder, `main-${String(i).padStart(12, "0")}.mjs`, i);
    await bundle(folder, "main-aaaaaaaaaaaa.mjs.123.partial", 120);
    await bundle(folder, "main-bbbbbbbbbbbb.mjs.456.partial", 1);
    await writeFile(join(root, "outside.mjs"), "kept\n");
    await symlink(join(root, "outside.mjs"), join(folder, "link-000000000000.mjs"));
    const used = new Date(0);
    await utimes(join(root, "outside.mjs"), used, used);
    pruneBundles(folder, 16);
    const left = (await readdir(folder)).sort();
    expect(left).toEqual(
      [
        ...Array.from({ length: 16 }, (_, i) => `main-${String(i).padStart(12, "0")}.mjs`),
        "link-000000000000.mjs",
        "main-bbbbbbbbbbbb.mjs.456.partial",
      ].sort(),
    );
    expect(await readFile(join(root, "outside.mjs"), "utf8")).toBe("kept\n");
  });

  it("leaves a folder others may write in as it is", async () => {
    const folder = join(root, "open");
    await mkdir(folder);
    await chmod(folder, 0o777);
    for (let i = 0; i < 3; i++) await bundle(folder, `main-${String(i).padStart(12, "2")}.mjs`, i);
    pruneBundles(folder, 1);
    expect(await readdir(folder)).toHaveLength(3);
  });

  it("leaves a folder that is a link, and what it holds", async () => {
    const real = join(root, "real");
    await mkdir(real, { mode: 0o755 });
    for (let i = 0; i < 3; i++) await bundle(real, `main-${String(i).padStart(12, "1")}.mjs`, i);
    await symlink(real, join(root, "linked"));
    pruneBundles(join(root, "linked"), 1);
    expect(await readdir(real)).toHaveLength(3);
  });

  it("dates a bundle used by its access time, leaving its modification time to the freshness check", async () => {
    const prepare = (): void => {
      const run = spawnSync(process.execPath, ["scripts/run-bundled.mjs", "--prepare", "sandbox/reset.ts"], {
        cwd: repoRoot,
        encoding: "utf8",
      });
      expect(run.status, run.stderr).toBe(0);
    };
    prepare();
    const folder = join(repoRoot, "node_modules", ".cache", "workforce-scheduling-api-run");
    const name = (await readdir(folder)).find((file) => /^reset-[0-9a-f]{12}\.mjs$/.test(file));
    expect(name).toBeDefined();
    const path = join(folder, name ?? "");
    const before = await stat(path);
    const long = new Date(Date.now() - 86_400_000);
    await utimes(path, long, before.mtime);
    prepare();
    const after = await lstat(path);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(after.atimeMs).toBeGreaterThan(Date.now() - 60_000);
  });
});

const asNobody = otherUserAvailable("the cache's checks of another user's files");

describe.runIf(asNobody)("another user's files in the cache", () => {
  it("are left as they are, however old", async () => {
    const folder = join(root, "shared");
    await mkdir(folder, { mode: 0o755 });
    const theirs = await bundle(folder, "main-cccccccccccc.mjs", 600);
    await chown(theirs, NOBODY?.uid ?? 0, NOBODY?.gid ?? 0);
    const partial = await bundle(folder, "main-dddddddddddd.mjs.9.partial", 600);
    await chown(partial, NOBODY?.uid ?? 0, NOBODY?.gid ?? 0);
    const old = new Date(Date.now() - 36_000_000);
    await utimes(theirs, old, old);
    await utimes(partial, old, old);
    await bundle(folder, "main-eeeeeeeeeeee.mjs", 0);
    pruneBundles(folder, 0);
    expect((await readdir(folder)).sort()).toEqual(["main-cccccccccccc.mjs", "main-dddddddddddd.mjs.9.partial"]);
  });

  it("are not tidied in a folder of another user's", async () => {
    const folder = join(root, "theirs");
    await mkdir(folder, { mode: 0o755 });
    await bundle(folder, "main-ffffffffffff.mjs", 600);
    await chown(folder, NOBODY?.uid ?? 0, NOBODY?.gid ?? 0);
    pruneBundles(folder, 0);
    expect(await readdir(folder)).toEqual(["main-ffffffffffff.mjs"]);
  });
});
