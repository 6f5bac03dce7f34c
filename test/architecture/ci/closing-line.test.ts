/**
 * The line every vitest run ends on (test/support/failure-summary.ts): the count of its tests in
 * the plain form a CI system reads whatever the runner (`vitest: N passed, N failed`, then
 * `, N skipped`), the last line of the run's output. vitest is run here on a scratch folder of
 * tests that pass, fail, are skipped, and a file that does not load, with the suite's reporters.
 */
import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../support/paths.js";

const run = promisify(execFile);
const VITEST = join(repoRoot, "node_modules", "vitest", "vitest.mjs");
const REPORTER = join(repoRoot, "test", "support", "failure-summary.ts");
// inside the repository, so the scratch tests' imports of vitest resolve from node_modules
const dir = join(repoRoot, ".tmp", `closing-line-${process.pid}`);

/** vitest run on the scratch folder's files named; its exit code and its output, colours off. */
async function vitest(...files: string[]): Promise<{ code: number; lines: string[] }> {
  const args = [VITEST, "run", "--root", dir, "--config", join(dir, "vitest.config.mjs"), ...files];
  const env = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" };
  const done = await run(process.execPath, args, { cwd: dir, env }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, output: error.stdout }),
  );
  return { code: done.code, lines: done.output.trimEnd().split("\n") };
}

beforeAll(async () => {
  await mkdir(dir, { recursive: true });
  const config = `export default { test: { reporters: ["default", ${JSON.stringify(REPORTER)}] } };\n`;
  await writeFile(join(dir, "vitest.config.mjs"), config);
  const test = (body: string): string => `import { expect, it } from "vitest";\n${body}`;
  await writeFile(
    join(dir, "good.test.mjs"),
    test(`it("adds", () => expect(1 + 1).toBe(2));\nit("subtracts", () => expect(2 - 1).toBe(1));\n`),
  );
  await writeFile(
    join(dir, "bad.test.mjs"),
    test(`it("fails", () => expect(1).toBe(2));\nit.skip("waits", () => undefined);\n`),
  );
  await writeFile(join(dir, "broken.test.mjs"), `throw new Error("this file does not load");\n`);
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe("a vitest run's closing line", () => {
  it("is the run's last line, counting the tests that passed", async () => {
    const result = await vitest("good.test.mjs");
    expect(result.code).toBe(0);
    expect(result.lines.at(-1)).toBe("vitest: 2 passed, 0 failed");
  });

  it("counts failed and skipped tests, and a file that does not load as a failure", async () => {
    const result = await vitest("good.test.mjs", "bad.test.mjs", "broken.test.mjs");
    expect(result.code).toBe(1);
    expect(result.lines.at(-1)).toBe("vitest: 2 passed, 2 failed, 1 skipped");
    expect(result.lines).toContain("── what failed (2) ──");
  });

  it("is the only line of CI's own, and of npm test's, that says passed: theirs say succeeded", async () => {
    const ci = await readFile(join(repoRoot, ".ci", "run"), "utf8");
    const echoes = ci.split("\n").filter((line) => /^\s*echo\b/.test(line));
    expect(echoes.length).toBeGreaterThan(0);
    for (const echo of echoes) expect(echo).not.toMatch(/passed|failed/i);
    const test = await readFile(join(repoRoot, "scripts", "test.mjs"), "utf8");
    expect(test).not.toMatch(/"passed"|checks passed/);
    expect(test).toMatch(/"succeeded"/);
  });
});
