/**
 * The prepared image cache trusted only when it can be: an image planted in a folder of another
 * user, in a folder others can write, or one whose bytes do not match its recorded digest is not
 * used. The sandbox says so in one warning, makes its database with initdb, answers the demo keys,
 * and saves a new image only in a folder of its own. A new cache folder is made 0700.
 *
 * A database made without the image costs one initdb (about 3 s of CPU and 630 MB), so one planted
 * case goes the whole way, in a process: the image whose digest does not match is refused, the
 * database made with initdb answers the demo keys, and a new image replaces the planted one. The
 * folders that are not trusted are planted in this process and asked for their image: none is
 * used (what follows is the same initdb), one warning says why, and nothing is written in them.
 * The folder owned by another user needs root (chown); elsewhere that case says why it does not run.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmod, chown, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { imageCacheDir, loadImage } from "../../../sandbox/store/engine/image.js";
import { makeTempDir } from "../../support/paths.js";
import { call, HARBOR, SUMMIT } from "../../support/sandbox-calls.js";
import { startSandboxProcess } from "../../support/sandbox-process.js";

let root: string;
beforeAll(async () => {
  root = await makeTempDir("sandbox-image-cache");
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** The cached image file's name in a folder, as the sandbox names it. */
async function imageName(): Promise<string> {
  const { version } = JSON.parse(
    await readFile(join("node_modules", "@electric-sql", "pglite", "package.json"), "utf8"),
  ) as { version: string };
  return `pglite-${version}-wal-1mb.image`;
}

/** An image of nothing a database can be made from, under a digest that matches it (a planter can compute one). */
function plantedImage(): Buffer {
  const tar = Buffer.from("not a database image\n".repeat(1000));
  const digest = createHash("sha256").update(tar).digest("hex");
  return Buffer.concat([Buffer.from(`workforce-scheduling-api image sha256=${digest}\n`), tar]);
}

const asRoot = process.getuid?.() === 0 && spawnSync("id", ["nobody"]).status === 0;
if (!asRoot) process.stdout.write("image-cache.test.ts: not root: the folder of another owner is not planted\n");

it("ignores a planted image cache with one warning, makes the database with initdb, and answers the demo keys", async () => {
  const name = await imageName();
  const cases: { folder: string; why: RegExp; saves: boolean }[] = [];
  const plant = async (folder: string, image: Buffer): Promise<void> => {
    await mkdir(folder, { mode: 0o700 });
    await writeFile(join(folder, name), image, { mode: 0o600 });
  };
  if (asRoot) {
    const foreign = join(root, "foreign");
    await plant(foreign, plantedImage());
    await chown(foreign, 65534, 65534);
    cases.push({ folder: foreign, why: /belongs to user nobody \(uid 65534\), not to this user/, saves: false });
  }
  const open = join(root, "world-writable");
  await plant(open, plantedImage());
  await chmod(open, 0o777);
  cases.push({ folder: open, why: /other users can write in it \(mode 0777\)/, saves: false });
  const wrong = join(root, "wrong-digest");
  const planted = plantedImage();
  planted.write("0", planted.indexOf("=") + 1);
  await plant(wrong, planted);
  cases.push({ folder: wrong, why: /does not match its recorded digest/, saves: true });

  for (const { folder, why } of cases.filter((planted) => !planted.saves)) {
    const listing = await readdir(folder);
    expect(await plantedWarnings(folder), folder).toEqual([expect.stringMatching(why)]);
    expect(await readdir(folder)).toEqual(listing);
  }
  const { folder, why } = cases.find((planted) => planted.saves) as (typeof cases)[number];
  const sandbox = await startSandboxProcess({ DATABASE_URL: "memory", SANDBOX_CACHE_DIR: folder });
  try {
    expect((await call(sandbox.url, "listWageRules", { key: HARBOR })).status).toBe(200);
    expect((await call(sandbox.url, "listEvents", { key: SUMMIT })).status).toBe(200);
  } finally {
    await sandbox.stop("SIGTERM");
  }
  const warnings = sandbox.output().match(/SandboxWarning: .*/g) ?? [];
  expect(warnings).toEqual([expect.stringMatching(why)]);
  // the image made again replaces the wrong one, under its own digest, 0600
  const saved = await readFile(join(folder, name));
  const head = /^workforce-scheduling-api image sha256=([0-9a-f]{64})\n/.exec(saved.subarray(0, 128).toString());
  expect(head?.[1]).toBe(createHash("sha256").update(saved.subarray(head?.[0].length)).digest("hex"));
  expect(saved.length).toBeGreaterThan(1_000_000);
  expect((await stat(join(folder, name))).mode & 0o777).toBe(0o600);
}, 120_000);

/** The warnings of asking the cache `folder` for its image, as a process that has warned of none yet. */
async function plantedWarnings(folder: string): Promise<string[]> {
  const warnings: string[] = [];
  const hear = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
  const previous = process.env.SANDBOX_CACHE_DIR;
  const flags = globalThis as Record<symbol, unknown>;
  process.env.SANDBOX_CACHE_DIR = folder;
  delete flags[Symbol.for("workforce-scheduling-api/sandbox/image-warned")];
  process.on("warning", hear);
  try {
    const claim = await loadImage();
    expect(claim).not.toBeInstanceOf(Blob);
    if (!(claim instanceof Blob)) await claim.release();
    await new Promise((resolve) => setImmediate(resolve));
    return warnings;
  } finally {
    process.off("warning", hear);
    if (previous === undefined) delete process.env.SANDBOX_CACHE_DIR;
    else process.env.SANDBOX_CACHE_DIR = previous;
  }
}

it("makes a new cache folder 0700, and looks for an image there", async () => {
  const folder = join(root, "new", "cache");
  const previous = process.env.SANDBOX_CACHE_DIR;
  process.env.SANDBOX_CACHE_DIR = folder;
  try {
    expect(imageCacheDir()).toBe(folder);
    const claim = await loadImage();
    expect(claim).not.toBeInstanceOf(Blob);
    if (!(claim instanceof Blob)) await claim.release();
  } finally {
    if (previous === undefined) delete process.env.SANDBOX_CACHE_DIR;
    else process.env.SANDBOX_CACHE_DIR = previous;
  }
  expect([(await stat(folder)).mode & 0o777, (await stat(join(root, "new"))).mode & 0o777]).toEqual([0o700, 0o700]);
  expect(await readdir(folder)).toEqual([]);
});
