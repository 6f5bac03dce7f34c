/**
 * `npm run bench:sandbox:allocations`: the bytes of JavaScript objects the sandbox's server allocates
 * per request, beside the hand-written baseline's (./support/baseline-server.ts), both on one
 * PostgreSQL server. The rate and the CPU per request of `bench:sandbox:load` follow the machine's
 * load; what a request allocates does not, and it is what V8's collector (on the main thread and
 * on its helper threads) spends its time on. Each server runs in this process, on the same
 * database, each with the requests of a client process of its own (8 in flight on keep-alive
 * connections, the load benchmark's bodies); the sandbox logs its lines as `npm start` does on a
 * pipe (to /dev/null here). V8's sampling heap profiler counts what is allocated while the
 * requests are answered, the objects collected since included (one sample per 256 bytes on
 * average), after a warm-up of each operation: bytes per request, the median of the rounds, then
 * the functions that allocate the most.
 *
 * `--requests N` per round (default 4000), `--rounds R` (default 3), `--top K` functions (default
 * 12). PostgreSQL: DATABASE_URL, or a throwaway cluster from Debian's binaries.
 */
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { Agent, request } from "node:http";
import { Session } from "node:inspector/promises";
import { fileURLToPath } from "node:url";
import { loggerFor } from "../generated/server/index.js";
import { createSandbox } from "../sandbox/index.js";
import { postgresMissing, startPostgres } from "../test/support/postgres.js";
import { killedWithRun, untilStopped } from "./support/interrupt.js";
import { median, printTable } from "./support/stats.js";

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : (args[at + 1] ?? fallback);
};
const CONCURRENCY = 8;
const KEY = "demo-key-harbor";
const VENUE = "318";
const SCHEMA = "sandbox";

type Operation = "POST" | "PATCH";

/** The client process: `--client BASE OPERATION COUNT FIRST_ID`; prints the first id it created. */
async function client(base: string, operation: Operation, count: number, firstId: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let sequence = 0;
  let first = Number.POSITIVE_INFINITY;
  const send = (i: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify({
        name: `Load ${i}`,
        date: "2024-04-20",
        venue: { venue_id: VENUE },
        custom_fields_text: [{ key: "Round", value: String(i) }],
      });
      const path = operation === "POST" ? "/events" : `/events/${firstId + (i % 1000)}`;
      const headers = { "x-api-key": KEY, "content-type": "application/json" };
      const sent = request(`${base}${path}`, { method: operation, agent, headers }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () => {
          if (response.statusCode !== (operation === "POST" ? 201 : 200))
            return reject(new Error(`${operation} ${path}: ${response.statusCode} ${text.slice(0, 300)}`));
          if (operation === "POST") first = Math.min(first, Number(text));
          resolve();
        });
      });
      sent.on("error", reject);
      sent.end(body);
    });
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (sequence < count) await send(sequence++);
    }),
  );
  agent.destroy();
  process.stdout.write(`${first}\n`);
}

/** Runs `count` requests of `operation` against `base` from a client process; answers the first id created. */
function load(base: string, operation: Operation, count: number, firstId: number): Promise<number> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(
    process.execPath,
    ["--import", "tsx", self, "--client", base, operation, String(count), String(firstId)],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  killedWithRun(child);
  let said = "";
  child.stdout.on("data", (chunk: Buffer) => {
    said += chunk.toString("utf8");
  });
  return new Promise((resolve, reject) =>
    child.on("exit", (code) =>
      code === 0 ? resolve(Number(said.trim())) : reject(new Error(`the client exited with ${code}`)),
    ),
  );
}

/** A node of V8's sampling heap profile. */
interface ProfileNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly ProfileNode[];
}

