/**
 * Golden files: every file the generator emits for each fixture spec (one concern each) matches
 * its snapshot under __snapshots__/<fixture>/ (the snapshots typecheck with the rest of test/),
 * and for the real spec the committed generated/ is exactly what the generator emits.
 */
import { readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../../src/index.js";
import { makeTempDir, repoRoot } from "../support/paths.js";

const fixturesDir = join(repoRoot, "test/fixtures");
const scenarios = readdirSync(fixturesDir).filter((name) => existsSync(join(fixturesDir, name, "openapi.yaml"))).sort();

describe("golden files of the fixture specs", () => {
  it("covers every concern", () => {
    expect(scenarios).toEqual(["discriminator", "multipart", "name-collisions", "nullable", "openapi-3.0", "parameters", "read-write", "recursion"]);
  });

  it.each(scenarios)("%s", async (scenario) => {
    const out = await makeTempDir(`golden-${scenario}`);
    const result = await generate({ spec: `test/fixtures/${scenario}/openapi.yaml`, out, check: true });
    expect(result.files.length).toBeGreaterThan(0);
    await expect(result.files.map((file) => file.path).join("\n")).toMatchFileSnapshot(`__snapshots__/${scenario}/FILES.txt`);
    for (const file of result.files) await expect(file.content).toMatchFileSnapshot(`__snapshots__/${scenario}/${file.path}`);
  });
});

describe("the real spec", () => {
  it("generated/ holds exactly what the generator emits", async () => {
    const result = await generate({ spec: "spec/openapi.yaml", out: join(repoRoot, "generated"), check: true });
    expect(result.diagnostics).toEqual([]);
    expect(result.drift).toEqual({ changed: [], missing: [], stale: [] });
  });
});
