/**
 * Streams of items (OpenAPI 3.2 `itemSchema`) in a browser page, behind MSW's service worker
 * (test/fixtures/openapi-3.2/): the generated client in headless Chromium reads the items the
 * generated MSW handlers stream, typed and checked: the mock's JSON Lines, a handler's items as it
 * gives them (the second only once the page has read the first, so a body sent whole would never
 * end), server-sent events with their JSON `data` decoded, and the mock's multipart/mixed parts.
 * No call leaves the page.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../../src/index.js";
import { chromiumPath, noBrowserMessage, requireBrowserInCi } from "../../support/browser.js";
import { runPageScript } from "../../support/page-run.js";
import { repoRoot } from "../../support/paths.js";

const out = join(repoRoot, ".tmp", `page-streams-${process.pid}`);

beforeAll(async () => {
  await generate({ spec: join(repoRoot, "test/fixtures/openapi-3.2/openapi.yaml"), out });
}, 60_000);
afterAll(() => rm(out, { recursive: true, force: true }));

/** The page: the worker serves the mock handlers, with streamPositions answering as each test header asks. */
const PAGE_SCRIPT = (folder: string) => `
import { setupWorker } from "msw/browser";
import { createClient } from ${JSON.stringify(join(folder, "index.ts"))};
import { createMswHandlers } from ${JSON.stringify(join(folder, "msw", "index.ts"))};
import { createMockHandlers } from ${JSON.stringify(join(folder, "server", "mock.ts"))};
let release;
const released = new Promise((resolve) => { release = resolve; });
async function* gated() {
  yield { lat: 1, lon: 2 };
  await released;
  yield { lat: 3, lon: 4 };
}
async function* events() {
  for (let id = 1; id <= 2; id++) yield { event: "position", id: String(id), data: { lat: id, lon: -id } };
}
const mock = createMockHandlers();
const handlers = {
  ...mock,
  streamPositions: (input) => {
    const scenario = input.request.headers["x-scenario"];
    if (scenario === "gated") return { status: 200, body: gated() };
    if (scenario === "events") return { status: 200, headers: { "content-type": "text/event-stream" }, body: events() };
    return mock.streamPositions(input);
  },
};
const collect = async (items, each = () => undefined) => {
  const got = [];
  for await (const item of items) { got.push(item); each(got); }
  return got;
};
window.run = async () => {
  const worker = setupWorker(...createMswHandlers(handlers, { baseUrl: "/v1" }));
  await worker.start({ quiet: true, serviceWorker: { url: "/mockServiceWorker.js" } });
  const client = createClient({ baseUrl: location.origin + "/v1", apiKey: "k", validateResponses: true });
  const path = { path: { number: "BA117" } };
  const as = (scenario) => ({ headers: { "x-scenario": scenario } });
  return {
    mocked: await collect(await client.streamPositions(path)),
    gated: await collect(await client.streamPositions(path, as("gated")), (got) => got.length === 1 && release()),
    events: await collect(await client.streamPositions(path, as("events"))),
    notes: await collect(await client.readFlightNotes(path)),
  };
};
`;

describe.skipIf(chromiumPath === undefined)(
  `the MSW handlers' streams in a browser page${chromiumPath === undefined ? ` (skipped: ${noBrowserMessage})` : ""}`,
  () => {
    it("reach the generated client item by item, typed and checked", async () => {
      const { answers, paths } = await runPageScript(PAGE_SCRIPT(out));
      expect(answers).toEqual({
        mocked: [
          { lat: 51.47, lon: -0.45 },
          { lat: 51.5, lon: -0.6 },
          { lat: 51.6, lon: -0.9 },
        ],
        gated: [
          { lat: 1, lon: 2 },
          { lat: 3, lon: 4 },
        ],
        events: [
          { event: "position", id: "1", data: { lat: 1, lon: -1 } },
          { event: "position", id: "2", data: { lat: 2, lon: -2 } },
        ],
        notes: ["Boarding at gate B32.", { lat: 51.47, lon: -0.45 }],
      });
      // every call was answered in the page
      expect(paths.filter((path) => path.startsWith("/v1"))).toEqual([]);
    }, 60_000);
  },
);

requireBrowserInCi();
