/**
 * A module bundled as a page's bundler bundles it: esbuild, for the browser, the package's
 * generated/ sources beside it. The tests of what a page pays for read the unminified output.
 */
import { join } from "node:path";
import { build } from "esbuild";
import { repoRoot } from "./paths.js";

/**
 * The browser bundle of `source`, a TypeScript module resolved from generated/: a development
 * build (esbuild's default when not minifying), or a production one (`process.env.NODE_ENV`
 * "production", as bundlers define it for one).
 */
export async function bundleBesideGenerated(
  source: string,
  mode: "development" | "production" = "development",
): Promise<string> {
  const result = await build({
    stdin: { contents: source, resolveDir: join(repoRoot, "generated"), loader: "ts" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    define: { "process.env.NODE_ENV": JSON.stringify(mode) },
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}