/** The bytes each function allocated while `work` ran (the sampling heap profiler's estimate). */
async function allocations(session: Session, work: () => Promise<unknown>): Promise<Map<string, number>> {
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as never);
  await work();
  const { profile } = (await session.post("HeapProfiler.stopSampling")) as { profile: { head: ProfileNode } };
  const bytes = new Map<string, number>();
  const walk = (node: ProfileNode): void => {
    const frame = node.callFrame;
    const where = frame.url
      .replace(/^.*node_modules\//, "")
      .replace(/^file:\/\/\/.*?\/(?=sandbox|generated|bench)/, "");
    const name = `${frame.functionName || "(anonymous)"} ${where === "" ? "(native)" : `${where}:${frame.lineNumber + 1}`}`;
    bytes.set(name, (bytes.get(name) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  return bytes;
}

/** Starts the baseline in this process on `url`: where it listens. */
async function startBaseline(url: string): Promise<string> {
  process.env.BASELINE_DATABASE = url;
  process.env.BASELINE_SCHEMA = SCHEMA;
  const write = process.stdout.write;
  let said = "";
  process.stdout.write = ((chunk: string | Uint8Array) => {
    said += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    await import("./support/baseline-server.js");
  } finally {
    process.stdout.write = write;
  }
  const base = /Baseline listening at (\S+)/.exec(said)?.[1];
  if (base === undefined) throw new Error(`the baseline did not say where it listens: ${said}`);
  return base;
}

async function main(): Promise<void> {
  const requests = Number(option("requests", "4000"));
  const rounds = Number(option("rounds", "3"));
  const top = Number(option("top", "12"));
  const missing = postgresMissing();
  if (missing !== undefined) throw new Error(`no PostgreSQL server to measure on: ${missing}`);
  const postgres = await startPostgres();
  // stopped on Ctrl-C too; the sandbox and the baseline run in this process, and end with it
  const withdrawStop = untilStopped(() => postgres.stop());
  const seeded = await createSandbox({ database: postgres.url, schema: SCHEMA });
  await seeded.close();
  const sandbox = await createSandbox({
    database: postgres.url,
    schema: SCHEMA,
    logger: await loggerFor(createWriteStream("/dev/null")),
  });
  const servers = { sandbox: sandbox.url, baseline: await startBaseline(postgres.url) };
  const session = new Session();
  session.connect();
  try {
    report(await measure(servers, session, requests, rounds), rounds, requests, top);
  } finally {
    session.disconnect();
    await sandbox.close();
    withdrawStop();
    await postgres.stop();
  }
}

/** Bytes per request of each round, and by function (the mean of the rounds), per server and operation. */
interface Measured {
  readonly perRequest: Map<string, number[]>;
  readonly byFunction: Map<string, Map<string, number>>;
}

async function measure(
  servers: Readonly<Record<string, string>>,
  session: Session,
  requests: number,
  rounds: number,
): Promise<Measured> {
  const perRequest = new Map<string, number[]>();
  const byFunction = new Map<string, Map<string, number>>();
  for (const [server, base] of Object.entries(servers)) {
    // the warm-up: both operations' paths loaded and compiled before they are counted
    const firstId = await load(base, "POST", 2000, 0);
    await load(base, "PATCH", 1000, firstId);
    for (let round = 0; round < rounds; round++) {
      for (const operation of ["POST", "PATCH"] as const) {
        const bytes = await allocations(session, () => load(base, operation, requests, firstId));
        const total = [...bytes.values()].reduce((sum, value) => sum + value, 0);
        const key = `${server} ${operation}`;
        perRequest.set(key, [...(perRequest.get(key) ?? []), total / requests]);
        const functions = byFunction.get(key) ?? new Map<string, number>();
        for (const [name, value] of bytes) functions.set(name, (functions.get(name) ?? 0) + value / requests / rounds);
        byFunction.set(key, functions);
      }
    }
  }
  return { perRequest, byFunction };
}

function report({ perRequest, byFunction }: Measured, rounds: number, requests: number, top: number): void {
  const figure = (key: string): number => median(perRequest.get(key) ?? []);
  const spread = (key: string): string => {
    const values = perRequest.get(key) ?? [];
    return `${figure(key).toFixed(0)} (${Math.min(...values).toFixed(0)} to ${Math.max(...values).toFixed(0)})`;
  };
  console.log(
    `\nBytes allocated per request on PostgreSQL (medians of ${rounds} rounds of ${requests} requests, 8 in flight; lowest to highest)\n`,
  );
  printTable(
    ["operation", "sandbox", "hand-written", "sandbox / hand-written"],
    (["POST", "PATCH"] as const).map((operation) => [
      operation === "POST" ? "POST /events" : "PATCH /events/{id}",
      spread(`sandbox ${operation}`),
      spread(`baseline ${operation}`),
      `${(figure(`sandbox ${operation}`) / figure(`baseline ${operation}`)).toFixed(2)}×`,
    ]),
  );
  for (const [key, functions] of byFunction) {
    console.log(`\n${key}: the functions allocating the most, bytes per request (the mean of the rounds)\n`);
    printTable(
      ["function", "bytes"],
      [...functions]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([name, value]) => [name, value.toFixed(0)]),
    );
  }
}

if (args[0] === "--client") {
  const [, base = "", operation = "POST", count = "0", firstId = "0"] = args;
  await client(base, operation as Operation, Number(count), Number(firstId));
} else {
  await main();
  process.exit(0);
}
