/**
 * The suite's tiers (vitest.config.ts's TIERS, one project each): every test file sits in the
 * folder of one tier, and every unit test at the path of the code it tests, so the test of a file
 * is found from the file. `test/unit/<tree>/<path>/<name>.test.ts` tests `<tree>/<path>/<name>.ts`
 * (or the folder `<tree>/<path>/<name>/` as a whole); a second file for the same code adds an
 * aspect, `<name>.<aspect>.test.ts`. A failure names the test file and says where it should go.
 * A tier's files import from their own tier's folder, `test/support/` and `test/fixtures/` only: a
 * helper two tiers share lives in `test/support/`, which imports from no tier.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { TIERS } from "../../vitest.config.js";
import { type Import, importsIn, importsOf, modulesUnder } from "../support/imports.js";
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

/** The tier a path under test/ is in, "support" for the shared helpers, or undefined elsewhere (`test/fixtures/`). */
function tierOf(path: string): string | undefined {
  const folder = /^test\/([^/]+)\//.exec(path)?.[1];
  return folder === "support" || TIERS.some((tier) => tier === folder) ? folder : undefined;
}

/**
 * Why an import reaches into another tier's folder, or undefined when it does not: a test or a
 * helper of one tier, or a shared helper of `test/support/`, importing a module of a tier's folder.
 */
function crossTierProblem({ from, specifier, to }: Import): string | undefined {
  const target = to ?? posix.join(posix.dirname(from), specifier);
  const [own, other] = [tierOf(from), tierOf(target)];
  if (own === undefined || other === undefined || other === "support" || own === other) return undefined;
  return `${from} imports ${target} from the ${other} tier's folder: move the helper to test/support/ (the helpers the tiers share) and import it from there`;
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

  it("keeps each tier's imports to its own folder, test/support and test/fixtures", () => {
    const imports = importsOf(modulesUnder("test"));
    expect(imports.length).toBeGreaterThan(500);
    expect(imports.map(crossTierProblem).filter((problem) => problem !== undefined)).toEqual([]);
  });

  it("refuses an import from another tier's folder, saying to move the helper to test/support", () => {
    const problemOf = (from: string, specifier: string): string | undefined =>
      crossTierProblem(importsIn(from, `import { helper } from "${specifier}";\n`)[0] as Import);
    expect(problemOf("test/unit/sandbox/seed/seed.test.ts", "../../../system/sandbox/calls.js")).toBe(
      "test/unit/sandbox/seed/seed.test.ts imports test/system/sandbox/calls.js from the system tier's folder: move the helper to test/support/ (the helpers the tiers share) and import it from there",
    );
    expect(problemOf("test/support/page-run.ts", "../output/server/helpers.js")).toMatch(
      /^test\/support\/page-run\.ts imports test\/output\/server\/helpers\.ts from the output tier's folder: move the helper to test\/support\//,
    );
    expect(problemOf("test/system/sandbox/seed.test.ts", "../../support/sandbox-calls.js")).toBeUndefined();
    expect(problemOf("test/output/validators/venue.test.ts", "../server/helpers.js")).toBeUndefined();
    expect(problemOf("test/unit/src/load/swagger-2.test.ts", "../../../../fixtures/specs.js")).toBeUndefined();
  });
});
