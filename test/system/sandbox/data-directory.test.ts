/**
 * The sandbox's data directory on disk, as `npm start` and `npm run sandbox:reset` leave it: private
 * (another local user, `nobody`, can read or write nothing in it, even when the sandbox ran with
 * umask 000), earlier directories with open modes tightened when opened, and a directory that cannot
 * be opened refused, left as it was, and recovered by `sandbox:reset` (which moves it aside and
 * makes it private). A folder that is not a database is refused by both and left alone.
 *
 * The other-user checks run as root (as this suite runs in CI), through `runuser`; elsewhere they
 * say why they do not run and the rest still does.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, cp, lstat, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "../../../sandbox/index.js";
import { makeParent, tighten } from "../../../sandbox/store/engine/data-directory.js";
import { makeTempDir } from "../../support/paths.js";
import { call, SUMMIT } from "../../support/sandbox-calls.js";
import { runSandboxScript, type SandboxProcess, startSandboxProcess } from "../../support/sandbox-process.js";

let root: string;
/** a whole data directory, made by the first test with umask 000 and closed */
let made: string;

beforeAll(async () => {
  root = await makeTempDir("sandbox-data-directory");
  // other users may reach the data directories' folder, so that only the directories' own modes keep them out
  await chmod(root, 0o755);
  made = join(root, "made");
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** Whether this process may run commands as `nobody`. */
const asOtherUser =
  process.getuid?.() === 0 && spawnSync("runuser", ["-u", "nobody", "--", "true"]).status === 0
    ? undefined
    : "not root, or no runuser: the checks as another user do not run";
if (asOtherUser !== undefined) process.stdout.write(`data-directory.test.ts: ${asOtherUser}\n`);

/** Every entry under `dir` (itself included) by kind and mode: { "d700": 27, "f600": 1041 }. */
async function modes(dir: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const path of await walk(dir)) {
    const found = await lstat(path);
    const key = `${found.isDirectory() ? "d" : "f"}${(found.mode & 0o777).toString(8)}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

async function walk(dir: string): Promise<string[]> {
  const paths = [dir];
  for (const entry of await readdir(dir, { withFileTypes: true }))
    paths.push(...(entry.isDirectory() ? await walk(join(dir, entry.name)) : [join(dir, entry.name)]));
  return paths;
}

/** What `nobody` could do with each path: the paths it could list, read or open for writing. */
function triedByNobody(paths: readonly string[]): { tried: number; allowed: string[] } {
  const script = `
    const fs = require("node:fs");
    const allowed = [];
    const paths = fs.readFileSync(0, "utf8").split("\\n").filter(Boolean);
    for (const path of paths) {
      for (const [what, flags] of [["read", "r"], ["write", "a"]]) {
        try { fs.closeSync(fs.openSync(path, flags)); allowed.push(what + " " + path); } catch {}
      }
      try { fs.readdirSync(path); allowed.push("list " + path); } catch {}
    }
    process.stdout.write(JSON.stringify({ tried: paths.length, allowed }));`;
  const run = spawnSync("runuser", ["-u", "nobody", "--", process.execPath, "-e", script], {
    input: paths.join("\n"),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`runuser failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as { tried: number; allowed: string[] };
}

/** The directory's listing and contents, to compare before and after. */
async function fingerprint(dir: string): Promise<string[]> {
  const lines: string[] = [];
  for (const path of await walk(dir)) {
    const found = await lstat(path);
    const content = found.isFile()
      ? createHash("sha256")
          .update(await readFile(path))
          .digest("hex")
      : "";
    lines.push(`${relative(dir, path)} ${(found.mode & 0o7777).toString(8)} ${found.size} ${content}`);
  }
  return lines;
}

/** A fingerprint's line without its mode: "path size digest". */
function withoutMode(line: string): string {
  return line.replace(/^(\S*) \d+ /, "$1 ");
}

describe("a new data directory", () => {
  it("is private with umask 000: 0700 folders, 0600 files, nothing another user can read or write", async () => {
    const previous = process.umask(0);
    let sandbox: SandboxProcess;
    try {
      sandbox = await startSandboxProcess({ DATA_DIR: made });
    } finally {
      process.umask(previous);
    }
    try {
      const venue = { name: "Private", address: "1 Road", city: "Town", zip: "T1" };
      expect((await call(sandbox.url, "createVenue", { json: venue })).status).toBe(200);
      const running = await modes(made);
      process.stdout.write(`modes while it runs, umask 000: ${JSON.stringify(running)}\n`);
      expect(Object.keys(running).filter((mode) => mode.startsWith("d"))).toEqual(["d700"]);
      if (asOtherUser === undefined) {
        const seen = triedByNobody(await walk(made));
        process.stdout.write(`as nobody, while it runs: ${seen.allowed.length} of ${seen.tried} paths open\n`);
        expect(seen.allowed).toEqual([]);
        expect(seen.tried).toBeGreaterThan(1000);
      }
    } finally {
      expect(await sandbox.stop("SIGTERM")).toBe(0);
    }
    const closed = await modes(made);
    process.stdout.write(`modes once closed: ${JSON.stringify(closed)}\n`);
    expect(Object.keys(closed).sort()).toEqual(["d700", "f600"]);
    if (asOtherUser === undefined) expect(triedByNobody(await walk(made)).allowed).toEqual([]);
  });

  it("makes the folders it creates for it 0700, and leaves those it finds as they are", async () => {
    const parent = join(root, "new-parent");
    await makeParent(join(parent, "inner", "data"));
    expect([(await stat(parent)).mode & 0o777, (await stat(join(parent, "inner"))).mode & 0o777]).toEqual([
      0o700, 0o700,
    ]);
    expect((await stat(root)).mode & 0o777).toBe(0o755);
  });
});

describe("a data directory of an earlier version", () => {
  it("is tightened when opened, its data kept", async () => {
    const old = join(root, "old");
    await cp(made, old, { recursive: true });
    for (const path of await walk(old)) await chmod(path, (await lstat(path)).isDirectory() ? 0o777 : 0o666);
    const open = await modes(old);
    let started = performance.now();
    await tighten(old);
    const loose = performance.now() - started;
    started = performance.now();
    await tighten(old);
    const tight = performance.now() - started;
    process.stdout.write(
      `tightening ${open.f666} files and ${open.d777} folders: ${loose.toFixed(0)} ms; again, nothing to change: ${tight.toFixed(0)} ms\n`,
    );
    for (const path of await walk(old)) await chmod(path, (await lstat(path)).isDirectory() ? 0o777 : 0o666);
    const sandbox = await createSandbox({ database: old });
    try {
      expect(Object.keys(await modes(old)).sort()).toEqual(["d700", "f600"]);
      const venues = await call(sandbox.url, "listEvents", { key: SUMMIT });
      expect(venues.status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });
});

describe("a data directory PostgreSQL's lock file was left in", () => {
  it("opens with its data, whatever a process killed as it started left in the file", async () => {
    const left = join(root, "left");
    await cp(made, left, { recursive: true });
    let sandbox = await createSandbox({ database: left });
    const event = { name: "Kept", date: "2027-05-01", venue: { venue_id: "318" } };
    try {
      expect((await call(sandbox.url, "createEvent", { json: event })).status).toBe(201);
    } finally {
      await sandbox.close();
    }
    // empty: created, and killed before a byte was written (PostgreSQL refuses to start on it);
    // cut short; not a lock file at all; and whole, naming a process
    for (const content of ["", "4", "not a process id\n", `42\n${left}\n1764000000\n5432\n`]) {
      await writeFile(join(left, "postmaster.pid"), content);
      sandbox = await createSandbox({ database: left });
      try {
        const listed = await call(sandbox.url, "listEvents");
        expect(listed.status, JSON.stringify(content)).toBe(200);
        expect((listed.body as { data: { name: string }[] }).data.map((item) => item.name)).toContain("Kept");
      } finally {
        await sandbox.close();
      }
      expect(existsSync(join(left, "postmaster.pid")), "PGlite removes the file it writes as it closes").toBe(false);
    }
  });
});

describe("a data directory that cannot be opened", () => {
  let broken: string;
  beforeAll(async () => {
    broken = join(root, "broken");
    await cp(made, broken, { recursive: true });
  });

  it("is refused by npm start, naming what is wrong and the command that recovers it, and left as it is", async () => {
    const control = join(broken, "global", "pg_control");
    const saved = await readFile(control);
    await rm(control);
    const missing = await fingerprint(broken);
    const refused = await runSandboxScript("main", { DATA_DIR: broken, PORT: "0" });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(
      `npm start: the data directory ${broken} cannot be opened: its global/pg_control file is missing. It was left as it is. \`npm run sandbox:reset\` moves it aside (to ${broken}.broken-<time>) and makes a new one with the seed; or give DATA_DIR another folder.`,
    );
    expect(await fingerprint(broken)).toEqual(missing);
    // a control file PGlite cannot read: its start fails, and the data is left as it is
    await writeFile(control, Buffer.alloc(saved.length));
    const zeroed = await fingerprint(broken);
    const failed = await runSandboxScript("main", { DATA_DIR: broken, PORT: "0" });
    expect(failed.code).toBe(1);
    expect(failed.output).toMatch(
      new RegExp(
        `^npm start: the data directory ${literal(broken)} cannot be opened: PGlite could not start on it \\(.+\\)\\. It was left as it is\\. \`npm run sandbox:reset\` moves it aside`,
        "m",
      ),
    );
    expect(await fingerprint(broken)).toEqual(zeroed);
  });

  it("is moved aside by sandbox:reset, made private, and a new one made with the seed", async () => {
    // an earlier version's modes, which the folder moved aside must not keep
    for (const path of await walk(broken)) await chmod(path, (await lstat(path)).isDirectory() ? 0o755 : 0o644);
    const before = (await fingerprint(broken)).map(withoutMode);
    const reset = await runSandboxScript("reset", { DATA_DIR: broken });
    expect(reset.code).toBe(0);
    const aside = /it was moved to (\S+), and a new one made/.exec(reset.output)?.[1] ?? "";
    expect(aside).toMatch(new RegExp(`^${literal(broken)}\\.broken-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\dZ$`));
    expect(reset.output).toContain(`reset PGlite in ${broken}, schema sandbox: loaded the demo seed (2 companies)`);
    expect((await fingerprint(aside)).map(withoutMode)).toEqual(before);
    expect(Object.keys(await modes(aside)).sort()).toEqual(["d700", "f600"]);
    const sandbox = await createSandbox({ database: broken });
    try {
      expect((await call(sandbox.url, "listWageRules")).status).toBe(200);
      expect((await call(sandbox.url, "listEvents", { key: SUMMIT })).body).toEqual({ data: [], total_count: 0 });
    } finally {
      await sandbox.close();
    }
  });
});

describe("a folder that is not a data directory", () => {
  it("is refused by npm start and sandbox:reset, and nothing in it is touched", async () => {
    const folder = join(root, "documents");
    await mkdir(folder);
    await writeFile(join(folder, "notes.txt"), "mine\n");
    await chmod(join(folder, "notes.txt"), 0o644);
    const before = await fingerprint(folder);
    for (const script of ["main", "reset"] as const) {
      const run = await runSandboxScript(script, { DATA_DIR: folder, PORT: "0" });
      expect([run.code, run.output.trim()]).toEqual([
        1,
        `${script === "main" ? "npm start" : "sandbox:reset"}: ${folder} is not a sandbox data directory: it holds files that are not a database (notes.txt). Nothing in it was changed; give DATA_DIR a new or empty folder.`,
      ]);
    }
    expect(await fingerprint(folder)).toEqual(before);
    expect(existsSync(`${folder}.lock`)).toBe(false);
  });
});

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
