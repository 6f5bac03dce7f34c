/**
 * The package's front-end entries in a browser page: the page bundled by esbuild with the options
 * docs/package.md gives (and refused without its one setting), and by Vite, each run in a headless
 * Chromium with the in-page sandbox behind MSW's service worker. The package is packed and
 * installed once per run for the four files (../support/packed-package.ts), which run apart:
 * ./package.test.ts (what the tarball holds, the lints, loading its entries),
 * ./package-types.test.ts (typechecking), ./package-runtime.test.ts (sandboxes and the front-end
 * entries in Node) and ./package-pages.test.ts (pages bundled and run in a browser).
 */
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type BuildOptions, build } from "esbuild";
import { build as viteBuild } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Chromium,
  chromiumPath,
  launchChromium,
  noBrowserMessage,
  requireBrowserInCi,
} from "../../support/browser.js";
import { packedPackage } from "../../support/packed-package.js";
import { type PageServer, servePage } from "../../support/page-serve.js";
import { repoRoot } from "../../support/paths.js";

let consumer: string;

beforeAll(async () => {
  ({ consumer } = await packedPackage());
}, 300_000);

/** The page's folder in the consumer project, with its script copied from test/system/package/page/. */
async function pageFolder(): Promise<string> {
  const folder = join(consumer, "page");
  await mkdir(folder, { recursive: true });
  await copyFile(join(repoRoot, "test", "system", "package", "page", "app.ts"), join(folder, "app.ts"));
  return folder;
}

/**
 * The esbuild options docs/package.md gives a page with the in-page sandbox, read from its sample
 * (each `name: value,` line of its `build({ ... })`), without the sample's own files.
 */
async function documentedEsbuildOptions(): Promise<BuildOptions> {
  const guide = await readFile(join(repoRoot, "docs", "package.md"), "utf8");
  const block = /^```ts not-run: it bundles a page of yours[^\n]*\n([\s\S]*?)^```$/m.exec(guide)?.[1] ?? "";
  const lines = [...block.matchAll(/^ {2}(\w+): (.*),$/gm)];
  const options = Object.fromEntries(lines.map(([, name, value]) => [name, JSON.parse(value ?? "")]));
  const { entryPoints: _entries, outdir: _outdir, ...rest } = options;
  return rest as BuildOptions;
}

/** The pages esbuild built, by their alias and settings: the first test's documented page is the second's. */
const esbuildPages = new Map<string, Promise<string>>();

/** The page bundled by esbuild with the options docs/package.md gives (`external` left out: none), built once. */
function esbuildPage(alias: Record<string, string>, settings: "documented" | "none"): Promise<string> {
  const key = JSON.stringify([alias, settings]);
  const known = esbuildPages.get(key);
  if (known !== undefined) return known;
  const page = buildEsbuildPage(alias, settings);
  esbuildPages.set(key, page);
  return page;
}

async function buildEsbuildPage(alias: Record<string, string>, settings: "documented" | "none"): Promise<string> {
  const folder = await pageFolder();
  const { external, ...withoutSetting } = await documentedEsbuildOptions();
  const bundle = await build({
    ...(settings === "documented" ? { ...withoutSetting, external } : withoutSetting),
    entryPoints: [join(folder, "app.ts")],
    absWorkingDir: consumer,
    write: false,
    alias,
    logLevel: "silent",
  });
  return bundle.outputFiles[0]?.text ?? "";
}

/** The page bundled by esbuild as docs/package.md says, served. */
async function esbuildServer(alias: Record<string, string>): Promise<PageServer> {
  return servePage(consumer, await esbuildPage(alias, "documented"));
}

/**
 * The page built by Vite for production, as a Vite project builds it: index.html naming the
 * script, MSW's worker script in public/ (as `msw init` puts it), Vite's defaults otherwise.
 */
