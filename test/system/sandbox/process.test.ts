/**
 * `npm start`'s sandbox as a process on a new data directory: the README's curl flow runs as the
 * README shows it (each command's answer compared with the line under it; `created` is today's date
 * where the README shows the day it was written), `/docs` lists the demo keys, the keys of API_KEYS
 * call as the seed's first, a request's `Prefer` is answered from the spec's examples and stores
 * nothing, its data survives a graceful restart, SIGTERM
 * closes it and lets the directory go, a second process on the directory is refused with a clear
 * message, a bad seed file stops it with the file's line, and `sandbox:reset` starts over: on its
 * own, or, with the sandbox running, by asking it through the directory's lock.
 */
import { existsSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockDirectory } from "../../../sandbox/store/engine/directory-lock.js";
import { runCurlFlow, shellBlock } from "../../support/curl-flow.js";
import { makeTempDir } from "../../support/paths.js";
import { freePort } from "../../support/postgres.js";
import { call } from "../../support/sandbox-calls.js";
import {
  runSandboxScript,
  type SandboxProcess,
  startSandboxCommand,
  startSandboxProcess,
} from "../../support/sandbox-process.js";

/** A key API_KEYS adds, the one docs/server.md's storm uses. */
const STORM_KEY = "storm-key-7f3a";

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

  it("starts as npm start does, saying each step, where it listens, its data and the demo keys", async () => {
    const port = await freePort();
    first = await startSandboxCommand({ DATA_DIR: dataDir, API_KEYS: ` ${STORM_KEY},`, PORT: "1" }, [
      "--port",
      `${port}`,
    ]);
    expect(first.url).toBe(`http://127.0.0.1:${port}/api/1_12`);
    // the steps of a first start on a new directory, each said as it begins, before the banner
    expect(first.output()).toMatch(
      new RegExp(
        [
          `making the data directory ${dataDir}: a new database, its schema and the seed`,
          "migrating the schema sandbox",
          "loading the demo seed \\(2 companies\\)",
          "Sandbox listening at ",
        ].join("\n(?:.*\n)*?"),
      ),
    );
    expect(first.output()).toContain(`Data: PGlite in ${dataDir}, schema sandbox`);
    expect(first.output()).toMatch(
      /X-API-KEY: demo-key-harbor {3}\(Harbor Events, company 5; caller Dana Ortiz, person 7\)/,
    );
    expect(existsSync(`${dataDir}.lock`)).toBe(true);
    // the reference and the spec, with no key
    const origin = new URL(first.url).origin;
    const docs = await fetch(`${origin}/docs/`);
    expect([docs.status, docs.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
    const { info } = (await (await fetch(`${origin}/openapi.json`)).json()) as {
      info: { title: string; description: string };
    };
    expect(info.title).toBe("Workforce Scheduling Service API");
    expect(info.description).toContain(
      "Authorize with one of its keys:\n\n- `demo-key-harbor`: Harbor Events (company 5), calling as Dana Ortiz (person 7)\n- `demo-key-summit`: Summit Staffing (company 6), calling as Alex Kim (person 3)",
    );
    expect(first.output()).toContain("API_KEYS: 1 more key accepted, each calling as demo-key-harbor");
  }, 120_000); // npm start bundles its entry first when a source changed since its last run

  it("runs the README's curl flow as the README shows it, answer by answer", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const commands = await runCurlFlow(shellBlock("README.md", "curl "), new URL(first?.url ?? "").origin, (shown) =>
      shown.replaceAll('"created":"2026-11-25"', `"created":"${today}"`),
    );
    expect(commands).toBe(5);
  });

  it("takes the keys of API_KEYS as the seed's first key, and no key like them", async () => {
    const url = first?.url ?? "";
    const harbor = await call(url, "listEvents");
    // status and body: the headers differ in their Date when a second passes between the calls
    const storm = await call(url, "listEvents", { key: STORM_KEY });
    expect({ status: storm.status, body: storm.body }).toEqual({ status: harbor.status, body: harbor.body });
    expect((await call(url, "listEvents", { key: `${STORM_KEY}x` })).status).toBe(401);
    expect((await call(url, "listEvents", { key: STORM_KEY.slice(0, -1) })).status).toBe(401);
  });

  it("answers what a request prefers from the spec's examples, and stores nothing", async () => {
    const url = first?.url ?? "";
    const before = await call(url, "listEvents");
    const event = { name: "Preferred", date: "2027-05-01", venue: { venue_id: "318" } };
    expect(await call(url, "createEvent", { json: event, headers: { prefer: "code=201" } })).toMatchObject({
      status: 201,
      body: 9001,
    });
    expect(
      (await call(url, "updateEvent", { path: { id: 1 }, json: event, headers: { prefer: "example=notFound" } })).body,
    ).toEqual({
      type: "urn:problem-type:not-found",
      title: "Not Found",
      status: 404,
      detail: "No resource matches this path.",
    });
    const refused = await call(url, "createEvent", { json: event, headers: { prefer: "code=404" } });
    expect(refused.body).toMatchObject({ type: "urn:problem-type:unsatisfiable-preference", status: 400 });
    // the list as before (its body: the answer's Date header may have moved on a second)
    expect((await call(url, "listEvents")).body).toEqual(before.body);
    // the docs' session runs against the sandbox too
    expect(await runCurlFlow(shellBlock("docs/server.md", "Prefer:"), new URL(url).origin)).toBe(4);
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
    // the log's lines, written a turn of the event loop at a time, are all out when it has exited
    expect(running.output()).toMatch(/"msg":"POST \/api\/1_12\/events 201 [\d.]+ ms"}\n/);
    expect(running.output()).toMatch(/"msg":"SIGTERM received: closing"}\n/);
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
