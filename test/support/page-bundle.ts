/**
 * A module bundled as a page's bundler bundles it: esbuild, for the browser, the package's
 * generated/ sources beside it. The tests of what a page pays for read the unminified output.
 */
import { join } from "node:path";
import { build } from "esbuild";
import { repoRoot } from "./paths.js";

/** The browser bundle of `source`, a TypeScript module resolved from generated/. */
export async function bundleBesideGenerated(source: string): Promise<string> {
  const result = await build({
    stdin: { contents: source, resolveDir: join(repoRoot, "generated"), loader: "ts" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}
