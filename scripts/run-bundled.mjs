#!/usr/bin/env node
/**
 * Runs a TypeScript entry point of this repository in this process, bundled into one JavaScript
 * file by esbuild (a dev dependency) with the transform tsx applies: `npm start` (sandbox/main.ts),
 * `npm run sandbox:reset` (sandbox/reset.ts) and `npm run mock` (a generated server/main.ts).
 *
 *   node scripts/run-bundled.mjs <entry.ts> [arguments]   bundles when a source changed, then runs it
 *   node scripts/run-bundled.mjs --prepare <entry.ts>     bundles when a source changed, runs nothing
 *
 * The bundle is kept in node_modules/.cache/workforce-scheduling-api-run/ and made again only when
 * a file of its sources (generated/ and sandbox/, or the folder of a generated server of another
 * spec) is newer than it: about a second, where compiling dist/ with TypeScript took 12 s of CPU
 * and running the sources through tsx about 2 s more at every start. The cache keeps the bundles of
 * the entries run last (KEPT_BUNDLES): `npm run mock -- --spec` bundles a server for each folder it
 * generates into, which would otherwise pile up there. The packages stay outside the
 * bundle, loaded from node_modules as they are. First, for the repository's own spec, it warns when
 * spec/openapi.yaml has changed since generated/ was written (./spec-drift.mjs).
 */
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync } from "node:fs";
import { basename, isAbsolute, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { newestSource } from "./build-stamp.mjs";
import { specDrift } from "./spec-drift.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const CACHE = join(root, "node_modules", ".cache", "workforce-scheduling-api-run");
/**
 * How many bundles the cache keeps: those of the entries run last. `npm run mock -- --spec` makes
 * one for each folder it generates a document's server into, so without a bound the cache would
 * grow with every such folder (and every run of the suite's test of it).
 */
export const KEPT_BUNDLES = 16;
/** How old a partial bundle is before it is taken for one a bundling killed midway left (ms). */
const PARTIAL_AGE_MS = 60 * 60 * 1000;
/** What every bundle is made with: the TypeScript settings and this script's own options. */
const SETTINGS = [join(root, "tsconfig.json"), fileURLToPath(import.meta.url)];

/**
 * The bundle of `entry` (a path from the repository's root, or absolute), made again when one of
 * `sources` (folders and files) changed since it was; the step says what it does on stderr.
 */
export async function bundleOf(entry, sources) {
  const file = isAbsolute(entry) ? entry : join(root, entry);
  const bundle = join(
    CACHE,
    `${basename(entry, ".ts")}-${createHash("sha256").update(file).digest("hex").slice(0, 12)}.mjs`,
  );
  const folders = sources.filter((source) => statSync(source).isDirectory());
  const files = [...SETTINGS, ...sources.filter((source) => !folders.includes(source))];
  if (modifiedAt(bundle) >= newestSource(files, folders)) return markUsed(bundle);
  const started = Date.now();
  const shown = isAbsolute(entry) ? relative(process.cwd(), entry) : entry;
  process.stderr.write(`bundling ${shown} and the sources it imports (new, or changed since the last run)... `);
  mkdirSync(CACHE, { recursive: true });
  const { build } = await import("esbuild");
  const partial = `${bundle}.${process.pid}.partial`;
  try {
    await build({
      entryPoints: [file],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      tsconfig: join(root, "tsconfig.json"),
      // the one entry of the package tsconfig.json's paths leave out (it resolves to dist/)
      alias: { "workforce-scheduling-api/sandbox": join(root, "sandbox", "index.ts") },
      outfile: partial,
      logLevel: "silent",
    });
  } catch (error) {
    rmSync(partial, { force: true });
    const messages = (error.errors ?? []).map((e) => `${e.location?.file ?? ""}:${e.location?.line ?? ""} ${e.text}`);
    process.stderr.write(
      `failed:\n${messages.join("\n") || error.message}\nfix the file above and run the command again\n`,
    );
    process.exit(1);
  }
  // dated when bundling began: a source saved meanwhile makes the next run bundle again
  utimesSync(partial, started / 1000, started / 1000);
  renameSync(partial, bundle);
  process.stderr.write(`${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  pruneBundles(CACHE, KEPT_BUNDLES);
  return bundle;
}

/**
 * Dates `bundle` as used now by its access time, which `pruneBundles` reads; its modification time
 * stays when its bundling began, which tells whether a source changed since (set again as the
 * bundling set it, from its whole milliseconds, so that it reads back the same to the nanosecond).
 */
function markUsed(bundle) {
  try {
    utimesSync(bundle, new Date(), Math.round(statSync(bundle).mtimeMs) / 1000);
  } catch {
    // a bundle that cannot be dated is only the first to go
  }
  return bundle;
}

/**
 * Removes from the cache `folder` the bundles of all but the `kept` entries used last (by their
 * access time, `markUsed`'s), and the partial bundles an interrupted bundling left (over an hour
 * old). A bundle removed is made again, in about a second, when its entry runs next. Only this
 * user's regular files in a folder of this user's that no one else may write in are removed; a
 * link is never followed.
 */
export function pruneBundles(folder, kept) {
  const uid = process.getuid?.();
  const mine = (stat) => uid === undefined || stat.uid === uid;
  try {
    // a folder others may write in is left alone: a name in it could change between look and act
    const own = lstatSync(folder);
    if (!own.isDirectory() || !mine(own) || (own.mode & 0o022) !== 0) return;
    const bundles = [];
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      // a file another process removed meanwhile is passed over
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (stat === undefined || !stat.isFile() || !mine(stat)) continue;
      if (name.endsWith(".partial") && Date.now() - stat.mtimeMs > PARTIAL_AGE_MS) rmSync(path, { force: true });
      else if (name.endsWith(".mjs")) bundles.push({ path, used: stat.atimeMs });
    }
    bundles.sort((a, b) => b.used - a.used);
    for (const { path } of bundles.slice(kept)) rmSync(path, { force: true });
  } catch {
    // the cache is tidied at the next bundling: another process may be tidying it now
  }
}

/** Runs the bundle in this process, with `args` as its command line (it reads process.argv). */
export async function runBundle(bundle, args) {
  process.argv = [process.argv[0] ?? process.execPath, bundle, ...args];
  await import(pathToFileURL(bundle).href);
}

function modifiedAt(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return -1;
  }
}

/** The repository's own sources of a bundle: the generated package and the sandbox. */
const OWN_SOURCES = ["generated", "sandbox"].map((folder) => join(root, folder));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [first, ...rest] = process.argv.slice(2);
  const prepare = first === "--prepare";
  const [entry, ...args] = prepare ? rest : [first, ...rest];
  if (entry === undefined || !entry.endsWith(".ts")) {
    console.error("usage: node scripts/run-bundled.mjs [--prepare] <entry.ts> [arguments]");
    process.exit(2);
  }
  if (!prepare) {
    const drift = specDrift(root);
    if (drift !== undefined) process.stderr.write(`${drift}\n`);
  }
  const bundle = await bundleOf(entry, OWN_SOURCES);
  if (!prepare) await runBundle(bundle, args);
}
