/**
 * `npm run release` through a real registry, as the package's consumers meet its versions:
 * Verdaccio on 127.0.0.1 (throwaway storage and user, no uplink), a scratch copy of the repository
 * to release from, and a consumer project that installs the package from the registry and
 * compiles its calls with `tsc` (skipLibCheck off, no other package installed). The contract
 * goes through three versions: the spec as it is (1.0.0, the first release), a field added
 * (1.1.0, which `npm update` takes), then that field made required and an operation removed
 * (2.0.0, which `^1` does not take, and whose breaking changes the consumer's compile finds at
 * exactly the calls its changelog names).
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { makeTempDir } from "../../support/paths.js";
import { type Run, runLib, runProgram } from "../../support/run-program.js";
import { compileProject, installedVersion, type Registry, scratchRepository, startRegistry } from "./registry.js";

const NAME = "workforce-scheduling-api";
let dir: string;
let registry: Registry;
let repository: string;
let consumer: string;

/** The consumer's calls: one line each, so that a compile error's line names its call. */
const CALLS = [
  `import { createClient } from "${NAME}";`,
  ``,
  `const client = createClient({ apiKey: "key", baseUrl: "http://127.0.0.1:9/api/1_12" });`,
  `export const venue = () => client.createVenue({ body: { name: "Hall", address: "1 Road", city: "Bristol", zip: "BS1 1AA" } });`,
  `export const rules = () => client.listWageRules();`,
  `export const events = () => client.listEvents();`,
  ``,
].join("\n");

/** A call written against 1.1.0: it sends the new field and reads it back. */
const COUNTRY = [
  `import { createClient, type Venue } from "${NAME}";`,
  ``,
  `const client = createClient({ apiKey: "key", baseUrl: "http://127.0.0.1:9/api/1_12" });`,
  `export const venue = () => client.createVenue({ body: { name: "Hall", address: "1 Road", city: "Bristol", zip: "BS1 1AA", country: "GB" } });`,
  `export const country = (venue: Venue): string | undefined => venue.country;`,
  ``,
].join("\n");

const lineOf = (text: string, call: string): number => text.split("\n").findIndex((line) => line.includes(call)) + 1;

/** npm in a folder, with the registry's settings. */
const npm = (args: readonly string[], cwd: string): Promise<Run> =>
  runProgram("npm", args, { cwd, env: registry.env, ms: 300_000 });

/** `npm run release` in the scratch repository, against the test's registry. */
const release = (args: readonly string[]): Promise<Run> => runLib("release/cli.js", args, repository, registry.env);

/** The spec edited in place and generated/ written from it, as a change to the contract is made. */
async function changeSpec(edit: (spec: ReturnType<typeof parseDocument>) => void): Promise<void> {
  const file = join(repository, "spec", "openapi.yaml");
  const spec = parseDocument(await readFile(file, "utf8"));
  edit(spec);
  await writeFile(file, spec.toString());
  const generated = await runLib("cli.js", [], repository, registry.env);
  expect(generated.stderr).toBe("");
  expect(generated.code).toBe(0);
}

/** The section of CHANGELOG.md for `version`, its date read as DATE. */
async function section(version: string): Promise<string> {
  const changelog = await readFile(join(repository, "CHANGELOG.md"), "utf8");
  const start = changelog.indexOf(`## ${version} (`);
  const end = changelog.indexOf("\n## ", start + 1);
  return changelog.slice(start, end === -1 ? undefined : end).replace(/\(\d{4}-\d{2}-\d{2}\)/, "(DATE)");
}

async function latest(): Promise<string> {
  const view = await npm(["view", NAME, "dist-tags.latest"], consumer);
  expect(view.code).toBe(0);
  return view.stdout.trim();
}

/** What a successful npm install or update printed on stderr: npm's warnings, which there must be none of. */
const warnings = (run: Run): string[] => run.stderr.split("\n").filter((line) => /^npm warn/i.test(line));

