/**
 * The generated server against plain Fastify: `npm run bench:server` (tsx bench/server.ts).
 *
 * Both serve every operation of the route table under the base path on 127.0.0.1, each behind
 * the same X-API-KEY check (the generated `createKeyAuthenticator`, before the body is read), and
 * are loaded with POST /api/1_12/venues, answered with the same body:
 *   ours  — the generated plugin: the generated body validator, response checks off (production);
 *   plain — Fastify 5 routes with the check in an onRequest hook and each JSON body checked by
 *           Fastify's Ajv against the operation's schema (`schema: { body: VenueCreate }` for the
 *           route loaded), multipart bodies read by @fastify/multipart in their own scope.
 * Plain serves the same routes as ours, not only the one loaded: a Fastify process whose router
 * holds a single route spends measurably less CPU per request (about 8% here) than one serving
 * several, whichever route is loaded, and that difference is not the pipeline's. `--single-route`
 * gives plain the loaded route only, as earlier versions of this benchmark did.
 * Each run starts a fresh child process for its server, warms it for 5 s, and loads it with
 * autocannon (50 connections, ~10 s); the two servers alternate run by run, and the medians of
 * requests/s and of p50 and p99 latency are compared, with the server's CPU time per request
 * (steadier than throughput on a machine shared with other work). The two runs of a round run back
 * to back, so each round's ratios are also taken and their medians shown: on a shared machine,
 * whose slow spells move both sides' own medians, they are the steadier comparison.
 * Options: --rounds N (default 7, at least 5), --duration S (default 10), --single-route. Every child is stopped when its run ends
 * (and on Ctrl-C).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import multipart from "@fastify/multipart";
import { type FastifyInstance, type FastifyReply, type FastifyRequest, fastify } from "fastify";
import type { Route } from "../generated/route-types.js";
import { basePath, routes } from "../generated/routes.js";
import { buildServer, createKeyAuthenticator, createStubHandlers, mockAnswers } from "../generated/server/index.js";
import { toRouterPath } from "../generated/server/runtime/parameters.js";

const API_KEY = "bench-key";
const PATH = "/api/1_12/venues";
const VENUE = mockAnswers.createVenue?.body ?? { venue_id: 1 };
const BODY = JSON.stringify({
  name: "Riverside Hall",
  address: "1 River Road",
  city: "Bristol",
  zip: "BS1 4DJ",
  saved: 1,
});
/** Load before each measured run: long enough for the JIT to settle on the hot paths. */
const WARM_UP_SECONDS = 5;
const TARGETS = ["ours", "plain"] as const;
type Target = (typeof TARGETS)[number];

