/**
 * Golden files: every file the generator emits for each fixture spec (one concern each) matches
 * its snapshot under __snapshots__/<fixture>/ (the snapshots typecheck with the rest of test/),
 * and for the real spec the committed generated/ is exactly what the generator emits. Runtime
 * files that come out the same for every spec are compared with generated/ instead of being
 * snapshotted once per fixture.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_TEMPLATES_DIR, generate } from "../../../src/index.js";
import { repoRoot } from "../../support/paths.js";
import { listTypeScript, typecheck } from "../../support/typecheck.js";

const fixturesDir = join(repoRoot, "test/fixtures");
/** A file's text without its header, which names the spec it came from. */
function body(content: string): string {
  return content.replace(/^(\/\/ .*\n)+\n/, "");
}

/** The committed generated/ file at a path, without its header, if any. */
function committed(path: string): string | undefined {
  const file = join(repoRoot, "generated", path);
  return existsSync(file) ? body(readFileSync(file, "utf8")) : undefined;
}

/** The files under a scenario's snapshot folder, as paths relative to it. */
function snapshotFiles(scenario: string): string[] {
  const dir = join(repoRoot, "test/output/golden/__snapshots__", scenario);
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join("/"));
}

const scenarios = readdirSync(fixturesDir)
  .filter((name) => existsSync(join(fixturesDir, name, "openapi.yaml")))
  .sort();

// inside the repository, so the generated server code resolves fastify from node_modules
const outputs = join(repoRoot, ".tmp", `golden-${process.pid}`);
afterAll(() => rm(outputs, { recursive: true, force: true }));

describe("golden files of the fixture specs", () => {
  it("covers every concern", () => {
    expect(scenarios).toEqual([
      "discriminator",
      "multi-file",
      "multipart",
      "name-collisions",
      "nullable",
      "openapi-3.0",
      "openapi-3.2",
      "pagination",
      "parameters",
      "read-write",
      "recursion",
    ]);
  });

  it.each(scenarios)("%s", async (scenario) => {
    // named, the built-in templates' output passes the syntax gate, as a --templates folder's does
    const result = await generate({
      spec: `test/fixtures/${scenario}/openapi.yaml`,
      out: join(outputs, scenario),
      templatesDir: DEFAULT_TEMPLATES_DIR,
    });
    expect(result.files.length).toBeGreaterThan(0);
    const shared = result.files.filter((file) => body(file.content) === committed(file.path));
    const listing = result.files.map((file) =>
      shared.includes(file) ? `${file.path} (same as generated/${file.path})` : file.path,
    );
    await expect(`${listing.join("\n")}\n`).toMatchFileSnapshot(`__snapshots__/${scenario}/FILES.txt`);
    const snapshotted = result.files.filter((f) => !shared.includes(f));
    for (const file of snapshotted) {
      await expect(file.content).toMatchFileSnapshot(`__snapshots__/${scenario}/${file.path}`);
    }
    // a snapshot of a file no longer emitted, or now the same as generated/'s, is left over: delete it
    const leftOver = snapshotFiles(scenario).filter(
      (path) => path !== "FILES.txt" && !snapshotted.some((file) => file.path === path),
    );
    expect(
      leftOver,
      `snapshots under test/output/golden/__snapshots__/${scenario}/ that nothing compares with`,
    ).toEqual([]);
  });
});

describe("the code generated from the fixture specs", () => {
  it("typechecks (snapshots and shared runtime files together), as written above", { timeout: 300_000 }, () => {
    expect(scenarios.filter((scenario) => existsSync(join(outputs, scenario)))).toEqual(scenarios);
    expect(typecheck(listTypeScript(outputs))).toEqual([]);
  });
});

describe("the real spec", () => {
  it("generated/ holds exactly what the generator emits", async () => {
    const result = await generate({ spec: "spec/openapi.yaml", out: join(repoRoot, "generated"), check: true });
    expect(result.diagnostics).toEqual([]);
    expect(result.drift).toEqual({ changed: [], missing: [], stale: [] });
  });
});
