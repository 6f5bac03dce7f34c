/**
 * Headless Chromium for the reference tests, driven by playwright-core (which downloads no
 * browser of its own): Debian's `chromium`, or whatever CHROMIUM_PATH names. Each launch gets a
 * fresh profile and the switches that keep Chromium from calling home (no background networking,
 * component updates, sync or QUIC), and records every request its pages make.
 */
import { accessSync, constants, existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { makeTempDir, repoRoot } from "./paths.js";
import { requireInCi } from "./required.js";

/** Where the tests leave their screenshots (ignored by git). */
export const SCREENSHOT_DIR = join(repoRoot, "build", "screenshots");

/** The Chromium binary to drive, if there is one. */
export const chromiumPath = findChromium();

/** Why the browser tests are skipped, and how to run them. */
export const noBrowserMessage = process.env.CHROMIUM_PATH
  ? `CHROMIUM_PATH names ${process.env.CHROMIUM_PATH}, which is not an executable file`
  : "no chromium on the PATH: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium or Chrome binary";

const SWITCHES = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // WebAssembly on V8's baseline compiler only, as the test workers run (vitest.config.ts): a page
  // with PGlite runs its 9 MB module for seconds, and optimising it in the background cost more
  // than it saved (Chromium's CPU for a page that starts PGlite and queries it: 7.6 s, 5.5 with this)
  "--js-flags=--liftoff-only",
];

/** CHROMIUM_PATH when set, else `chromium` on the PATH: the lookup `.ci/run` makes before installing one. */
function findChromium(): string | undefined {
  const named = process.env.CHROMIUM_PATH;
  if (named !== undefined && named !== "") return executable(named) ? named : undefined;
  const dirs = (process.env.PATH ?? "").split(delimiter).filter((dir) => dir !== "");
  return dirs.map((dir) => join(dir, "chromium")).find(executable);
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return existsSync(path);
  } catch {
    return false;
  }
}

/** One request a page made, and how it ended if it failed ("csp": refused by the page's policy). */
export interface RecordedRequest {
  readonly url: string;
  readonly method: string;
  failure?: string;
}

/** A running browser with one page, and every request made so far. */
export interface BrowserSession {
  readonly page: Page;
  readonly requests: readonly RecordedRequest[];
  /** saves a full-page screenshot as build/screenshots/<name>.png and returns its path */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/** The size of every page. */
const VIEWPORT = { width: 1280, height: 900 };

/** Launches headless Chromium with a fresh profile (removed again by `close`). */
export async function launchBrowser(executablePath: string): Promise<BrowserSession> {
  const profile = await makeTempDir("chromium-profile");
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: SWITCHES,
    viewport: VIEWPORT,
  });
  return sessionOf(context, () => rm(profile, { recursive: true, force: true }));
}

/** A Chromium process that opens sessions of their own (`launchChromium`). */
export interface Chromium {
  /** a session in a fresh context: no cookie, storage, cache or service worker of another session */
  session(): Promise<BrowserSession>;
  close(): Promise<void>;
}

/**
 * Launches headless Chromium once for several sessions, each in a context of its own, as fresh as
 * a new profile: for the tests of a file that each need a clean browser (a launch is about 0.9 s
 * of CPU).
 */
export async function launchChromium(executablePath: string): Promise<Chromium> {
  const browser = await chromium.launch({ executablePath, headless: true, args: SWITCHES });
  return {
    session: async () => sessionOf(await browser.newContext({ viewport: VIEWPORT }), async () => undefined),
    close: () => browser.close(),
  };
}

/** A session over a context's first page; `close` closes the context, then runs `after`. */
async function sessionOf(context: BrowserContext, after: () => Promise<void>): Promise<BrowserSession> {
  const requests = record(context);
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(10_000);
  return {
    page,
    requests,
    screenshot: async (name) => {
      await mkdir(SCREENSHOT_DIR, { recursive: true });
      const path = join(SCREENSHOT_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: false });
      return path;
    },
    close: async () => {
      await context.close();
      await after();
    },
  };
}

function record(context: BrowserContext): RecordedRequest[] {
  const requests: RecordedRequest[] = [];
  const byRequest = new WeakMap<object, RecordedRequest>();
  context.on("request", (request) => {
    const entry: RecordedRequest = { url: request.url(), method: request.method() };
    byRequest.set(request, entry);
    requests.push(entry);
  });
  context.on("requestfailed", (request) => {
    const entry = byRequest.get(request);
    if (entry !== undefined) entry.failure = request.failure()?.errorText ?? "failed";
  });
  return requests;
}

/** Fails in CI, where a browser is always installed; elsewhere says why the tests are skipped. */
export function requireBrowserInCi(): void {
  requireInCi("browser tests", chromiumPath === undefined ? noBrowserMessage : undefined);
}
