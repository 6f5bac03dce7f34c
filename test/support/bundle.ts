/**
 * Entry points that tests run as processes (the sandbox's `npm start`, the mock server, the storm's
 * server), bundled once per test worker with esbuild: the transform tsx applies, with
 * tsconfig.json's paths, the packages left to Node. A process then starts without a TypeScript
 * loader, which transpiles every module it loads again: about 0.4 s of CPU less per process.
 * They are written under the test run's folder (global-setup.ts), which is removed after the run;
 * outside a test run (`npm run sandbox:kill-test`), under one of this process, removed as it exits.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { repoRoot } from "./paths.js";

const bundles = new Map<string, Promise<string>>();

let root: Promise<string> | undefined;
function bundleRoot(): Promise<string> {
  root ??= (async () => {
    if (process.env["VITEST"] !== undefined) return (await import("vitest")).inject("bundleRoot");
    const own = join(repoRoot, ".tmp", `bundles-${process.pid}`);
    process.once("exit", () => rmSync(own, { recursive: true, force: true }));
    return own;
  })();
  return root;
}

/**
 * The bundled form of entry points (paths from the repository root), built on first use in this
 * process; resolves with the bundle of each, in order (`<its path>.mjs` under a folder of its own).
 */
export async function bundled(entries: readonly string[]): Promise<string[]> {
  const key = entries.join("\0");
  let outdir = bundles.get(key);
  if (outdir === undefined) {
    const index = bundles.size;
    outdir = bundleRoot().then(async (parent) => {
      const dir = join(parent, `${process.pid}-${index}`);
      await build({
        entryPoints: entries.map((entry) => join(repoRoot, entry)),
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        packages: "external",
        tsconfig: join(repoRoot, "tsconfig.json"),
        // the one entry of the package tsconfig.json's paths leave out (it resolves to dist/)
        alias: { "workforce-scheduling-api/sandbox": join(repoRoot, "sandbox", "index.ts") },
        outdir: dir,
        outbase: repoRoot,
        outExtension: { ".js": ".mjs" },
        logLevel: "error",
      });
      return dir;
    });
    bundles.set(key, outdir);
  }
  const dir = await outdir;
  return entries.map((entry) => join(dir, entry.replace(/\.ts$/, ".mjs")));
}
