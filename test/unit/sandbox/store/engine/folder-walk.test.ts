/**
 * The sandbox's housekeeping acts only on what is this user's, where no other user can swap it
 * (sandbox/store/engine/owners.ts, folder-walk.ts): a data directory of another user is refused by `npm
 * start` naming its owner, and left as it is; a folder another user could write (no sticky bit) is
 * refused for a data directory, saying why and how to make it safe; a lock's leftover folder of
 * another user is left as it is, with a warning; and tightening modes changes neither what a link
 * points to nor a file with another name elsewhere.
 */
import { chmod, chown, link, lstat, mkdir, readdir, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockDirectory } from "../../../../../sandbox/store/engine/directory-lock.js";
import { tightenTree } from "../../../../../sandbox/store/engine/folder-walk.js";
import { NOBODY, otherUserAvailable } from "../../../../support/other-user.js";
import { makeTempDir } from "../../../../support/paths.js";
import { runSandboxScript } from "../../../../support/sandbox-process.js";

let root: string;
beforeAll(async () => {
  root = await makeTempDir("sandbox-housekeeping");
  await chmod(root, 0o755);
});
afterAll(() => rm(root, { recursive: true, force: true }));

const asNobody = otherUserAvailable("the housekeeping checks of another user's files");

describe.runIf(asNobody)("what another user owns", () => {
  it("refuses a data directory of another user, naming its owner, and changes nothing in it", async () => {
    const theirs = join(root, "theirs");
    await mkdir(theirs, { mode: 0o755 });
    await writeFile(join(theirs, "PG_VERSION"), "18\n");
    await chown(theirs, NOBODY?.uid ?? 0, NOBODY?.gid ?? 0);
    const run = await runSandboxScript("main", { DATA_DIR: theirs, PORT: "0" });
    expect(run.code).toBe(1);
    expect(run.output.trim()).toBe(
      `npm start: the data directory ${theirs} belongs to user nobody (uid 65534), not to this user (root (uid 0)): the sandbox opens only a data directory of its own user, as PostgreSQL does. Nothing in it was changed; run the sandbox as its owner, or give DATA_DIR a folder of this user's.`,
    );
    expect(await readdir(theirs)).toEqual(["PG_VERSION"]);
    expect((await stat(theirs)).mode & 0o777).toBe(0o755);
  });

  it("leaves a leftover folder of another user's beside the lock, with a warning", async () => {
    const folder = join(root, "leftovers");
    await mkdir(folder);
    const leftover = join(folder, ".data.lock-AbC123");
    await mkdir(leftover);
    await writeFile(join(leftover, "nobody's"), "");
    await chown(leftover, NOBODY?.uid ?? 0, NOBODY?.gid ?? 0);
    const old = new Date(Date.now() - 3_600_000);
    await utimes(leftover, old, old);
    const warnings: string[] = [];
    const hear = (warning: Error): void => void warnings.push(warning.message);
    process.on("warning", hear);
    try {
      await (await lockDirectory(join(folder, "data"))).release();
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", hear);
    }
    expect(await readdir(leftover)).toEqual(["nobody's"]);
    expect(warnings).toEqual([
      `${leftover} belongs to user nobody (uid 65534), not to this user: it was left as it is (its owner can remove it)`,
    ]);
  });
});

describe("a folder other users can write", () => {
  it("is refused for a data directory without the sticky bit, and taken with it", async () => {
    const open = join(root, "open");
    await mkdir(open);
    await chmod(open, 0o777);
    await expect(lockDirectory(join(open, "data"))).rejects.toThrow(
      `the data directory ${join(open, "data")} cannot be kept safe where it is: ${open} can be written by other users (mode 0777) and has no sticky bit, so they can rename or replace what is in it. Give DATA_DIR a folder that only this user can write (chmod go-w on that folder; a folder shared on purpose, as /tmp is, takes the sticky bit: chmod +t).`,
    );
    expect(await readdir(open)).toEqual([]);
    await chmod(open, 0o1777);
    await (await lockDirectory(join(open, "data"))).release();
  });
});

describe("tightening a folder's modes", () => {
  it("makes its folders 0700 and files 0600, and changes nothing a link or another name reaches", async () => {
    const tree = join(root, "tree");
    const outside = join(root, "outside");
    await mkdir(join(tree, "inner"), { recursive: true });
    await mkdir(outside);
    await writeFile(join(tree, "inner", "own"), "");
    await writeFile(join(outside, "linked"), "");
    await writeFile(join(outside, "pointed"), "");
    await link(join(outside, "linked"), join(tree, "inner", "hard"));
    await symlink(join(outside, "pointed"), join(tree, "inner", "soft"));
    await symlink(outside, join(tree, "folder-link"));
    for (const path of [tree, join(tree, "inner"), outside]) await chmod(path, 0o755);
    for (const name of ["linked", "pointed"]) await chmod(join(outside, name), 0o644);
    await chmod(join(tree, "inner", "own"), 0o644);
    await tightenTree(tree);
    const mode = async (path: string): Promise<string> => ((await lstat(path)).mode & 0o777).toString(8);
    expect([await mode(tree), await mode(join(tree, "inner")), await mode(join(tree, "inner", "own"))]).toEqual([
      "700",
      "700",
      "600",
    ]);
    expect([await mode(outside), await mode(join(outside, "linked")), await mode(join(outside, "pointed"))]).toEqual([
      "755",
      "644",
      "644",
    ]);
  });
});
