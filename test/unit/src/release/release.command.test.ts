/**
 * `npm run release` on inputs it refuses, each with a diagnostic (code, what, hint) and the
 * repository left as it was; what it stages; and how it records a release in the repository's
 * files (beside them first, moved into place once published). The releases themselves go
 * through a registry in registry.test.ts.
 */
import { cp, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { prepare, versionFiles } from "../../../../src/release/record.js";
import { publishedManifest } from "../../../../src/release/stage.js";
import { makeTempDir, repoRoot } from "../../../support/paths.js";
import { runLib } from "../../../support/run-program.js";

let repository: string;
const files = ["package.json", "package-lock.json", "spec/openapi.yaml", "generated/openapi.json"];
const contents = (): Promise<string[]> => Promise.all(files.map((file) => readFile(join(repository, file), "utf8")));

/** The release in the scratch repository; npm asked not to retry a registry that refuses connections. */
const release = (args: readonly string[]) =>
  runLib("release/cli.js", args, repository, { ...process.env, npm_config_fetch_retries: "0" });

beforeAll(async () => {
  repository = await makeTempDir("release-command");
  await mkdir(join(repository, "spec"));
  await mkdir(join(repository, "generated"));
  for (const file of files) await cp(join(repoRoot, file), join(repository, file));
});

describe("the release command refuses, publishing nothing and writing nothing", () => {
  it("an option it does not know, with exit code 2", async () => {
    const run = await release(["--versoin", "2.0.0"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error RELEASE_USAGE .*--versoin.*\n {2}hint: Run `npm run release -- --help`/);
  });

  it("a registry it cannot reach, naming it", async () => {
    const before = await contents();
    const run = await release(["--registry", "http://127.0.0.1:9/"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^error RELEASE_REGISTRY the registry http:\/\/127\.0\.0\.1:9\/ could not be asked for workforce-scheduling-api: .*ECONNREFUSED.*\n {2}hint: Check the registry/,
    );
    expect(run.stderr).toContain("release: nothing was published and no file was changed.");
    expect(await contents()).toEqual(before);
  });

  it("a spec generated/ was not written from, before asking the registry anything", async () => {
    const spec = join(repository, "spec", "openapi.yaml");
    const original = await readFile(spec, "utf8");
    await writeFile(spec, original.replace("  title: Workforce Scheduling Service API", "  title: Another API"));
    try {
      const run = await release(["--registry", "http://127.0.0.1:9/"]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /^generated\/openapi\.json error RELEASE_OUT_OF_DATE generated\/ was not written from spec\/openapi\.yaml as it is now, so the package would not hold the contract released\n {2}hint: Run `npm run generate`/,
      );
      expect(run.stdout).toBe("");
    } finally {
      await writeFile(spec, original);
    }
  });

  it("prints its usage with --help", async () => {
    const run = await release(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: npm run release -- \[options\]\n/);
    expect(run.stdout).toContain("--dry-run");
  });
});

describe("what a release stages and records", () => {
  it("publishes a package.json of what consumers read: no scripts, dev dependencies or overrides", async () => {
    const manifest = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8")) as Record<string, unknown>;
    const published = publishedManifest(manifest, "3.1.0", ["dist", "docs"]);
    expect(Object.keys(manifest)).toEqual(expect.arrayContaining(["scripts", "devDependencies", "overrides"]));
    expect(published).not.toHaveProperty("scripts");
    expect(published).not.toHaveProperty("devDependencies");
    expect(published).not.toHaveProperty("overrides");
    expect(published).toMatchObject({
      name: manifest.name,
      version: "3.1.0",
      exports: manifest.exports,
      files: ["dist", "docs"],
    });
    expect(published.peerDependencies).toEqual(manifest.peerDependencies);
  });

  it("writes the new texts beside the files, and moves them into place only when told", async () => {
    const dir = await makeTempDir("record");
    await cp(join(repoRoot, "package.json"), join(dir, "package.json"));
    await cp(join(repoRoot, "package-lock.json"), join(dir, "package-lock.json"));
    const before = await readFile(join(dir, "package.json"), "utf8");
    const pending = [...(await versionFiles(dir, "7.0.0")), { path: "CHANGELOG.md", text: "# Changelog\n" }];
    const discarded = await prepare(dir, pending);
    expect((await readdir(dir)).sort()).toEqual([
      "CHANGELOG.md.release",
      "package-lock.json",
      "package-lock.json.release",
      "package.json",
      "package.json.release",
    ]);
    await discarded.discard();
    expect((await readdir(dir)).sort()).toEqual(["package-lock.json", "package.json"]);
    expect(await readFile(join(dir, "package.json"), "utf8")).toBe(before);

    await (await prepare(dir, pending)).commit();
    expect((await readdir(dir)).sort()).toEqual(["CHANGELOG.md", "package-lock.json", "package.json"]);
    const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as { version: string };
    const lock = JSON.parse(await readFile(join(dir, "package-lock.json"), "utf8")) as {
      version: string;
      packages: Record<string, { version?: string; devDependencies?: unknown }>;
    };
    expect([manifest.version, lock.version, lock.packages[""]?.version]).toEqual(["7.0.0", "7.0.0", "7.0.0"]);
    // nothing else of the files changed
    expect(await readFile(join(dir, "package.json"), "utf8")).toBe(
      before.replace(/"version": "[^"]+"/, '"version": "7.0.0"'),
    );
  });
});
