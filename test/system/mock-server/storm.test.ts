/**
 * A bounded storm of hostile requests against the mock server in its own process, built with
 * fast-check from the route table (fixed seed, loopback only): random bytes, broken JSON, wrong
 * types, 10,000-level nesting, bodies around 1 MiB, Content-Length mismatches, chunked bodies,
 * broken and repeated Content-Types, bad and huge keys, bad percent-escapes, long and odd IDs,
 * 10,000 query parameters, broken multipart, thousands of headers, senders cut off mid-body.
 *
 * It asserts: no 5xx; every error is problem+json with `status` equal to the HTTP status; no
 * invalid request answered 2xx; every success reached its handler with the ID and body as sent
 * (nothing cut short or rounded); the server alive, and a valid request still quick afterwards.
 *
 * STORM_PORT=<port> runs it against a server already listening on 127.0.0.1 instead (such as
 * `API_KEYS=storm-key-7f3a npm start`), without the handler-side checks.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundled } from "../../support/bundle.js";
import { repoRoot } from "../../support/paths.js";
import { PLAN, stormCases } from "./storm/plan.js";
import { runStorm, type StormResult } from "./storm/run.js";
import { STORM_KEY } from "./storm/wire.js";

const external = process.env.STORM_PORT;
let child: ChildProcess | undefined;
let port = 0;
let results: StormResult[] = [];

async function start(): Promise<number> {
  const [script = ""] = await bundled(["test/system/mock-server/storm/storm-server.ts"]);
  const server = spawn(process.execPath, [script], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = server;
  return new Promise((resolve, reject) => {
    let output = "";
    server.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const line = /\{"port":(\d+)\}/.exec(output);
      if (line?.[1] !== undefined) resolve(Number(line[1]));
    });
    server.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    server.once("exit", (code) => reject(new Error(`the storm server exited with ${code}:\n${output}`)));
  });
}

beforeAll(async () => {
  port = external === undefined ? await start() : Number(external);
  const cases = stormCases();
  results = await runStorm(port, cases, { handlersTell: external === undefined });
  const byCategory = new Map<string, number>();
  for (const { case: c } of results) byCategory.set(c.category, (byCategory.get(c.category) ?? 0) + 1);
  const statuses = new Map<number, number>();
  for (const result of results)
    for (const status of result.statuses) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  process.stdout.write(
    `storm: ${results.length} cases; ${[...byCategory].map(([k, n]) => `${k} ${n}`).join(", ")}\nstorm answers: ${[
      ...statuses,
    ]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(", ")}\n`,
  );
}, 120_000);

afterAll(() => {
  if (child?.exitCode === null) child.kill("SIGKILL");
});

describe("a storm of hostile requests", () => {
  it("sends every kind of abuse", () => {
    expect(new Set(results.map((result) => result.case.category)).size).toBe(PLAN.length);
    expect(results.length).toBe(PLAN.reduce((sum, [, count]) => sum + count, 0));
  });

  it("breaks no rule of the contract", () => {
    const broken = results
      .filter((result) => result.violations.length > 0)
      .map(
        (result) =>
          `${result.case.category} / ${result.case.label}: ${result.violations.join("; ")} [answers ${result.statuses.join(", ")}]`,
      );
    expect(broken.slice(0, 20)).toEqual([]);
  });

  it("answers the requests that were valid, with what was sent reaching the handler", () => {
    const successes = results.filter((result) => result.statuses[0] !== undefined && result.statuses[0] < 300);
    expect(successes.length).toBeGreaterThan(200);
    expect(successes.filter((result) => result.case.received?.body !== undefined).length).toBeGreaterThan(200);
  });

  it("leaves the server alive, and a valid request quick", async () => {
    expect(child?.exitCode ?? null).toBeNull();
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}/api/1_12/events`, { headers: { "x-api-key": STORM_KEY } });
    expect(response.status).toBe(200);
    // a generous bound: it tells a server still busy with (or stuck on) the storm from a healthy one
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
