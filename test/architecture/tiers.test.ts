/**
 * The suite's tiers (vitest.config.ts's TIERS, one project each): every test file sits in the
 * folder of one tier, and every unit test at the path of the code it tests, so the test of a file
 * is found from the file. `test/unit/<tree>/<path>/<name>.test.ts` tests `<tree>/<path>/<name>.ts`
 * (or the folder `<tree>/<path>/<name>/` as a whole); a second file for the same code adds an
 * aspect, `<name>.<aspect>.test.ts`. A failure names the test file and says where it should go.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { TIERS } from "../../vitest.config.js";
import { repoRoot } from "../support/paths.js";

/** The code trees a unit test mirrors. */
const CODE_TREES = ["src", "runtime", "sandbox"];
/** The extensions a code file the unit tests mirror may have. */
const CODE_EXTENSIONS = [".ts", ".mts", ".tsx", ".js", ".mjs"];

/** Every file under `folder` whose name ends with `suffix`, as a path from the repository root, with `/`. */
function filesUnder(folder: string, suffix: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "__snapshots__" || entry.name === "__tmp__") continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(suffix)) found.push(relative(repoRoot, path).split(sep).join("/"));
    }
  };
  walk(join(repoRoot, folder));
  return found.sort();
}

/**
 * Why a unit test's path names no code, or undefined when it names some: `test/unit/src/load/swagger-2.test.ts`
 * and `test/unit/src/load/swagger-2.upgrade.test.ts` name `src/load/swagger-2.ts`, and
 * `test/unit/runtime/client.test.ts` the folder `runtime/client/`. `root` is where the code is.
 */
function unitPathProblem(testFile: string, root: string): string | undefined {
  const inUnit = testFile.replace(/^test\/unit\//, "");
  const tree = inUnit.split("/")[0] ?? "";
  if (inUnit === testFile || !CODE_TREES.includes(tree) || !inUnit.includes("/")) {
    return `${testFile} is not under test/unit/<tree>/, for a tree of ${CODE_TREES.join(", ")}: move it to the path of the code it tests`;
  }
  const folder = inUnit.slice(0, inUnit.lastIndexOf("/"));
  const stem = (inUnit.slice(folder.length + 1).split(".")[0] ?? "").trim();
  const code = `${folder}/${stem}`;
  const named = CODE_EXTENSIONS.some((extension) => existsSync(join(root, `${code}${extension}`)));
  const isFolder = existsSync(join(root, code)) && statSync(join(root, code)).isDirectory();
  if (named || isFolder) return undefined;
  return `${testFile} names ${code}.ts (or the folder ${code}/), which does not exist: move the test to test/unit/<path of the code it tests>.test.ts (a second file of the same code: <name>.<aspect>.test.ts), or to another tier if it tests no one module`;
}

describe("the test tiers", () => {
  const tests = filesUnder("test", ".test.ts");

  it("puts every test file in the folder of one tier", () => {
    expect(tests.length).toBeGreaterThan(100);
    const outside = tests.filter((file) => !TIERS.some((tier) => file.startsWith(`test/${tier}/`)));
    expect(outside, `test files outside test/{${TIERS.join(",")}}/: move each into its tier`).toEqual([]);
  });

  it("has tests in every tier", () => {
    for (const tier of TIERS)
      expect(tests.filter((file) => file.startsWith(`test/${tier}/`)).length).toBeGreaterThan(5);
  });

  it("puts every unit test at the path of the code it tests", () => {
    const unit = tests.filter((file) => file.startsWith("test/unit/"));
    expect(unit.length).toBeGreaterThan(50);
    expect(unit.map((file) => unitPathProblem(file, repoRoot)).filter((problem) => problem !== undefined)).toEqual([]);
  });

  it("refuses a unit test whose path names no code, saying where it goes", () => {
    expect(unitPathProblem("test/unit/src/load/swagger-2.test.ts", repoRoot)).toBeUndefined();
    expect(unitPathProblem("test/unit/src/load/swagger-2.upgrade.test.ts", repoRoot)).toBeUndefined();
    expect(unitPathProblem("test/unit/runtime/client.test.ts", repoRoot)).toBeUndefined();
    expect(unitPathProblem("test/unit/src/load/swagger-3.test.ts", repoRoot)).toMatch(
      /^test\/unit\/src\/load\/swagger-3\.test\.ts names src\/load\/swagger-3\.ts \(or the folder src\/load\/swagger-3\/\), which does not exist: move the test/,
    );
    expect(unitPathProblem("test/unit/docs/paths.test.ts", repoRoot)).toMatch(/is not under test\/unit\/<tree>\//);
    expect(unitPathProblem("test/unit/cli.test.ts", repoRoot)).toMatch(/is not under test\/unit\/<tree>\//);
  });
});
