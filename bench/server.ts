/**
 * The generated server against plain Fastify: `npm run bench:server` (tsx bench/server.ts).
 *
 * Both serve POST /api/1_12/venues on 127.0.0.1 with the same X-API-KEY check (the generated
 * `createKeyAuthenticator`, before the body is read) and the same handler answer:
 *   ours  — the generated plugin: the generated body validator, response checks off (production);
 *   plain — a Fastify 5 route with `schema: { body: VenueCreate }` compiled by Fastify's Ajv.
 * Each run starts a fresh child process for its server, warms it for 5 s, and loads it with
 * autocannon (50 connections, ~10 s); the two servers alternate run by run, and the medians of
 * requests/s and p99 latency are compared, with the server's CPU time per request (steadier than
 * throughput on a machine shared with other work). Options: --rounds N (default 5), --duration S
 * (default 10). Every child is stopped when its run ends (and on Ctrl-C).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { type FastifyInstance, fastify } from "fastify";
import { buildServer, createKeyAuthenticator, createStubHandlers, mockAnswers } from "../generated/server/index.js";

const API_KEY = "bench-key";
const PATH = "/api/1_12/venues";
const VENUE = mockAnswers.createVenue?.body ?? { venue_id: 1 };
const BODY = JSON.stringify({ name: "Riverside Hall", address: "1 River Road", city: "Bristol", zip: "BS1 4DJ", saved: 1 });
/** Load before each measured run: long enough for the JIT to settle on the hot paths. */
const WARM_UP_SECONDS = 5;
const TARGETS = ["ours", "plain"] as const;
type Target = (typeof TARGETS)[number];

interface LoadResult {
  readonly requests: { readonly average: number; readonly total: number };
  readonly latency: { readonly p99: number };
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<LoadResult>;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

/** The generated server: the plugin, a trivial createVenue handler, production settings. */
async function ours(): Promise<FastifyInstance> {
  const handlers = { ...createStubHandlers(), createVenue: () => ({ status: 200 as const, body: VENUE }) };
  return buildServer({ handlers, authenticate: createKeyAuthenticator([API_KEY]), validateResponses: false });
}

/** Plain Fastify: the same check in an onRequest hook, VenueCreate compiled by Fastify's Ajv. */
async function plain(): Promise<FastifyInstance> {
  const spec = JSON.parse(readFileSync(new URL("../generated/openapi.json", import.meta.url), "utf8")) as { components: { schemas: Record<string, object> } };
  const authenticate = createKeyAuthenticator([API_KEY]);
  const app = fastify({ logger: false });
  app.post(
    PATH,
    {
      schema: { body: spec.components.schemas["VenueCreate"] ?? {} },
      onRequest: (request, reply, done) => {
        const key = request.headers["x-api-key"];
        if (typeof key !== "string" || key === "" || authenticate(key, request, { scheme: "ApiKeyAuth", type: "apiKey" }) !== true) {
          reply.code(401).header("content-type", "application/problem+json").send('{"type":"urn:problem-type:invalid-api-key","title":"Invalid API key","status":401}');
          return;
        }
        done();
      },
    },
    async () => VENUE,
  );
  return app;
}

/** In a child: serve one target and print its port. */
async function serve(target: Target): Promise<void> {
  const app = target === "ours" ? await ours() : await plain();
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  process.stdout.write(`port ${typeof address === "object" && address !== null ? address.port : 0}\n`);
  process.stdin.on("data", () => {
    const { user, system } = process.cpuUsage();
    process.stdout.write(`cpu ${user + system}\n`);
  });
  process.once("SIGTERM", () => void app.close().then(() => process.exit(0)));
}

interface Server {
  readonly child: ChildProcess;
  readonly url: string;
  /** the child's CPU time so far, in microseconds */
  cpu(): Promise<number>;
}

function start(target: Target): Promise<Server> {
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--serve", target], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, NODE_ENV: "production" },
  });
  const waiting: ((micros: number) => void)[] = [];
  const cpu = (): Promise<number> =>
    new Promise((resolve) => {
      waiting.push(resolve);
      child.stdin?.write("cpu\n");
    });
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      const port = /port (\d+)/.exec(text)?.[1];
      if (port !== undefined) resolve({ child, url: `http://127.0.0.1:${port}${PATH}`, cpu });
      for (const micros of text.matchAll(/cpu (\d+)/g)) waiting.shift()?.(Number(micros[1]));
    });
    child.once("exit", (code) => reject(new Error(`${target} server exited with ${code}`)));
  });
}