interface LoadResult {
  readonly requests: { readonly average: number; readonly total: number };
  readonly latency: { readonly p50: number; readonly p99: number };
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

type Schema = Record<string, unknown>;
interface Spec {
  readonly paths: Record<string, unknown>;
  readonly components: { readonly schemas: Record<string, Schema>; readonly requestBodies?: Record<string, unknown> };
}

/**
 * Plain Fastify serving the same routes: the check in an onRequest hook, each JSON body checked
 * by Fastify's Ajv, multipart bodies read by @fastify/multipart in their own scope. Only the
 * loaded route answers; the others would answer 501. With `singleRoute`, only the loaded route.
 */
async function plain(singleRoute: boolean): Promise<FastifyInstance> {
  const spec = JSON.parse(readFileSync(new URL("../generated/openapi.json", import.meta.url), "utf8")) as Spec;
  const authenticate = createKeyAuthenticator([API_KEY]);
  const onRequest = (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const key = request.headers["x-api-key"];
    if (
      typeof key !== "string" ||
      key === "" ||
      authenticate(key, request, { scheme: "ApiKeyAuth", type: "apiKey" }) !== true
    ) {
      reply
        .code(401)
        .header("content-type", "application/problem+json")
        .send('{"type":"urn:problem-type:invalid-api-key","title":"Invalid API key","status":401}');
      return;
    }
    done();
  };
  const app = fastify({ logger: false });
  app.post(
    PATH,
    { schema: { body: forAjv(spec.components.schemas["VenueCreate"] ?? {}) }, onRequest },
    async () => VENUE,
  );
  if (singleRoute) return app;
  // The component schemas, once, for the other operations' bodies to refer to.
  app.addSchema({
    $id: "components",
    definitions: Object.fromEntries(
      Object.entries(spec.components.schemas).map(([name, schema]) => [name, forAjv(schema)]),
    ),
  });
  const notServed = async (_request: FastifyRequest, reply: FastifyReply): Promise<void> => void reply.code(501).send();
  const uploads: Route[] = [];
  for (const route of Object.values<Route>(routes)) {
    const url = basePath + toRouterPath(route.path).url;
    if (route.method === "POST" && url === PATH) continue;
    if (route.body?.contents.some((content) => content.kind === "multipart") === true) uploads.push(route);
    else app.route({ method: route.method, url, onRequest, schema: bodySchema(spec, route), handler: notServed });
  }
  await app.register(async (scope) => {
    await scope.register(multipart);
    for (const route of uploads)
      scope.route({
        method: route.method,
        url: basePath + toRouterPath(route.path).url,
        onRequest,
        handler: notServed,
      });
  });
  return app;
}

/** The Fastify schema of an operation's JSON body, if it takes one. */
function bodySchema(spec: Spec, route: Route): { body: unknown } | undefined {
  const json = route.body?.contents.find((content) => content.kind === "json");
  if (route.body === undefined || json === undefined) return undefined;
  let requestBody = at(spec, route.body.pointer) as
    | { $ref?: string; content?: Record<string, { schema?: Schema }> }
    | undefined;
  if (typeof requestBody?.$ref === "string") requestBody = at(spec, requestBody.$ref) as typeof requestBody;
  const schema = requestBody?.content?.[json.mediaType]?.schema;
  if (schema === undefined) return undefined;
  const name =
    typeof schema["$ref"] === "string" ? /^#\/components\/schemas\/(.+)$/.exec(schema["$ref"])?.[1] : undefined;
  return { body: forAjv(name === undefined ? schema : (spec.components.schemas[name] ?? {})) };
}

/** The value at a JSON pointer ("#/paths/~1venues/post/requestBody") in the spec. */
function at(spec: Spec, pointer: string): unknown {
  let value: unknown = spec;
  for (const token of pointer.replace(/^#\//, "").split("/"))
    value = (value as Record<string, unknown> | undefined)?.[token.replaceAll("~1", "/").replaceAll("~0", "~")];
  return value;
}

/** Keywords of OpenAPI that Ajv's strict mode does not know. */
const OPENAPI_ONLY = new Set(["example", "discriminator", "xml", "externalDocs"]);
/** Keywords whose values are data or names, not schemas. */
const DATA = new Set(["enum", "const", "default", "examples", "example", "required"]);
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/** A spec schema as Fastify's Ajv takes it: component references into `components`, OpenAPI-only and "x-" keywords left out. */
function forAjv(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forAjv);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith("x-") || OPENAPI_ONLY.has(key)) continue;
    if (key === "$ref" && typeof value === "string")
      out[key] = value.replace(/^#\/components\/schemas\//, "components#/definitions/");
    else if (DATA.has(key)) out[key] = value;
    else if (SCHEMA_MAPS.has(key) && typeof value === "object" && value !== null)
      out[key] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, forAjv(item)]));
    else out[key] = forAjv(value);
  }
  return out;
}

