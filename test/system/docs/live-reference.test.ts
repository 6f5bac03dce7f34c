/**
 * The reference `npm start` serves: the mock server run as a process, /docs opened in headless
 * Chromium. The top bar shows the API's title (no Swagger logo, no box to explore another URL),
 * every operation and the X-API-KEY scheme are shown, a "Try it" call reaches the mock
 * and is answered, the reference needs no key while the API still does, and no request the page
 * makes leaves the mock's own origin.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { routes } from "../../../generated/routes.js";
import {
  type BrowserSession,
  chromiumPath,
  launchBrowser,
  noBrowserMessage,
  requireBrowserInCi,
} from "../../support/browser.js";
import { type MockProcess, startMockProcess } from "../../support/mock-process.js";
import { repoRoot } from "../../support/paths.js";

const KEY = "reference-key-5d21";
const operationIds = Object.values(routes)
  .map((route) => route.operationId)
  .sort();
let server: MockProcess;

beforeAll(async () => {
  server = await startMockProcess({ API_KEYS: KEY });
});

afterAll(() => {
  if (server.child.exitCode === null) server.child.kill("SIGKILL");
});

describe("the reference routes of the mock server", () => {
  it("serve the reference and the spec without a key, while the API still needs one", async () => {
    const page = await fetch(`${server.origin}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    const { "x-generated": _mark, ...spec } = JSON.parse(
      readFileSync(`${repoRoot}/generated/openapi.json`, "utf8"),
    ) as Record<string, unknown>;
    const json = await fetch(`${server.origin}/openapi.json`);
    expect(json.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await json.json()).toEqual(spec);
    const yaml = await fetch(`${server.origin}/openapi.yaml`);
    expect(yaml.headers.get("content-type")).toMatch(/^application\/yaml/);
    expect(parse(await yaml.text())).toEqual(spec);
    expect((await fetch(`${server.origin}/api/1_12/events`)).status).toBe(401);
  });

  it("answer what they do not serve with a problem, like every other route", async () => {
    const refused: [string, number][] = [
      ["/docs/static/nothing.js", 404],
      ["/docs/nothing", 404],
      ["/openapi.txt", 404],
      ["/docs/static/%zz", 400],
      ["/docs/static/%00", 403],
    ];
    for (const [path, status] of refused) {
      const response = await fetch(`${server.origin}${path}`);
      expect([path, response.status]).toEqual([path, status]);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({ status });
    }
    expect((await fetch(`${server.origin}/openapi.json`, { method: "DELETE" })).status).toBe(404);
  });
});

describe.skipIf(chromiumPath === undefined)(
  `the reference in a browser${chromiumPath === undefined ? ` (skipped: ${noBrowserMessage})` : ""}`,
  () => {
    let browser: BrowserSession;

    beforeAll(async () => {
      browser = await launchBrowser(chromiumPath ?? "");
      await browser.page.goto(`${server.origin}/docs`);
      await browser.page.locator(".opblock").first().waitFor();
    });

    afterAll(() => browser?.close());

    it("shows every operation and the X-API-KEY scheme", async () => {
      const { page } = browser;
      const shown = await page.locator(".opblock-summary-operation-id").allInnerTexts();
      expect(shown.map((text) => text.trim()).sort()).toEqual(operationIds);
      await page.getByRole("button", { name: "Authorize" }).first().click();
      await expect.poll(() => page.locator(".auth-container").innerText()).toMatch(/ApiKeyAuth[\s\S]*X-API-KEY/);
      await browser.screenshot("live-reference");
    });

    it("shows the API's title in the top bar, with no Swagger logo and no box to explore another URL", async () => {
      const { page } = browser;
      const { title } = (
        JSON.parse(readFileSync(`${repoRoot}/generated/openapi.json`, "utf8")) as { info: { title: string } }
      ).info;
      const topBar = page.locator(".swagger-ui .topbar");
      await expect.poll(() => topBar.innerText()).toBe(title);
      expect(await topBar.locator("input, form, img, svg, a").count()).toBe(0);
      expect(await page.locator("#download-url-input, .download-url-wrapper").count()).toBe(0);
      expect(await page.getByRole("button", { name: "Explore" }).count()).toBe(0);
      expect(browser.requests.filter((request) => /logo/i.test(request.url))).toEqual([]);
    });

    it("tries createVenue against the mock, with the key entered in the page", async () => {
      const { page } = browser;
      await page.locator(".auth-container input").fill(KEY);
      await page.locator(".auth-btn-wrapper button.authorize").click();
      await page.locator(".auth-btn-wrapper button.btn-done").click();
      const operation = page.locator(".opblock", {
        has: page.locator(".opblock-summary-operation-id", { hasText: /^createVenue$/ }),
      });
      await operation.locator(".opblock-summary").click();
      await operation.getByRole("button", { name: "Try it out" }).click();
      await operation.getByRole("button", { name: "Execute" }).click();
      const status = operation.locator(".live-responses-table tr.response .response-col_status").first();
      await expect.poll(() => status.innerText()).toBe("200");
      expect(
        await operation.locator(".live-responses-table tr.response .response-col_description").first().innerText(),
      ).toContain('"venue_id": 318');
      await status.scrollIntoViewIfNeeded();
      await browser.screenshot("live-reference-try-it");
      const call = browser.requests.find(
        (request) => request.method === "POST" && request.url === `${server.origin}/api/1_12/venues`,
      );
      expect(call, "the Try it call reached the mock").toBeDefined();
    });

    it("makes no request beyond the mock's own origin", () => {
      const urls = browser.requests.map((request) => request.url);
      expect(urls.length).toBeGreaterThan(5);
      expect(urls.filter((url) => !url.startsWith(`${server.origin}/`))).toEqual([]);
    });
  },
);

requireBrowserInCi();