/** One run: autocannon's figures and the server's CPU microseconds per request. */
interface Run {
  readonly result: LoadResult;
  readonly cpuPerRequest: number;
}

async function measure(server: Server, seconds: number): Promise<Run> {
  const before = await server.cpu();
  const result = await load(server.url, seconds);
  const cpuPerRequest = ((await server.cpu()) - before) / Math.max(1, result.requests.total);
  return { result, cpuPerRequest };
}

async function load(url: string, seconds: number): Promise<LoadResult> {
  const result = await autocannon({ url, method: "POST", connections: 50, duration: seconds, body: BODY, headers: { "content-type": "application/json", "x-api-key": API_KEY } });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) throw new Error(`failed requests: ${JSON.stringify({ non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts })}`);
  return result;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value <= 0 || value > 600) throw new Error(`--${name} must be a positive number of at most 600`);
  return value;
}

async function compare(): Promise<void> {
  const rounds = option("rounds", 5);
  const seconds = option("duration", 10);
  const running = new Set<Server>();
  const stop = (server: Server): void => {
    server.child.kill("SIGTERM");
    running.delete(server);
  };
  process.once("SIGINT", () => {
    running.forEach(stop);
    process.exit(130);
  });
  try {
    const runs: Record<Target, Run[]> = { ours: [], plain: [] };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? TARGETS : [...TARGETS].reverse();
      for (const target of order) {
        // A fresh process per run: one process's JIT decisions can shift its figures by 10%
        // either way for its whole life, which alternating runs within one process cannot average out.
        const server = await start(target);
        running.add(server);
        await load(server.url, WARM_UP_SECONDS);
        const run = await measure(server, seconds);
        stop(server);
        runs[target].push(run);
        const { requests, latency } = run.result;
        console.log(
          `round ${round + 1} ${target.padEnd(5)} ${requests.average.toFixed(0).padStart(7)} req/s  p99 ${latency.p99.toFixed(1).padStart(5)} ms  ${run.cpuPerRequest.toFixed(1).padStart(6)} µs CPU/request`,
        );
      }
    }
    report(runs);
  } finally {
    running.forEach(stop);
  }
}

function report(runs: Record<Target, Run[]>): void {
  const rps = (target: Target): number => median(runs[target].map((run) => run.result.requests.average));
  const p99 = (target: Target): number => median(runs[target].map((run) => run.result.latency.p99));
  const cpu = (target: Target): number => median(runs[target].map((run) => run.cpuPerRequest));
  console.log("\nmedian       req/s    p99 (ms)   CPU µs/request");
  for (const target of TARGETS) console.log(`${target.padEnd(8)} ${rps(target).toFixed(0).padStart(9)} ${p99(target).toFixed(1).padStart(11)} ${cpu(target).toFixed(1).padStart(16)}`);
  console.log(
    `ours/plain  ${(rps("ours") / rps("plain")).toFixed(3)}× throughput, ${(p99("ours") / p99("plain")).toFixed(3)}× p99 latency, ${(cpu("ours") / cpu("plain")).toFixed(3)}× CPU per request`,
  );
}

const serveAt = process.argv.indexOf("--serve");
const target = process.argv[serveAt + 1];
if (serveAt !== -1 && (target === "ours" || target === "plain")) await serve(target);
else await compare();