beforeAll(async () => {
  dir = await makeTempDir("release");
  registry = await startRegistry(join(dir, "registry"));
  repository = await scratchRepository(join(dir, "repository"));
  consumer = join(dir, "consumer");
  await mkdir(join(consumer, "src"), { recursive: true });
  const manifest = { name: "consumer", private: true, type: "module", dependencies: { [NAME]: "^1.0.0" } };
  await writeFile(join(consumer, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const compilerOptions = {
    strict: true,
    noEmit: true,
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2022",
    lib: ["es2023", "dom"],
    types: [],
    skipLibCheck: false,
  };
  await writeFile(join(consumer, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["src"] }));
  await writeFile(join(consumer, "src", "calls.ts"), CALLS);
}, 120_000);

afterAll(async () => {
  await registry?.stop();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe("releases through a registry, and a consumer of them", () => {
  it("releases 1.0.0 from the spec; a consumer installs ^1.0.0 from the registry and its calls compile", async () => {
    const run = await release(["--version", "1.0.0"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Published: nothing yet`);
    expect(run.stdout).toContain(`Published 1.0.0 to ${registry.url}.`);
    // npm had nothing to say of the package it published (a field it corrected, a script it flags)
    expect(run.stdout).not.toMatch(/^npm warn/im);
    expect(await section("1.0.0")).toBe(
      "## 1.0.0 (DATE)\n\nFirst release, from the contract Workforce Scheduling Service API 1.12: 9 operations (`addWorkerCredential`, `addWorkerDocument`, `createEvent`, `createPayrollGroup`, `createVenue`, `listEvents`, `listWageRules`, `updateClient`, `updateEvent`).\n",
    );
    const manifest = JSON.parse(await readFile(join(repository, "package.json"), "utf8")) as { version: string };
    const lock = JSON.parse(await readFile(join(repository, "package-lock.json"), "utf8")) as {
      version: string;
      packages: Record<string, { version: string }>;
    };
    expect([manifest.version, lock.version, lock.packages[""]?.version]).toEqual(["1.0.0", "1.0.0", "1.0.0"]);

    const install = await npm(["install", "--no-audit", "--no-fund"], consumer);
    expect(install.code).toBe(0);
    expect(warnings(install)).toEqual([]);
    expect(await installedVersion(consumer, NAME)).toBe("1.0.0");
    expect(await readdir(join(consumer, "node_modules"))).toEqual([".package-lock.json", NAME]);
    expect(compileProject(consumer)).toEqual([]);
  }, 600_000);

  it("releases 1.1.0 for a field added; the consumer's npm update takes it, and its calls and one sending the field compile", async () => {
    await changeSpec((spec) => {
      spec.setIn(["components", "schemas", "VenueCreate", "properties", "country"], { type: "string", maxLength: 2 });
      spec.setIn(["components", "schemas", "Venue", "properties", "country"], { type: "string", maxLength: 2 });
    });
    const run = await release([]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Version: 1.1.0 (1.0.0 with a minor bump");
    expect(await section("1.1.0")).toBe(
      [
        "## 1.1.0 (DATE)",
        "",
        "Compared with 1.0.0, the version published before it: 2 added.",
        "",
        "### Added",
        "",
        "- `createVenue` (what a call receives): type `Venue`, property `country` was added (optional).",
        "- `createVenue` (what a call sends): type `VenueCreate`, property `country` was added (optional).",
        "",
      ].join("\n"),
    );

    const update = await npm(["update", "--no-audit", "--no-fund"], consumer);
    expect(update.code).toBe(0);
    expect(warnings(update)).toEqual([]);
    expect(await installedVersion(consumer, NAME)).toBe("1.1.0");
    await writeFile(join(consumer, "src", "country.ts"), COUNTRY);
    expect(compileProject(consumer)).toEqual([]);
  }, 600_000);

  it("refuses a version lower than advised, saying why; a dry run shows 2.0.0 and publishes and writes nothing", async () => {
    await changeSpec((spec) => {
      spec.addIn(["components", "schemas", "VenueCreate", "required"], "country");
      spec.deleteIn(["paths", "/wage-rules"]);
    });
    const files = async (): Promise<string[]> =>
      Promise.all(
        ["package.json", "package-lock.json", "CHANGELOG.md"].map((f) => readFile(join(repository, f), "utf8")),
      );
    const before = await files();

    const refused = await release(["--version", "1.2.0"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^error RELEASE_VERSION --version 1\.2\.0 is lower than 2\.0\.0, which the changes since 1\.1\.0 need \(a major bump\): 2 breaking change\(s\) \(createVenue: type `VenueCreate`, property `country`: became required; listWageRules \(GET \/wage-rules\): removed; .*\)\n {2}hint: /,
    );
    expect(refused.stderr).toContain("release: nothing was published and no file was changed.");

    const dry = await release(["--dry-run"]);
    expect(dry.stderr).toBe("");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("Version: 2.0.0 (1.1.0 with a major bump: 2 breaking change(s)");
    expect(dry.stdout).toContain("### Breaking changes");
    expect(dry.stdout).toMatch(/The package: \d+ files, \d+ bytes packed/);
    expect(dry.stdout).toContain("Dry run: npm checked the publish of 2.0.0");

    expect(await files()).toEqual(before);
    expect((await readdir(repository)).filter((name) => name.endsWith(".release"))).toEqual([]);
    expect(await latest()).toBe("1.1.0");
  }, 600_000);

  it("releases 2.0.0 for the breaking changes; ^1 keeps 1.1.0, and at ^2 tsc fails exactly at the calls the changelog names", async () => {
    const run = await release([]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const breaking = await section("2.0.0");
    expect(breaking).toBe(
      [
        "## 2.0.0 (DATE)",
        "",
        "Compared with 1.1.0, the version published before it: 2 breaking.",
        "",
        "### Breaking changes",
        "",
        "- `createVenue` (what a call sends): type `VenueCreate`, property `country` became required (`optional` → `required`).",
        "- `listWageRules` (GET /wage-rules) was removed; its client method and handler go with it.",
        "",
      ].join("\n"),
    );
    expect(await latest()).toBe("2.0.0");

    const update = await npm(["update", "--no-audit", "--no-fund"], consumer);
    expect(update.code).toBe(0);
    expect(await installedVersion(consumer, NAME)).toBe("1.1.0");
    expect(compileProject(consumer)).toEqual([]);

    const major = await npm(["install", "--no-audit", "--no-fund", `${NAME}@^2.0.0`], consumer);
    expect(major.code).toBe(0);
    expect(warnings(major)).toEqual([]);
    expect(await installedVersion(consumer, NAME)).toBe("2.0.0");
    const errors = compileProject(consumer);
    const failing = [lineOf(CALLS, "client.createVenue("), lineOf(CALLS, "client.listWageRules(")];
    expect(errors.map((error) => `src/calls.ts:${error.line}`)).toEqual(failing.map((line) => `src/calls.ts:${line}`));
    expect(errors.map((error) => error.file)).toEqual(["src/calls.ts", "src/calls.ts"]);
    expect(errors[0]?.text).toContain("country");
    expect(errors[1]?.text).toContain("listWageRules");
    // the operations of the failing calls are those the changelog's breaking changes name, and no others
    const named = [...breaking.matchAll(/^- `(\w+)`/gm)].map((match) => match[1]);
    const called = failing.map((line) => /client\.(\w+)\(/.exec(CALLS.split("\n")[line - 1] ?? "")?.[1]);
    expect(named).toEqual(called);
  }, 600_000);
});
