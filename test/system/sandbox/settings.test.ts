/**
 * The settings as a new user meets them: each value `npm start` cannot use is refused with one
 * line saying what it accepts, before anything is opened; a port in use is reported before any
 * database work, with how to choose another; a PostgreSQL that refuses the connection is named
 * with its host and port; a seed file not loaded because the database holds data is said so.
 * `settingsFrom` and `parseLocation` are checked directly; the user-facing lines through the
 * bundled `npm start` process (a few starts, none of them opening PGlite but the last).
 */
import { existsSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "../../../sandbox/index.js";
import { settingsFrom } from "../../../sandbox/settings.js";
import { connectFailure, parseLocation } from "../../../sandbox/store/engine/engine.js";
import { makeTempDir, repoRoot } from "../../support/paths.js";
import { runSandboxScript, startSandboxProcess } from "../../support/sandbox-process.js";

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir("sandbox-settings");
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const FORMS = "set it to a postgres:// or postgresql:// URL (postgres://user:password@host:5432/database) or to memory";

describe("DATABASE_URL", () => {
  it.each([
    ["memory", "memory"],
    ["memory://", "memory://"],
    ["postgres://app@db:5432/app", "postgres://app@db:5432/app"],
    ["POSTGRESQL://app@db/app", "POSTGRESQL://app@db/app"],
    ["", ".data/sandbox"],
  ])("takes %j (database %j)", (url, database) => {
    expect(settingsFrom({ DATABASE_URL: url }).database).toBe(database);
  });

  it.each([
    ["mysql://root:secret@127.0.0.1:3306/app", "mysql:"],
    ["postgress://app:secret@db/app", "postgress:"],
    ["postgres:/db/app", "postgres:"],
    ["sqlite:data.db", "sqlite:"],
  ])("refuses %j with the forms it takes, quoting the scheme only", (url, scheme) => {
    expect(() => settingsFrom({ DATABASE_URL: url })).toThrow(
      `DATABASE_URL starts with "${scheme}", which is not a database the sandbox runs on: ${FORMS}, or unset it to keep the data in DATA_DIR (default .data/sandbox)`,
    );
  });

  it("refuses a directory, which DATA_DIR names", () => {
    expect(() => settingsFrom({ DATABASE_URL: "/var/lib/sandbox" })).toThrow(
      `DATABASE_URL is "/var/lib/sandbox", which is not a URL: ${FORMS}; for a data directory, unset DATABASE_URL and set DATA_DIR=/var/lib/sandbox`,
    );
    expect(settingsFrom({ DATA_DIR: "/var/lib/sandbox" }).database).toBe("/var/lib/sandbox");
  });
});

describe("API_KEYS", () => {
  it.each([
    [undefined, undefined],
    ["", undefined],
    [" , ", undefined],
    ["storm-key-7f3a", ["storm-key-7f3a"]],
    [" a, b ,,c ", ["a", "b", "c"]],
  ])("takes %j as the keys %j", (raw, keys) => {
    expect(settingsFrom(raw === undefined ? {} : { API_KEYS: raw }).apiKeys).toEqual(keys);
  });
});

describe("the command line", () => {
  it("takes --port and --host over PORT and HOST", () => {
    expect(settingsFrom({ PORT: "3000", HOST: "0.0.0.0" }, ["--port", "4101"])).toMatchObject({
      host: "0.0.0.0",
      port: 4101,
    });
    expect(settingsFrom({}, ["--host=127.0.0.2"])).toMatchObject({ host: "127.0.0.2", port: 3000 });
  });

  it("refuses an option it does not take, with those it takes", () => {
    expect(() => settingsFrom({}, ["--prot", "4101"])).toThrow(
      "unknown option --prot: npm start takes --port N and --host ADDRESS (npm start -- --help says what each does)",
    );
  });
});

describe("SANDBOX_TIMEOUT", () => {
  it.each([
    [undefined, undefined],
    ["", undefined],
    ["3", 3000],
    [" 0.5 ", 500],
    ["600", 600_000],
  ])("takes %j as a bound of %j ms", (raw, timeout) => {
    expect(settingsFrom(raw === undefined ? {} : { SANDBOX_TIMEOUT: raw }).timeout).toEqual(timeout);
  });

  it.each(["0", "-1", "3s", "1e3", "601", "soon"])("refuses %j, saying what it takes", (raw) => {
    expect(() => settingsFrom({ SANDBOX_TIMEOUT: raw })).toThrow(
      `SANDBOX_TIMEOUT must be the seconds a request may wait for the database, above 0 and at most 600 (for example 3 or 0.5), not ${JSON.stringify(raw)}`,
    );
  });

  it("is refused by createSandbox when it is no positive number of milliseconds, before anything is opened", async () => {
    await expect(createSandbox({ database: "memory", timeout: 0 })).rejects.toThrow(
      "the timeout 0 is not one the sandbox takes: give milliseconds above 0 and at most 600000 (10 minutes)",
    );
  });
});

describe("the database option of createSandbox", () => {
  it("refuses a URL of another scheme rather than make a directory named after it", async () => {
    for (const [setting, scheme] of [
      ["mysql://root:secret@db/app", "mysql:"],
      ["sqlite:x", "sqlite:"],
    ] as const) {
      expect(() => parseLocation(setting)).toThrow(
        `the database "${scheme}..." is not one the sandbox opens: give memory, a postgres:// or postgresql:// URL, or a data directory (one whose name starts with "${scheme}" is written "./${scheme}...")`,
      );
    }
    await expect(createSandbox({ database: "mysql://root:secret@db/app" })).rejects.toThrow(/^the database "mysql:/);
  });

  it("takes any other text as a directory, a drive letter and ./name:x included", () => {
    for (const path of ["./mysql:x", "C:\\data", "data", "/tmp/a:b"])
      expect(parseLocation(path)).toEqual({ kind: "directory", path });
  });
});

describe("why PostgreSQL could not be connected to", () => {
  const url = new URL("postgres://app:secret@db.example:6543/shop");

  it.each([
    [
      { code: "28P01", message: 'password authentication failed for user "app"' },
      'PostgreSQL at db.example port 6543 refused the password of user "app" (28P01): check the user and password in DATABASE_URL',
    ],
    [
      { code: "3D000", message: 'database "shop" does not exist' },
      'PostgreSQL at db.example port 6543 has no database "shop" (3D000): create it (createdb shop) or name another in DATABASE_URL',
    ],
    [
      { code: "ENOTFOUND", message: "getaddrinfo ENOTFOUND db.example" },
      'PostgreSQL at db.example port 6543: the host name "db.example" is not known (ENOTFOUND); check DATABASE_URL',
    ],
  ])("%j in one line, without the password", (fields, line) => {
    const failure = connectFailure(url, Object.assign(new Error(fields.message), { code: fields.code }));
    expect(failure).toBe(line);
    expect(failure).not.toContain("secret");
  });
});

describe("npm start, refusing in one line", () => {
  let holder: Server | undefined;
  afterAll(() => new Promise<void>((resolve) => (holder === undefined ? resolve() : holder.close(() => resolve()))));

  it("a DATABASE_URL of another database, making no folder of it", async () => {
    const run = await runSandboxScript("main", { DATABASE_URL: "mysql://root:secret@127.0.0.1:3306/app" });
    expect([run.code, run.output.trim()]).toEqual([
      1,
      `npm start: DATABASE_URL starts with "mysql:", which is not a database the sandbox runs on: ${FORMS}, or unset it to keep the data in DATA_DIR (default .data/sandbox)`,
    ]);
    expect(existsSync(join(repoRoot, "mysql:"))).toBe(false);
  });

  it("a port in use, before any database work, with how to choose another", async () => {
    holder = createServer();
    const port = await listening(holder);
    const dataDir = join(dir, "never-made");
    const run = await runSandboxScript("main", { DATABASE_URL: "", DATA_DIR: dataDir, PORT: String(port) });
    expect([run.code, run.output.trim()]).toEqual([
      1,
      `npm start: port ${port} on 127.0.0.1 is in use: stop what uses it, or choose another with npm start -- --port ${port + 1} (or PORT=${port + 1}; 0 picks a free one)`,
    ]);
    // refused before the database was opened: the data directory was never made
    expect(existsSync(dataDir)).toBe(false);
  });

  it("a PostgreSQL that refuses the connection, naming its host and port", async () => {
    const closed = await freePort();
    const run = await runSandboxScript("main", {
      DATABASE_URL: `postgres://app:secret@127.0.0.1:${closed}/app`,
      PORT: "0",
    });
    expect([run.code, run.output.trim()]).toEqual([
      1,
      `npm start: PostgreSQL at 127.0.0.1 port ${closed} refused the connection (ECONNREFUSED): is it running, and listening on that port? Check DATABASE_URL`,
    ]);
  });
});

describe("npm start on a database that holds data", () => {
  it("says a SANDBOX_SEED was not loaded, and how to load it", async () => {
    const dataDir = join(dir, "data");
    const seed = join(dir, "seed.yaml");
    await writeFile(
      seed,
      "companies:\n  - company_id: 1\n    name: Other\n    personnel: [{ personnel_id: 1, name: A }]\n    api_keys: [{ key: key-one, personnel_id: 1 }]\n",
    );
    const first = await createSandbox({ database: dataDir });
    expect(first.seeded).toBe(true);
    await first.close();
    // the data of the seed given (the demo seed, loaded by the start before) is that seed's
    const again = await createSandbox({ database: dataDir });
    expect(again.seeded).toBe(true);
    await again.close();
    const started = await startSandboxProcess({ DATABASE_URL: "", DATA_DIR: dataDir, SANDBOX_SEED: seed });
    try {
      expect(started.output()).toContain(
        `SANDBOX_SEED ${seed} was not loaded: the database holds other data, kept as it is; to replace it with the seed, run npm run sandbox:reset with the same settings\n`,
      );
      const demo = await fetch(`${started.url}/wage-rules`, { headers: { "x-api-key": "demo-key-harbor" } });
      expect(demo.status).toBe(200);
    } finally {
      await started.stop("SIGTERM");
    }
  });
});

/** Listens on a free port of 127.0.0.1 and answers it. */
function listening(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
  );
}

/** A port of 127.0.0.1 nothing listens on (taken and let go). */
async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listening(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}
