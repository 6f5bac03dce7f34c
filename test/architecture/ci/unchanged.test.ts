/**
 * CI's drift guard (scripts/unchanged.mjs): `.ci/run` regenerates generated/ under it, so a commit
 * whose generated/ is not what the generator writes fails CI. Run here on a scratch folder with
 * commands that change it in each way, and checked to be wired into `.ci/run`.
 */
import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import { makeTempDir, repoRoot } from "../../support/paths.js";

const run = promisify(execFile);
const SCRIPT = join(repoRoot, "scripts", "unchanged.mjs");
let dir: string;

/** Runs the guard over `out/` in the scratch folder around a shell command; its exit code and output. */
async function guard(shell: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [SCRIPT, "out", "--", "sh", "-c", shell], { cwd: dir });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

beforeEach(async () => {
  dir = await makeTempDir("unchanged");
  await mkdir(join(dir, "out", "server"), { recursive: true });
  await writeFile(join(dir, "out", "types.ts"), "export type A = 1;\n");
  await writeFile(join(dir, "out", "server", "app.ts"), "export {};\n");
});

describe("scripts/unchanged.mjs", () => {
  it("passes when the command rewrites the folder with the same bytes", async () => {
    const result = await guard("printf 'export type A = 1;\\n' > out/types.ts");
    expect(result).toEqual({ code: 0, output: expect.stringContaining("out/ unchanged by sh -c") });
  });

  it.each([
    ["rewritten", "echo 'export type A = 2;' > out/types.ts", "rewritten out/types.ts"],
    ["added", "echo x > out/server/new.ts", "added     out/server/new.ts"],
    ["removed", "rm out/server/app.ts", "removed   out/server/app.ts"],
  ])("fails when a file is %s, naming it", async (_kind, shell, line) => {
    const result = await guard(shell);
    expect(result.code).toBe(1);
    expect(result.output).toContain(line);
    expect(result.output).toContain("commit out/ with the change that caused it");
  });

  it("fails with the command's own status when the command fails", async () => {
    const result = await guard("exit 3");
    expect(result.code).toBe(3);
  });

  it("is how .ci/run regenerates generated/, before npm test", async () => {
    const ci = await readFile(join(repoRoot, ".ci", "run"), "utf8");
    const lines = ci.split("\n").filter((line) => line !== "" && !line.startsWith("#"));
    const regenerate = lines.indexOf("node scripts/unchanged.mjs generated -- npm run generate");
    expect(regenerate).toBeGreaterThan(lines.indexOf("npm ci"));
    expect(lines.indexOf("npm test")).toBeGreaterThan(regenerate);
    expect(lines.filter((line) => /npm run generate/.test(line))).toHaveLength(1);
  });
});
