/**
 * The static reference `npm run docs` writes (build/reference.html), built here the same way and
 * opened from the file in headless Chromium: one self-contained file in which every operation
 * can be read, with its examples and the X-API-KEY scheme, and from which no request leaves.
 */
import { execFile } from "node:child_process";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BrowserSession,
  chromiumPath,
  launchBrowser,
  noBrowserMessage,
  requireBrowserInCi,
} from "../../support/browser.js";
import { repoRoot } from "../../support/paths.js";
import { type Json, type JsonObject, readDereferencedSpec } from "../../support/spec-document.js";

const run = promisify(execFile);
const file = join(repoRoot, "build", "reference.html");
const fileUrl = pathToFileURL(file).href;

/** What the reference must show of an operation: where it is, its summary, a text of its example answer. */
interface ShownOperation {
  readonly operationId: string;
  readonly tagHref: string;
  readonly summary: string;
  readonly example: string;
}

let operations: ShownOperation[] = [];

/** Every operation of the spec, with a text of its first success example. */
async function listOperations(): Promise<ShownOperation[]> {
  const paths = (await readDereferencedSpec())["paths"] as JsonObject;
  return Object.values(paths).flatMap((item) =>
    Object.values(item as JsonObject).map((node) => {
      const { operationId, summary, tags, responses } = node as JsonObject;
      const success = Object.entries(responses as JsonObject).find(([status]) =>
        status.startsWith("2"),
      )?.[1] as JsonObject;
      const examples = (Object.values(success["content"] as JsonObject)[0] as JsonObject)["examples"] as JsonObject;
      const example = firstString((Object.values(examples)[0] as JsonObject)["value"] ?? null) ?? "";
      const tag = String((tags as Json[])[0])
        .toLowerCase()
        .replace(/\s+/g, "-");
      return { operationId: String(operationId), tagHref: `/${tag}`, summary: String(summary), example };
    }),
  );
}

/** The first string, number or boolean in an example, else its first property name. */
function firstString(value: Json): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null) return undefined;
  for (const item of Object.values(value)) {
    const found = firstString(item);
    if (found !== undefined) return found;
  }
  return Array.isArray(value) ? undefined : Object.keys(value)[0];
}

/** What `npm run docs` printed, on stdout and stderr. */
let printed = "";

beforeAll(async () => {
  operations = await listOperations();
  const built = await run("npm", ["run", "-s", "docs"], {
    cwd: repoRoot,
    env: { ...process.env, npm_config_loglevel: "error" },
  });
  printed = `${built.stdout}${built.stderr}`;
}, 60_000);

describe("npm run docs", () => {
  it("prints only its own output: no notice about the runtime or Redoc, and where it wrote the file", () => {
    expect(printed).toContain("bundled successfully in: build/reference.html");
    expect(printed).not.toMatch(/end-of-life|Node\.js 2\d|Redoc 3|custom templates|[╔║╚]/);
  });

  it("writes one file that loads no script, style or font from elsewhere", async () => {
    expect((await stat(file)).size).toBeGreaterThan(100_000);
    const html = await readFile(file, "utf8");
    expect(html).not.toMatch(/<(script|link|img)\b[^>]*\b(src|href)=["']?(https?:)?\/\//i);
    expect(html).toContain('http-equiv="Content-Security-Policy"');
  });
});

describe.skipIf(chromiumPath === undefined)(
  `the static reference in a browser${chromiumPath === undefined ? ` (skipped: ${noBrowserMessage})` : ""}`,
  () => {
    let browser: BrowserSession;

    beforeAll(async () => {
      browser = await launchBrowser(chromiumPath ?? "");
      await browser.page.goto(fileUrl);
      await browser.page.getByText("Workforce Scheduling Service API (1.12)").waitFor();
    });

    afterAll(() => browser?.close());

    it("shows every operation, each with its summary and its example answer", async () => {
      const { page } = browser;
      expect(operations).toHaveLength(9);
      for (const { operationId, tagHref, summary, example } of operations) {
        // the address of the operation's page, as the sidebar links to it
        await page.evaluate((hash) => {
          location.hash = hash;
        }, `#${tagHref}/${operationId.toLowerCase()}`);
        await page.locator("h2", { hasText: summary }).first().waitFor();
        expect(example, `${operationId} has an example to look for`).not.toBe("");
        await expect
          .poll(() => page.locator("body").innerText(), { message: `${operationId} shows its example` })
          .toContain(example);
      }
      await browser.screenshot("static-reference");
    });

    it("shows the X-API-KEY scheme", async () => {
      const { page } = browser;
      await page.getByText("View security details").first().click();
      await expect
        .poll(() => page.locator("body").innerText())
        .toMatch(/ApiKeyAuth[\s\S]*Header parameter name:\s*X-API-KEY/);
      await browser.screenshot("static-reference-security");
    });

    it("makes no request beyond the file: anything else is refused by the page's own policy", () => {
      const outside = browser.requests.filter(
        (request) => !request.url.startsWith(fileUrl) && !/^(data|blob):/.test(request.url),
      );
      expect(browser.requests.some((request) => request.url.startsWith(fileUrl))).toBe(true);
      expect(outside.filter((request) => request.failure !== "csp")).toEqual([]);
    });
  },
);

requireBrowserInCi();
