/**
 * npm's `prepare` after `npm ci` (scripts/prepare.mjs): it bundles `npm start`'s entry and makes the
 * image of a new database, so that the first `npm start` runs no `initdb`; with the image there, it
 * only says so. One process on a new cache folder (one initdb: about 3 s of CPU).
 */
import { spawn } from "node:child_process";
import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { prepareImage } from "../../../sandbox/store/engine/engine.js";
import { makeTempDir, repoRoot } from "../../support/paths.js";

let cache: string;
beforeAll(async () => {
  cache = join(await makeTempDir("sandbox-prepare"), "cache");
});
afterAll(() => rm(cache, { recursive: true, force: true }));

/** Runs scripts/prepare.mjs as `npm ci` does; resolves with its exit code and what it printed. */
function prepare(): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [join(repoRoot, "scripts", "prepare.mjs")], {
    cwd: repoRoot,
    env: { ...process.env, SANDBOX_CACHE_DIR: cache, npm_command: "ci" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk: Buffer) => (output += chunk));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, output })));
}

it("makes the image of a new database after npm ci, private, and only says so when it is there", async () => {
  const { code, output } = await prepare();
  expect(code, output).toBe(0);
  expect(output).toMatch(/making the sandbox's image of a new database \(once on this machine\)\.\.\. [\d.]+ s\n/);
  const [image] = (await readdir(cache)).filter((name) => name.endsWith(".image"));
  expect(image).toBeDefined();
  expect((await stat(join(cache, image ?? ""))).mode & 0o777).toBe(0o600);
  const before = process.env.SANDBOX_CACHE_DIR;
  process.env.SANDBOX_CACHE_DIR = cache;
  try {
    expect(await prepareImage()).toBe(false);
  } finally {
    if (before === undefined) delete process.env.SANDBOX_CACHE_DIR;
    else process.env.SANDBOX_CACHE_DIR = before;
  }
}, 120_000);
