/**
 * Where a server's CPU goes per request, from the V8 CPU profiles `npm run bench:sandbox:load --
 * --cpu-prof DIR` writes: `npx tsx bench/support/cpu-profile.ts DIR [operation] [size]`.
 *
 * Only the samples taken while a measurement ran count (`DIR/windows.json` says when, in the
 * profiles' clock); idle samples are left out. Each part's share of the remaining samples is
 * turned into CPU per request with the CPU the server's main thread used over the window, from
 * /proc (the profile samples that thread alone; the process's other threads, V8's compiler and the
 * collector's helpers, are given apart): a sample taken while another process held the core counts
 * as its function's, so under load the profile's own times overstate, and only its shares are
 * taken from it. That holds for a function waiting off the CPU too: a send (`writev`) on loopback
 * wakes the receiver, which may take the core from the sender inside the call, and the samples of
 * that wait are the send's. The kernel's time of the whole process (system time, from /proc) is
 * printed beside it: the sends cost at most that.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { printTable } from "./stats.js";

/** A measurement as the benchmark wrote it. */
interface Window {
  readonly pid: number;
  readonly target: string;
  readonly operation: string;
  readonly size: number;
  readonly start: number;
  readonly end: number;
  readonly requests: number;
  readonly cpu: number;
  /** of `cpu`, the main thread's and the kernel's (absent from the windows of older runs) */
  readonly main?: number;
  readonly system?: number;
}

