/** `npm start`'s entry point, run as a process: it serves the mock API and honours API_KEYS. */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectProblem, venue } from "./helpers.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const output: string[] = [];
let child: ChildProcess;
let base = "";

/** Resolves with the URL the server prints once it listens. */
function listening(process: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line in:\n${output.join("")}`)), 30_000);
    process.stdout?.on("data", (chunk: Buffer) => {
      output.push(chunk.toString("utf8"));
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output.join(""));
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    process.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString("utf8")));
    process.once("exit", (code) => reject(new Error(`exited with ${code}:\n${output.join("")}`)));
  });
}

beforeAll(async () => {
  child = spawn(process.execPath, ["--import", "tsx", "generated/server/main.ts"], {
    cwd: root,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", API_KEYS: "first-key, second-key", NODE_ENV: "development" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  base = `${await listening(child)}/api/1_12`;
});

afterAll(() => {
  if (child.exitCode === null) child.kill("SIGKILL");
});

describe("the mock server process", () => {
  it("serves the mock answers to a listed key", async () => {
    const response = await fetch(`${base}/venues`, { method: "POST", headers: { "x-api-key": "second-key", "content-type": "application/json" }, body: JSON.stringify(venue()) });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ venue_id: 318 });
    expect((await fetch(`${base}/events`, { headers: { "x-api-key": "first-key" } })).status).toBe(200);
  });

  it("refuses a key that API_KEYS does not list", async () => {
    await expectProblem(await fetch(`${base}/events`, { headers: { "x-api-key": "someone-else" } }), 401, "urn:problem-type:invalid-api-key");
  });

  it("logs one line per request, without the key", async () => {
    await fetch(`${base}/wage-rules`, { headers: { "x-api-key": "first-key" } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const log = output.join("");
    expect(log).toMatch(/GET \/api\/1_12\/wage-rules 200 [\d.]+ ms/);
    expect(log).not.toContain("first-key");
    expect(log).not.toContain("second-key");
  });

  it("stops gracefully on SIGTERM", async () => {
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
