/**
 * Fair shares between companies, measured on the sandbox as `npm start` runs it, embedded (PGlite,
 * which runs one statement at a time, in the sandbox's own process) and on PostgreSQL: Summit
 * Staffing's `GET /wage-rules`, one request after another, first alone, then while Harbor
 * Events' key sends the largest payroll group the contract lets a body hold (150,000 `locations`,
 * 879 KiB of JSON) from two clients, each sending the next as soon as it has its answer. Summit's
 * median latency while Harbor does so stays within twice its median alone, measured just before
 * in the same run; Harbor's groups are stored, a few at a time, and its requests past its share are
 * answered 503 with Retry-After, never anything else.
 *
 * The machine's other work can double a 2 ms median by itself (the files beside this one in a full
 * run on two cores: 2.1 ms alone and 4.3 ms beside Harbor once, 2.2 and 6.1, 3.7 and 7.8 in two
 * others), where a sandbox without the budget gives 47 to 199 times its median alone. So the
 * measure is taken again, up to `ATTEMPTS` times one after another, until one is within the bound:
 * a noisy moment passes, a lost budget fails every time.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../support/paths.js";
import { postgresAvailable } from "../../support/postgres.js";
import { HARBOR, SUMMIT } from "../../support/sandbox-calls.js";
import { type SandboxProcess, startSandboxProcess } from "../../support/sandbox-process.js";
import { sharedPostgres } from "../../support/shared-postgres.js";

/** The largest payroll group a body holds: 150,000 locations, each naming Harbor's venue 318. */
const LARGEST_GROUP = JSON.stringify({
  name: "Everyone",
  wage_rules_id: "7",
  locations: Array.from({ length: 150_000 }, () => "318"),
});

/** The pause of Summit's client between two requests. */
const THINK_MS = 20;

/** How many of Summit's requests make a median. */
const SAMPLES = 30;

/** How many measures are taken, one after another, before the bound is judged missed. */
const ATTEMPTS = 5;

/** Summit's `GET /wage-rules`: its latency in milliseconds, or a failure naming the status. */
async function summitRead(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/wage-rules`, { headers: { "x-api-key": SUMMIT } });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`Summit's GET /wage-rules answered ${response.status}`);
  return performance.now() - started;
}

/** One of Harbor's largest payroll groups: its status (a 503 must carry Retry-After). */
async function harborLargest(url: string): Promise<number> {
  const response = await fetch(`${url}/payroll-groups`, {
    method: "POST",
    headers: { "x-api-key": HARBOR, "content-type": "application/json" },
    body: LARGEST_GROUP,
  });
  await response.arrayBuffer();
  if (response.status === 503 && Number(response.headers.get("retry-after")) < 1) return 0;
  return response.status;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** One measure: Summit's median alone, then while Harbor's two clients send, with what Harbor was answered. */
interface Measure {
  readonly quiet: number;
  readonly busy: number;
  readonly harbor: readonly number[];
  readonly samples: number;
}

/** Summit's median alone, then while Harbor's two clients send, with what Harbor was answered. */
async function measure(url: string): Promise<Measure> {
  const quiet: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    quiet.push(await summitRead(url));
    await delay(THINK_MS);
  }
  const harbor: number[] = [];
  let stopping = false;
  const client = async (): Promise<void> => {
    while (!stopping) harbor.push(await harborLargest(url));
  };
  const clients = [client(), client()];
  const busy: number[] = [];
  const deadline = Date.now() + 45_000;
  try {
    // until Harbor has had a group stored meanwhile, so that Summit's requests span its work
    while ((busy.length < SAMPLES || !harbor.includes(200)) && Date.now() < deadline) {
      busy.push(await summitRead(url));
      await delay(THINK_MS);
    }
  } finally {
    stopping = true;
    await Promise.all(clients);
  }
  return { quiet: median(quiet), busy: median(busy), harbor, samples: busy.length };
}

/** Describes the measurement on the sandbox that `start` starts (the engine named `label`). */
function describeFairShares(label: string, start: () => Promise<SandboxProcess>): void {
  it(`keeps another company's median latency within 2x of quiet on ${label} while one key sends its largest requests from two clients`, async () => {
    const sandbox = await start();
    try {
      // code paths and caches warm, as in a sandbox that has served for a while
      expect(await harborLargest(sandbox.url)).toBe(200);
      const measures: Measure[] = [];
      while (measures.length < ATTEMPTS && !measures.some(({ quiet, busy }) => busy <= 2 * quiet)) {
        const { quiet, busy, harbor, samples } = await measure(sandbox.url);
        const stored = harbor.filter((status) => status === 200).length;
        process.stdout.write(
          `fair shares on ${label}: Summit's GET /wage-rules median ${quiet.toFixed(1)} ms alone, ${busy.toFixed(1)} ms over ${samples} requests while Harbor sent ${harbor.length} groups of 150,000 locations (${stored} stored, ${harbor.length - stored} answered 503)\n`,
        );
        expect(harbor.filter((status) => status !== 200 && status !== 503)).toEqual([]);
        expect(stored).toBeGreaterThanOrEqual(1);
        measures.push({ quiet, busy, harbor, samples });
      }
      const ratios = measures.map(({ quiet, busy }) => busy / quiet);
      expect(
        Math.min(...ratios),
        `busy/quiet medians of ${measures.length} measures: ${ratios.map((ratio) => ratio.toFixed(2)).join(", ")}`,
      ).toBeLessThanOrEqual(2);
    } finally {
      await sandbox.stop();
    }
  }, 120_000);
}

describe("fair shares between companies on the embedded engine", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await makeTempDir("fair-share");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  describeFairShares("the embedded engine", () => startSandboxProcess({ DATA_DIR: join(dir, "data") }));
});

describe("fair shares between companies on PostgreSQL", () => {
  if (postgresAvailable("the fair shares on PostgreSQL")) {
    // the run's server (../../support/shared-postgres.ts), in a schema of the file's own
    describeFairShares("PostgreSQL", async () =>
      startSandboxProcess({ DATABASE_URL: (await sharedPostgres()).url, SANDBOX_SCHEMA: "fair_share" }),
    );
  } else {
    it.skip("needs PostgreSQL: see the message above", () => undefined);
  }
});