/** The parts of a V8 CPU profile read here. */
interface Profile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  }[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Samples by function and by part, and the requests and CPU of the windows they came from. */
interface Tally {
  readonly functions: Map<string, number>;
  readonly parts: Map<string, number>;
  samples: number;
  requests: number;
  cpu: number;
  main: number;
  system: number;
}

/** Which part of the stack a function is, by where its code comes from. */
const PARTS: readonly [RegExp, string][] = [
  [/^\(garbage collector\)$/, "V8's collector"],
  [/^\(program\)$/, "V8 and native code (program)"],
  [/node_modules\/(pg|pg-protocol|pg-pool|pg-types|pgpass|postgres-\w+)\//, "pg and its protocol"],
  [/node_modules\/kysely\//, "Kysely"],
  [/node_modules\/(pino|pino-std-serializers|sonic-boom|thread-stream)\//, "pino (the log)"],
  [/node_modules\/(fastify|find-my-way|avvio|light-my-request|@fastify\/[\w-]+|fast-json-stringify)\//, "Fastify"],
  [/node_modules\/(ajv|fast-uri)\//, "Ajv"],
  [/^(?!.*\/node_modules\/)(.*\/dist)?\/sandbox\/service\//, "sandbox: service"],
  [/^(?!.*\/node_modules\/)(.*\/dist)?\/sandbox\/store\//, "sandbox: store"],
  [/^(?!.*\/node_modules\/)(.*\/dist)?\/sandbox\//, "sandbox: other"],
  [/^(?!.*\/node_modules\/)(.*\/dist|\/generated)\/validators\//, "generated validators"],
  [/^(?!.*\/node_modules\/)(.*\/dist|\/generated)\/server\//, "generated server runtime"],
  [/^(?!.*\/node_modules\/)(.*\/dist|\/generated)\//, "generated: other"],
  [/\/bench\/support\//, "baseline's own code"],
  [/^node:(_http|internal\/http)|^node:http/, "Node: HTTP"],
  [/^node:(net|internal\/(stream|streams|net)|stream)/, "Node: net and streams"],
  [/^node:internal\/crypto|^node:crypto/, "Node: crypto"],
  [/^node:/, "Node: other"],
  [/node_modules\//, "other packages"],
  [/^$/, "built-ins (no script)"],
];

/**
 * Where each line of a bundle `npm start` runs (scripts/run-bundled.mjs) comes from: esbuild
 * starts each module's code with a comment naming its file (`// sandbox/service/events.ts`). By
 * bundle path, the first line of each module and its file, in order.
 */
const bundleModules = new Map<string, { readonly line: number; readonly file: string }[]>();

/** The repository file a bundle's line (0-based) comes from, or undefined for a file that is no such bundle. */
function bundledFile(url: string, line: number): string | undefined {
  if (!/\/\.cache\/workforce-scheduling-api-run\/[^/]+\.mjs$/.test(url)) return undefined;
  let modules = bundleModules.get(url);
  if (modules === undefined) {
    modules = [];
    let text = "";
    try {
      text = readFileSync(new URL(url), "utf8");
    } catch {
      // the bundle was made again since: its lines are not told apart
    }
    text.split("\n").forEach((content, index) => {
      const named = /^\/\/ ((?:sandbox|generated|runtime|src)\/\S+\.ts)$/.exec(content);
      if (named?.[1] !== undefined) modules?.push({ line: index, file: named[1] });
    });
    bundleModules.set(url, modules);
  }
  let found: string | undefined;
  for (const module of modules) {
    if (module.line > line) break;
    found = module.file;
  }
  return found;
}

function partOf(functionName: string, url: string): string {
  const subject = url === "" && functionName.startsWith("(") ? functionName : url;
  for (const [pattern, part] of PARTS) if (pattern.test(subject)) return part;
  return "other";
}

/** Adds the samples of `profile` within `window` to `tally`. */
function tallyWindow(profile: Profile, window: Window, tally: Tally): void {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    if (time < window.start || time > window.end) continue;
    const frame = nodes.get(profile.samples[i] ?? -1);
    if (frame === undefined || frame.functionName === "(idle)") continue;
    const bundled = bundledFile(frame.url, frame.lineNumber);
    const where = bundled ?? frame.url.replace(/^file:\/\/\/work\/[^/]+\//, "").replace(/^.*\/node_modules\//, "");
    const part = partOf(frame.functionName, bundled === undefined ? frame.url : `/${bundled}`);
    const line = bundled === undefined ? `:${frame.lineNumber + 1}` : ` (bundle line ${frame.lineNumber + 1})`;
    const name = `${frame.functionName || "(anonymous)"} ${where}${line} [${part}]`;
    tally.functions.set(name, (tally.functions.get(name) ?? 0) + 1);
    tally.parts.set(part, (tally.parts.get(part) ?? 0) + 1);
    tally.samples += 1;
  }
  tally.requests += window.requests;
  tally.cpu += window.cpu;
  tally.main += window.main ?? window.cpu;
  tally.system += window.system ?? Number.NaN;
}

function emptyTally(): Tally {
  return { functions: new Map(), parts: new Map(), samples: 0, requests: 0, cpu: 0, main: 0, system: 0 };
}

/** The tallies of every target measured for `operation` at `size`, over every profile of `dir`. */
function tallies(dir: string, operation: string, size: number): Map<string, Tally> {
  const windows = JSON.parse(readFileSync(join(dir, "windows.json"), "utf8")) as Window[];
  const byTarget = new Map<string, Tally>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".cpuprofile"))) {
    const pid = Number(file.split(".")[3]);
    const chosen = windows.filter((w) => w.pid === pid && w.operation === operation && w.size === size);
    if (chosen.length === 0) continue;
    const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as Profile;
    for (const window of chosen) {
      const tally = byTarget.get(window.target) ?? emptyTally();
      byTarget.set(window.target, tally);
      tallyWindow(profile, window, tally);
    }
  }
  return byTarget;
}

/** µs of CPU per request of `samples` of the tally: their share of the main thread's CPU. */
function perRequest(tally: Tally, samples: number): number {
  return ((samples / tally.samples) * tally.main * 1e6) / tally.requests;
}

function printTally(target: string, tally: Tally, top: number): void {
  const micros = (seconds: number): string => ((seconds * 1e6) / tally.requests).toFixed(0);
  console.log(
    `\n${target}: ${micros(tally.cpu)} µs of CPU per request (${tally.requests} requests, /proc): ${micros(tally.main)} on the main thread (the profile's, split below), ${micros(tally.cpu - tally.main)} on the other threads (V8's compiler and the collector's helpers); the kernel's time of all threads ${Number.isNaN(tally.system) ? "not recorded" : micros(tally.system)}\n`,
  );
  const byCount = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  printTable(
    ["part", "µs per request", "share"],
    byCount(tally.parts).map(([part, samples]) => [
      part,
      perRequest(tally, samples).toFixed(1),
      `${((samples / tally.samples) * 100).toFixed(1)}%`,
    ]),
  );
  console.log("");
  printTable(
    ["function (self time)", "µs per request"],
    byCount(tally.functions)
      .filter(([name]) => only.test(name))
      .slice(0, top)
      .map(([name, samples]) => [name, perRequest(tally, samples).toFixed(1)]),
  );
}

const [dir = ".", operation = "POST /events", size = "10000", top = "30", part = ""] = process.argv.slice(2);
/** The functions listed: those of the parts matching the last argument, or all. */
const only = new RegExp(part);
for (const [target, tally] of [...tallies(dir, operation, Number(size))].sort()) printTally(target, tally, Number(top));
