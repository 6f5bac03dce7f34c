/**
 * What the suite writes in the repository it removes: a module of test/ that names a folder of its
 * own under `.tmp/` (`join(repoRoot, ".tmp", `<name>-${process.pid}`)`, inside the repository so
 * that what is generated there resolves the repository's packages) removes that folder again
 * (`rm` or `rmSync` of the same name), or every run leaves one more behind in a contributor's
 * checkout. Temporary folders elsewhere come from `makeTempDir` (test/support/paths.ts), which
 * the global setup removes with the run's.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/paths.js";

/** The TypeScript modules under test/, outside generated output, as paths from the repository root. */
function testModules(): string[] {
  return readdirSync(join(repoRoot, "test"), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => relative(repoRoot, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .filter((path) => !path.split("/").includes("__tmp__") && !path.split("/").includes("fixtures"))
    .sort();
}

/** The names a module gives folders of its own under `.tmp/` that it does not remove. */
function leftFolders(text: string): string[] {
  const named = [...text.matchAll(/\b(?:const|let)\s+(\w+)\s*=\s*join\(\s*repoRoot,\s*"\.tmp",\s*`/g)].map(
    (match) => match[1] ?? "",
  );
  return named.filter((name) => !new RegExp(`\\brm(?:Sync)?\\(\\s*${name}\\b`).test(text));
}

describe("what the suite writes in the repository", () => {
  it("finds a folder of .tmp that is never removed, and one that is", () => {
    // the text of a module, whose template literal is written here as plain text
    const writes = `const out = join(repoRoot, ".tmp", \`webhooks-\${process.pid}\`);`;
    expect(leftFolders(writes)).toEqual(["out"]);
    expect(leftFolders(`${writes}\nafterAll(() => rm(out, { recursive: true, force: true }));`)).toEqual([]);
    expect(leftFolders(`${writes}\nprocess.once("exit", () => rmSync(out, { recursive: true }));`)).toEqual([]);
    expect(leftFolders('const folder = join(repoRoot, ".tmp");')).toEqual([]);
  });

  it("is removed by the module that names it, in every module of test/", () => {
    const left = testModules().flatMap((path) =>
      leftFolders(readFileSync(join(repoRoot, path), "utf8")).map(
        (name) =>
          `${path}: ${name} is a folder of .tmp/ it never removes (rm(${name}, { recursive: true, force: true }) in an afterAll)`,
      ),
    );
    expect(left).toEqual([]);
  });
});
