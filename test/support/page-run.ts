/**
 * A page script run in headless Chromium: bundled for the browser with esbuild, served with MSW's
 * service worker script (./page-serve.ts), and its `window.run()` awaited.
 */
import { build } from "esbuild";
import { chromiumPath, launchBrowser } from "./browser.js";
import { servePage } from "./page-serve.js";
import { repoRoot } from "./paths.js";

/** What `window.run()` resolved to, and every path the page asked its origin for. */
export interface PageRun {
  readonly answers: unknown;
  readonly paths: readonly string[];
}

/** Bundles `script` (which sets `window.run`), opens it in a page, and returns what `run()` resolves to. */
export async function runPageScript(script: string): Promise<PageRun> {
  const bundle = await build({
    stdin: { contents: script, resolveDir: repoRoot, loader: "js" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    logLevel: "silent",
  });
  const server = await servePage(repoRoot, bundle.outputFiles[0]?.text ?? "");
  const browser = await launchBrowser(chromiumPath ?? "");
  try {
    await browser.page.goto(server.origin);
    const answers = await browser.page.evaluate(() => (window as unknown as { run(): Promise<unknown> }).run());
    return { answers, paths: [...server.paths] };
  } finally {
    await browser.close();
    await server.close();
  }
}
