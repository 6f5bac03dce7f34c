/**
 * spec:diff follows every file of a multi-file document, on both sides: from a checkout, and from
 * git, where the files its $refs reach are read at the same ref. A change in one of those files
 * is reported under the component the file became.
 */
import { execFile } from "node:child_process";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, repoRoot } from "../../../support/paths.js";
import { runCommand } from "./support/run-command.js";

const git = promisify(execFile);
let repo: string;

beforeAll(async () => {
  repo = await makeTempDir("diff-multi-file");
  await cp(join(repoRoot, "test/fixtures/multi-file"), join(repo, "spec"), { recursive: true });
  const run = (...args: string[]) => git("git", args, { cwd: repo });
  await run("init", "-q");
  await run("-c", "user.name=test", "-c", "user.email=test@example.invalid", "add", ".");
  await run("-c", "user.name=test", "-c", "user.email=test@example.invalid", "commit", "-qm", "a multi-file spec");
  const line = join(repo, "spec/schemas/orders/OrderLine.yaml");
  await writeFile(line, (await readFile(line, "utf8")).replace("minimum: 1", "minimum: 2"));
  await run(
    "-c",
    "user.name=test",
    "-c",
    "user.email=test@example.invalid",
    "commit",
    "-qam",
    "a larger minimum quantity",
  );
});

describe("spec:diff on a multi-file document", () => {
  it("reads the other files at each git ref, and reports a change in one under its component", async () => {
    const run = await runCommand(
      ["git:HEAD~1:spec/openapi.yaml", "git:HEAD:spec/openapi.yaml", "--format", "json"],
      repo,
    );
    expect(run.stderr).toBe("");
    const report = JSON.parse(run.stdout) as { changes: { rule: string; message: string }[]; semver: string };
    expect(report.changes.map((change) => change.rule)).toContain("request-property-constraint-tightened");
    expect(report.changes.find((change) => change.rule === "request-property-constraint-tightened")?.message).toMatch(
      /OrderLine/,
    );
    expect(report.semver).toBe("major");
  });

  it("finds no change between a ref and the same files checked out", async () => {
    const run = await runCommand(["git:HEAD:spec/openapi.yaml", "spec/openapi.yaml", "--format", "json"], repo);
    expect(run.stderr).toBe("");
    expect((JSON.parse(run.stdout) as { changes: unknown[] }).changes).toEqual([]);
  });
});
