/**
 * `npm start`'s sandbox as a process on a new data directory: the README's curl flow runs as the
 * README shows it (each command's answer compared with the line under it; `created` is today's date
 * where the README shows the day it was written), its data survives a graceful restart, SIGTERM
 * closes it and lets the directory go, a second process on the directory is refused with a clear
 * message, a bad seed file stops it with the file's line, and `sandbox:reset` starts over: on its
 * own, or, with the sandbox running, by asking it through the directory's lock.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockDirectory } from "../../sandbox/store/directory-lock.js";
import { makeTempDir, repoRoot } from "../support/paths.js";
import { runSandboxScript, type SandboxProcess, startSandboxProcess } from "./process.js";
import { call } from "./support.js";

const exec = promisify(execFile);

/** The README's first shell block holding curl commands, as lines. */
function readmeFlow(): string[] {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
  const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((match) => match[1] ?? "")
    .find((text) => text.includes("curl "));
  if (block === undefined) throw new Error("the README shows no curl flow");
  return block.trimEnd().split("\n");
}

let dir: string;
let dataDir: string;

beforeAll(async () => {
  dir = await makeTempDir("sandbox-process");
  dataDir = join(dir, "data");
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("the sandbox process on a data directory", () => {
  let first: SandboxProcess | undefined;
  afterAll(async () => {
    await first?.stop("SIGKILL");
  });

  it("prints where it listens, its data and the demo keys", async () => {
    first = await startSandboxProcess({ DATA_DIR: dataDir });
    expect(first.output()).toContain(`Data: PGlite in ${dataDir}, schema sandbox`);
    expect(first.output()).toMatch(
      /X-API-KEY: demo-key-harbor {3}\(Harbor Events, company 5; caller Dana Ortiz, person 7\)/,
    );
    expect(existsSync(`${dataDir}.lock`)).toBe(true);
    // the reference and the spec, with no key
    const origin = new URL(first.url).origin;
    const docs = await fetch(`${origin}/docs/`);
    expect([docs.status, docs.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
    expect(((await (await fetch(`${origin}/openapi.json`)).json()) as { info: { title: string } }).info.title).toBe(
      "Workforce Scheduling Service API",
    );
  });

  it("runs the README's curl flow as the README shows it, answer by answer", async () => {
    const lines = readmeFlow();
    const origin = new URL(first?.url ?? "").origin;
    const setup = lines
      .filter((line) => /^\w+=/.test(line))
      .map((line) => line.replaceAll("http://127.0.0.1:3000", origin));
    const today = new Date().toISOString().slice(0, 10);
    let commands = 0;
    for (const [index, line] of lines.entries()) {
      if (!line.startsWith("curl ")) continue;
      const shown = lines[index + 1] ?? "";
      expect(shown, `the README shows the answer of: ${line}`).toMatch(/^# /);
      const { stdout } = await exec("bash", ["-c", [...setup, line].join("\n")]);
      expect(JSON.parse(stdout), line).toEqual(
        JSON.parse(shown.slice(2).replaceAll('"created":"2026-11-25"', `"created":"${today}"`)),
      );
      commands++;
    }
    expect(commands).toBe(5);
  });

  it("refuses a second opener of the same directory, naming the process that holds it", async () => {
    await expect(lockDirectory(dataDir)).rejects.toThrow(
      `the data directory ${dataDir} is in use by process ${first?.child.pid} on `,
    );
    expect((await call(first?.url ?? "", "listEvents")).status).toBe(200);
  });

  it("keeps its data over a graceful restart, and lets the directory go on SIGTERM", async () => {
    const running = first as SandboxProcess;
    expect(
      (await call(running.url, "createVenue", { json: { name: "Kept", address: "1 Road", city: "Town", zip: "T1" } }))
        .body,
    ).toMatchObject({ venue_id: 320 }); // Harbor's next, after the README flow's 319
    expect(
      (
        await call(running.url, "createEvent", {
          json: { name: "Kept", date: "2024-04-20", venue: { venue_id: "320" } },
        })
      ).body,
    ).toBe(2);
    expect(await running.stop("SIGTERM")).toBe(0);
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
    first = await startSandboxProcess({ DATA_DIR: dataDir });
    const list = (await call(first.url, "listEvents")).body as {
      data: { name: string; date: string; location: { name: string } }[];
    };
    // the README flow's event, as its edit left it, and this one
    expect(list.data.map((event) => [event.name, event.date, event.location.name])).toEqual([
      ["Spring gala", "2027-04-27", "Riverside Hall"],
      ["Kept", "2024-04-20", "Kept"],
    ]);
    expect(await first.stop("SIGINT")).toBe(0);
  });

  it("empties the directory's data and loads the seed again with sandbox:reset", async () => {
    const reset = await runSandboxScript("reset", { DATA_DIR: dataDir });
    expect([reset.code, reset.output.trim()]).toEqual([
      0,
      `reset PGlite in ${dataDir}, schema sandbox: loaded the demo seed (2 companies)`,
    ]);
    first = await startSandboxProcess({ DATA_DIR: dataDir });
    expect((await call(first.url, "listEvents")).body).toEqual({ data: [], total_count: 0 });
  });

  it("has the running sandbox reset itself to sandbox:reset's seed, asked through the lock", async () => {
    const running = first as SandboxProcess;
    expect((await call(running.url, "listEvents", { key: "reset-key" })).status).toBe(401);
    const seed = join(dir, "reset-seed.yaml");
    await writeFile(
      seed,
      [
        "companies:",
        "  - company_id: 9",
        "    name: Reset Co",
        "    api_keys: [{ key: reset-key, personnel_id: 1 }]",
        "    personnel: [{ personnel_id: 1, name: Ann Reset }]",
        "    wage_rules: [{ id: night, name: Night rate }]",
        "",
      ].join("\n"),
    );
    const reset = await runSandboxScript("reset", { DATA_DIR: dataDir, SANDBOX_SEED: seed });
    expect([reset.code, reset.output.trim()]).toEqual([
      0,
      `reset PGlite in ${dataDir}, schema sandbox, in the sandbox running as process ${running.child.pid}: loaded the seed (1 company)`,
    ]);
    // the same process serves the new seed: its key and records, and the old keys are gone
    expect((await call(running.url, "listWageRules", { key: "reset-key" })).body).toMatchObject({
      data: [{ id: "night", name: "Night rate" }],
    });
    expect((await call(running.url, "listEvents", { key: "reset-key" })).body).toEqual({ data: [], total_count: 0 });
    expect((await call(running.url, "listEvents")).status).toBe(401);
    expect(running.child.exitCode).toBeNull();
  });
});

describe("the sandbox process with a bad seed", () => {
  it("stops at once, saying where the seed is wrong", async () => {
    const seed = join(dir, "seed.yaml");
    await writeFile(seed, "companies:\n  - company_id: -1\n");
    const run = await runSandboxScript("main", { DATABASE_URL: "memory", SANDBOX_SEED: seed, PORT: "0" });
    expect(run.code).toBe(1);
    expect(run.output).toContain(
      `npm start: ${seed} is not a usable seed:\n  ${seed}:2:17 companies/0/company_id must be >= 0\n  ${seed}:2:5 companies/0 must have required property 'name'`,
    );
    expect(run.output).not.toMatch(/^\s+at /m);
  });
});