async function viteServer(): Promise<PageServer> {
  const folder = await pageFolder();
  await writeFile(join(folder, "index.html"), PAGE_HTML);
  await mkdir(join(folder, "public"), { recursive: true });
  await copyFile(
    join(consumer, "node_modules", "msw", "lib", "mockServiceWorker.js"),
    join(folder, "public", "mockServiceWorker.js"),
  );
  const outDir = join(folder, "dist");
  await viteBuild({ root: folder, configFile: false, logLevel: "silent", build: { outDir, emptyOutDir: true } });
  return servePage(consumer, { folder: outDir });
}

const PAGE_HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>Events</title></head><body><div id="root"></div><script type="module" src="./app.ts"></script></body></html>';

describe("an esbuild build of the page with the in-page sandbox", () => {
  it("takes the one setting docs/package.md gives, and stops at PGlite's node:module without it", async () => {
    expect(await documentedEsbuildOptions()).toEqual({
      bundle: true,
      format: "esm",
      platform: "browser",
      minify: true,
      external: ["node:module"],
    });
    const failure = await esbuildPage({}, "none").then(
      () => "built",
      (error: unknown) => String(error),
    );
    expect(failure).toMatch(/Could not resolve "node:module"/);
    expect(await esbuildPage({}, "documented")).toContain('import("node:module")');
  }, 120_000);
});

describe.skipIf(chromiumPath === undefined)(
  `the front-end entries in a browser page${chromiumPath === undefined ? ` (skipped: ${noBrowserMessage})` : ""}`,
  () => {
    // one Chromium for the three pages, each in a context of its own (a fresh profile's)
    let chromium: Chromium;
    beforeAll(async () => {
      chromium = await launchChromium(chromiumPath ?? "");
    });
    afterAll(() => chromium?.close());

    // the lowest @tanstack/react-query the peer range of @tanstack/query-core allows, and the latest,
    // each bundled by esbuild with the options docs/package.md gives; and the latest built by Vite
    // with its defaults.
    it.each<{ bundler: "esbuild" | "vite"; version: string; alias: Record<string, string> }>([
      { bundler: "esbuild", version: "5.89.0", alias: { "@tanstack/react-query": "@tanstack/react-query-lowest" } },
      { bundler: "esbuild", version: "latest", alias: {} },
      { bundler: "vite", version: "latest", alias: {} },
    ])(
      "creates an event in a React page ($bundler, @tanstack/react-query $version) whose API is the sandbox on PGlite behind MSW's service worker, with no request leaving the page's origin",
      async ({ bundler, alias }) => {
        const server = bundler === "vite" ? await viteServer() : await esbuildServer(alias);
        const browser = await chromium.session();
        try {
          const { page } = browser;
          const fromWorker: string[] = [];
          page.on("response", (response) => {
            if (response.fromServiceWorker())
              fromWorker.push(
                `${response.request().method()} ${new URL(response.url()).pathname} ${response.status()}`,
              );
          });
          await page.goto(server.origin);
          await expect.poll(() => page.locator("#status").textContent(), { timeout: 60_000 }).toBe("0 events");
          await page.getByLabel("Event name").fill("Harbour gala");
          await page.getByRole("button", { name: "Create event" }).click();
          await expect.poll(() => page.locator("#events li").allTextContents()).toEqual(["Harbour gala"]);
          expect(await page.locator("#status").textContent()).toBe("1 events");
          expect(await page.locator("#created").textContent()).toMatch(/^created event \d+$/);
          await browser.screenshot(`front-end-page-${bundler}`);
          // the list was fetched, the event created, and the list fetched again: all answered in the page
          expect(fromWorker).toEqual([
            "GET /api/1_12/events 200",
            "POST /api/1_12/events 201",
            "GET /api/1_12/events 200",
          ]);
          const urls = browser.requests.map((request) => request.url);
          expect(urls.filter((url) => !url.startsWith(`${server.origin}/`))).toEqual([]);
          expect(server.paths.filter((path) => path.startsWith("/api/"))).toEqual([]);
        } finally {
          await browser.close();
          await server.close();
        }
      },
      120_000,
    );
  },
);

requireBrowserInCi();
