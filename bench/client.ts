/**
 * Per-call overhead of the generated client against a raw fetch of the same request, in one run.
 * A minimal node:http server (a child process, so it does not share the event loop being
 * measured) answers a fixed JSON venue on 127.0.0.1. The variants alternate call by call, in an
 * order that rotates every round, so load drift on the machine hits them alike; each call is
 * timed on its own and the report gives the median per-call time of each variant and its ratio
 * to raw fetch. A second table times the same calls against an in-memory fetch, which isolates the
 * client's own work (the absolute overhead per call) from the network and the server.
 *
 * Targets: at most 1.05x raw fetch with validation off, at most 1.15x with request validation on.
 * Usage: npm run bench:client [-- --rounds 20 --calls 500]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { parseArgs } from "node:util";
import type { FetchFunction } from "../generated/client/index.js";
import { createClient } from "../generated/index.js";
import { median, printTable } from "./support/stats.js";

const SERVER = `
const body = JSON.stringify({ venue_id: 318, name: "Riverside Hall", address: "1 River Road", city: "Bristol", zip: "BS1 4DJ", saved: 1 });
const server = require("node:http").createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

const venue = { name: "Riverside Hall", address: "1 River Road", city: "Bristol", zip: "BS1 4DJ", saved: 1 };
const API_KEY = "bench-key";

type Variant = { readonly name: string; readonly call: () => Promise<unknown> };

/** Raw fetch and the client on the same request; `memoryFetch` replaces the network when given. */
function variants(origin: string, memoryFetch?: FetchFunction): Variant[] {
  const url = `${origin}/api/1_12/venues`;
  const fetchFunction = memoryFetch ?? fetch;
  const common = {
    apiKey: API_KEY,
    serverVariables: { base_url: origin },
    ...(memoryFetch ? { fetch: memoryFetch } : {}),
  };
  // the exact request the client sends: same method, URL, headers and body
  const headers = {
    accept: "application/json, application/problem+json",
    "x-api-key": API_KEY,
    "content-type": "application/json",
  };
  const off = createClient({ ...common, validateRequests: false });
  const on = createClient(common);
  return [
    {
      name: "raw fetch",
      call: () =>
        fetchFunction(url, { method: "POST", headers, body: JSON.stringify(venue) }).then((response) =>
          response.json(),
        ),
    },
    { name: "client, validation off", call: () => off.createVenue({ body: venue }) },
    { name: "client, request validation on", call: () => on.createVenue({ body: venue }) },
  ];
}

/** Per-call times (µs) of every variant, alternating call by call, the order rotating per round. */
async function measure(list: readonly Variant[], rounds: number, calls: number): Promise<number[][]> {
  const times = list.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < calls; i++) {
      for (let k = 0; k < list.length; k++) {
        const index = (round + k) % list.length;
        const started = process.hrtime.bigint();
        await (list[index] as Variant).call();
        times[index]?.push(Number(process.hrtime.bigint() - started) / 1_000);
      }
    }
  }
  return times;
}

async function startServer(): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["-e", SERVER], { stdio: ["ignore", "pipe", "inherit"] });
  const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, "data")) as [Buffer];
  return { origin: `http://127.0.0.1:${chunk.toString().trim()}`, child };
}

/** The same three calls against a fetch that answers from memory: the client's own work. */
function inMemoryVariants(): Variant[] {
  const text = JSON.stringify({ venue_id: 318, ...venue });
  const answer = (): Response => new Response(text, { status: 200, headers: { "content-type": "application/json" } });
  const memoryFetch: FetchFunction = () => Promise.resolve(answer());
  return variants("http://127.0.0.1:1", memoryFetch);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { rounds: { type: "string", default: "20" }, calls: { type: "string", default: "500" } },
  });
  const rounds = Number(values.rounds);
  const calls = Number(values.calls);
  const { origin, child } = await startServer();
  try {
    const overHttp = variants(origin);
    const inMemory = inMemoryVariants();
    await measure([...overHttp, ...inMemory], 1, 1_000);
    console.log(
      `client per-call overhead: POST /venues, ${rounds} rounds x ${calls} calls per variant, Node ${process.version}\n`,
    );
    report("over HTTP (127.0.0.1)", overHttp, await measure(overHttp, rounds, calls));
    report("in-memory fetch (the client's own work)", inMemory, await measure(inMemory, rounds, calls * 4));
    console.log("\ntargets over HTTP: validation off <= 1.05x raw fetch, request validation on <= 1.15x");
  } finally {
    child.kill();
  }
}

function report(title: string, list: readonly Variant[], times: readonly number[][]): void {
  const raw = median(times[0] ?? []);
  console.log(`${title}:`);
  printTable(
    ["variant", "median µs/call", "ratio to raw fetch", "overhead µs/call"],
    list.map((variant, i) => {
      const own = median(times[i] ?? []);
      return [variant.name, own.toFixed(1), (own / raw).toFixed(3), (own - raw).toFixed(1)];
    }),
  );
  console.log("");
}

await main();
