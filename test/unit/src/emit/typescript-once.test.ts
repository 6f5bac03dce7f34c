/** The generator's own TypeScript compiler, loaded with V8's code cache. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadOpenapiTypescript, loadTypeScript, loadWithCodeCache } from "../../../../src/emit/typescript-once.js";
import { repoRoot } from "../../../support/paths.js";

const compilerFile = createRequire(import.meta.url).resolve("typescript");
const dir = mkdtempSync(join(tmpdir(), "code-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The loaded compiler works: it parses and translates. */
function translates(ts: ReturnType<typeof loadTypeScript>): string {
  return ts
    .transpileModule("const n: number = 1;", { compilerOptions: { target: ts.ScriptTarget.ES2022 } })
    .outputText.trim();
}

describe("loadWithCodeCache", () => {
  it("writes the cache on the first load and loads from it the next time", () => {
    const cacheFile = join(dir, "nested", "typescript.v8");
    expect(translates(loadWithCodeCache(compilerFile, cacheFile))).toBe("const n = 1;");
    const written = statSync(cacheFile);
    expect(written.size).toBeGreaterThan(100_000);
    expect(translates(loadWithCodeCache(compilerFile, cacheFile))).toBe("const n = 1;");
    // a cache V8 accepted is not written again
    expect(statSync(cacheFile).mtimeMs).toBe(written.mtimeMs);
  });

  it("compiles as usual and writes the cache again when V8 refuses it", () => {
    const cacheFile = join(dir, "broken.v8");
    writeFileSync(cacheFile, "not a code cache");
    // in a fresh process: this one holds the compiled compiler in V8's own cache, which wins over any file
    const script = `import { loadWithCodeCache } from "./src/emit/typescript-once.ts"; loadWithCodeCache(${JSON.stringify(compilerFile)}, ${JSON.stringify(cacheFile)});`;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(readFileSync(cacheFile).length).toBeGreaterThan(100_000);
  });

  it("works where the cache cannot be written", () => {
    const blocked = join(dir, "a-file");
    writeFileSync(blocked, "");
    expect(translates(loadWithCodeCache(compilerFile, join(blocked, "typescript.v8")))).toBe("const n = 1;");
  });
});

describe("loadTypeScript", () => {
  it("loads one compiler per thread", () => {
    expect(loadTypeScript()).toBe(loadTypeScript());
    expect(translates(loadTypeScript())).toBe("const n = 1;");
  });
});

describe("loadOpenapiTypescript", () => {
  it("gives the same functions as openapi-typescript's entry point", () => {
    const parts = loadOpenapiTypescript();
    const entry = createRequire(import.meta.url)("openapi-typescript") as typeof parts;
    expect(parts.transformSchema).toBe(entry.transformSchema);
    expect(parts.astToString).toBe(entry.astToString);
    expect(parts.resolveRef).toBe(entry.resolveRef);
    expect(parts.scanDiscriminators).toBe(entry.scanDiscriminators);
  });
});
