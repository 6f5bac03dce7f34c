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
 * and running the sources through tsx about 2 s more at every start. The packages stay outside the
 * bundle, loaded from node_modules as they are. First, for the repository's own spec, it warns when
 * spec/openapi.yaml has changed since generated/ was written (./spec-drift.mjs).
 */
import { createHash } from "node:crypto";
import { mkdirSync, renameSync, rmSync, statSync, utimesSync } from "node:fs";
import { basename, isAbsolute, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { newestSource } from "./build-stamp.mjs";
import { specDrift } from "./spec-drift.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const CACHE = join(root, "node_modules", ".cache", "workforce-scheduling-api-run");
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
  if (modifiedAt(bundle) >= newestSource(files, folders)) return bundle;
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
  return bundle;
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
