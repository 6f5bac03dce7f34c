/**
 * The front-end benchmark's shares of a page (bench/support/shares.ts): a module's share is what
 * the page's gzip loses without it, read off a real esbuild bundle.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageShares, splitModules } from "../../../bench/support/shares.js";
import { repoRoot } from "../../support/paths.js";

describe("splitModules", () => {
  it("cuts an unminified bundle at the comments that name its modules", () => {
    const bundle = "// a.ts\nvar a = 1;\n\n// lib/b.js\nvar b = 2;\nexport { a, b };\n";
    expect(splitModules(bundle)).toEqual([
      { module: "a.ts", code: "// a.ts\nvar a = 1;\n\n" },
      { module: "lib/b.js", code: "// lib/b.js\nvar b = 2;\nexport { a, b };\n" },
    ]);
  });
});

describe("pageShares", () => {
  let dir = "";
  const noise = randomBytes(800).toString("hex");

  beforeAll(async () => {
    dir = await mkdtemp(join(repoRoot, ".tmp", "shares-"));
    await writeFile(join(dir, "big.ts"), `export const big = ${JSON.stringify(noise)};\n`);
    await writeFile(join(dir, "small.ts"), `export const small = (n: number): number => n + 1;\n`);
    await writeFile(
      join(dir, "page.ts"),
      `import { big } from "./big";\nimport { small } from "./small";\nexport const page = big.length + small(1);\n`,
    );
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("charges each module what the page's gzip loses without it, the dearest first", async () => {
    const shares = await pageShares(repoRoot, join(dir, "page.ts"), {}, []);
    const share = (name: string): number | undefined => shares.find((s) => s.module.endsWith(`/${name}`))?.gzip;
    expect(shares.map((s) => s.module.replace(/^.*\//, "")).sort()).toEqual(["big.ts", "page.ts", "small.ts"]);
    expect(shares[0]?.module.endsWith("/big.ts")).toBe(true);
    expect(shares.map((s) => s.gzip)).toEqual(shares.map((s) => s.gzip).sort((a, b) => b - a));
    // 1,600 random hex digits gzip to about 900 bytes, whichever module holds them
    expect(share("big.ts")).toBeGreaterThan(800);
    expect(share("big.ts")).toBeLessThan(1000);
    expect(share("small.ts")).toBeLessThan(60);
  });
});