/** In a child: serve one target and print its port. */
async function serve(target: Target, singleRoute: boolean): Promise<void> {
  const app = target === "ours" ? await ours() : await plain(singleRoute);
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

function start(target: Target, singleRoute: boolean): Promise<Server> {
  const args = [
    "--import",
    "tsx",
    fileURLToPath(import.meta.url),
    "--serve",
    target,
    ...(singleRoute ? ["--single-route"] : []),
  ];
  const child = spawn(process.execPath, args, {
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
  const result = await autocannon({
    url,
    method: "POST",
    connections: 50,
    duration: seconds,
    body: BODY,
    headers: { "content-type": "application/json", "x-api-key": API_KEY },
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0)
    throw new Error(
      `failed requests: ${JSON.stringify({ non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts })}`,
    );
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
  if (!Number.isFinite(value) || value <= 0 || value > 600)
    throw new Error(`--${name} must be a positive number of at most 600`);
  return value;
}

async function compare(): Promise<void> {
  const rounds = option("rounds", 7);
  if (rounds < 5) throw new Error("--rounds must be at least 5: each median needs five runs");
  const singleRoute = process.argv.includes("--single-route");
  if (singleRoute) console.log("plain serves the loaded route only (--single-route)");
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
        const server = await start(target, singleRoute);
        running.add(server);
        await load(server.url, WARM_UP_SECONDS);
        const run = await measure(server, seconds);
        stop(server);
        runs[target].push(run);
        const { requests, latency } = run.result;
        console.log(
          `round ${round + 1} ${target.padEnd(5)} ${requests.average.toFixed(0).padStart(7)} req/s  p50 ${latency.p50.toFixed(1).padStart(5)} ms  p99 ${latency.p99.toFixed(1).padStart(5)} ms  ${run.cpuPerRequest.toFixed(1).padStart(6)} µs CPU/request`,
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
  const p50 = (target: Target): number => median(runs[target].map((run) => run.result.latency.p50));
  const p99 = (target: Target): number => median(runs[target].map((run) => run.result.latency.p99));
  const cpu = (target: Target): number => median(runs[target].map((run) => run.cpuPerRequest));
  const rounds = runs.ours.length;
  console.log(`\nmedian of ${rounds} rounds   req/s    p50 (ms)    p99 (ms)   CPU µs/request`);
  for (const target of TARGETS) {
    console.log(
      `${target.padEnd(17)} ${rps(target).toFixed(0).padStart(9)} ${p50(target).toFixed(1).padStart(11)} ${p99(target).toFixed(1).padStart(11)} ${cpu(target).toFixed(1).padStart(16)}`,
    );
  }
  console.log(
    `medians of the sides, ours/plain: ${(rps("ours") / rps("plain")).toFixed(3)}× throughput, ${(p50("ours") / p50("plain")).toFixed(3)}× p50 and ${(p99("ours") / p99("plain")).toFixed(3)}× p99 latency, ${(cpu("ours") / cpu("plain")).toFixed(3)}× CPU per request`,
  );
  // The two runs of a round ran back to back: their ratio is much less moved by the machine's
  // slower and faster spells (runs of the same server range over 2× on a shared machine) than
  // the medians of the sides are.
  const ratios = (value: (run: Run) => number): number[] =>
    runs.ours.map((run, round) => value(run) / value(runs.plain[round] as Run));
  const throughput = ratios((run) => run.result.requests.average);
  const cpuRatios = ratios((run) => run.cpuPerRequest);
  console.log(
    `round by round, median of the ${rounds} ratios: ${median(throughput).toFixed(3)}× throughput, ${median(ratios((run) => run.result.latency.p50)).toFixed(3)}× p50 and ${median(ratios((run) => run.result.latency.p99)).toFixed(3)}× p99 latency, ${median(cpuRatios).toFixed(3)}× CPU per request (ours ahead in ${throughput.filter((ratio) => ratio > 1).length} of ${rounds} rounds on throughput, ${cpuRatios.filter((ratio) => ratio < 1).length} on CPU)`,
  );
}

const serveAt = process.argv.indexOf("--serve");
const target = process.argv[serveAt + 1];
if (serveAt !== -1 && (target === "ours" || target === "plain"))
  await serve(target, process.argv.includes("--single-route"));
else await compare();
