/**
 * The package as another repository gets it, made once per test run for the package's test files
 * (test/system/package/): `npm run package` (which builds dist/ and packs the package as a release
 * publishes it), the tarball installed into a fresh consumer project, and the peers a server and
 * sandbox user installs linked there from this repository's node_modules. The first file to ask
 * makes it while the others wait (a folder made under the run's folder is the claim; a file written
 * whole says where it is, or why it failed), so the package's files can run in several workers at
 * once without packing or installing twice.
 */
import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, rename, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { promisify } from "node:util";
import { inject } from "vitest";
import { makeTempDir, repoRoot } from "./paths.js";

const run = promisify(execFile);

/** What was made: the tarball, the consumer project it is installed in, and what npm warned. */
export interface PackedPackage {
  readonly tarball: string;
  readonly consumer: string;
  /** what npm printed on stderr installing the tarball (its warnings) */
  readonly installed: string;
}

/** How long a file waits for another to pack and install the package. */
const WAIT_MS = 300_000;

/** Runs npm with its warnings only, no update notice. */
export async function npm(args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  return run("npm", args, {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, npm_config_loglevel: "warn", npm_config_update_notifier: "false" },
  });
}

let packed: Promise<PackedPackage> | undefined;

/** The run's packed and installed package, made on first use in the run. */
export function packedPackage(): Promise<PackedPackage> {
  packed ??= claimOrWait();
  return packed;
}

async function claimOrWait(): Promise<PackedPackage> {
  const folder = join(inject("bundleRoot"), "package");
  await mkdir(inject("bundleRoot"), { recursive: true });
  const status = join(folder, "status.json");
  const claimed = await mkdir(folder).then(
    () => true,
    () => false,
  );
  if (claimed) {
    const written = await makePackage().then(
      (made) => made,
      (error: unknown) => ({ error: String(error) }),
    );
    await writeFile(`${status}.partial`, JSON.stringify(written));
    await rename(`${status}.partial`, status);
  }
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const found = await readFile(status, "utf8").then(
      (text) => JSON.parse(text) as PackedPackage | { error: string },
      () => undefined,
    );
    if (found !== undefined && "error" in found) throw new Error(`packing the package failed: ${found.error}`);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`the package was not packed and installed in ${WAIT_MS} ms`);
    await delay(200);
  }
}

async function makePackage(): Promise<PackedPackage> {
  const packDir = await makeTempDir("pack");
  await npm(["run", "-s", "package", "--", "--pack-destination", packDir], repoRoot);
  const [file] = (await readdir(packDir)).filter((name) => name.endsWith(".tgz"));
  const tarball = join(packDir, file ?? "");
  const consumer = await makeTempDir("consumer");
  await writeFile(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  const args = ["install", "--no-audit", "--no-fund", "--offline", "--no-package-lock", tarball];
  const installed = (await npm(args, consumer)).stderr;
  await linkPeers(consumer);
  return { tarball, consumer, installed };
}

/** Peer dependencies a server and sandbox user installs; taken from this repository's node_modules. */
async function linkPeers(consumer: string): Promise<void> {
  for (const scope of ["@fastify", "@types", "@electric-sql", "@tanstack"])
    await mkdir(join(consumer, "node_modules", scope), { recursive: true });
  const frontEnd = [
    "msw",
    "@tanstack/query-core",
    "@tanstack/react-query",
    "@tanstack/react-query-lowest",
    "react",
    "react-dom",
    "@types/react",
    "@types/react-dom",
  ];
  for (const peer of [
    "fastify",
    "@fastify/multipart",
    "@fastify/swagger",
    "@fastify/swagger-ui",
    "@types/node",
    "@electric-sql/pglite",
    "kysely",
    "pg",
    "@types/pg",
    "yaml",
    ...frontEnd,
  ]) {
    await symlink(join(repoRoot, "node_modules", peer), join(consumer, "node_modules", peer), "dir");
  }
}
