/** Version discipline: the bump package.json (and info.version) needs, read as npm reads 0.x ranges. */
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { bumpBetween, judgeBump, parseVersion, requiredBump } from "../../../../../src/diff/version/check-version.js";
import { makeTempDir } from "../../../../support/paths.js";
import { runCommand } from "../support/run-command.js";
import { baseDocument, without, withValue } from "../support/support.js";

describe("the bump a version needs", () => {
  it("from 1.x on, the advice itself; below 1.0.0 one place lower, as ^0.1.0 accepts only 0.1.x", () => {
    const cases: [string, "major" | "minor" | "patch" | "none", string][] = [
      ["1.4.2", "major", "major"],
      ["1.4.2", "minor", "minor"],
      ["1.4.2", "patch", "patch"],
      ["1.4.2", "none", "none"],
      ["0.1.0", "major", "minor"],
      ["0.1.0", "minor", "patch"],
      ["0.0.3", "major", "patch"],
    ];
    for (const [version, advice, needed] of cases)
      expect(requiredBump(advice, parseVersion(version) ?? [0, 0, 0]), `${version} ${advice}`).toBe(needed);
  });

  it("reads versions, strictly for package.json and loosely for info.version", () => {
    expect(parseVersion("1.2.3-beta.1")).toEqual([1, 2, 3]);
    expect(parseVersion("1.12")).toBeUndefined();
    expect(parseVersion("1.12", true)).toEqual([1, 12, 0]);
    expect(parseVersion("2024-05-01", true)).toBeUndefined();
  });

  it("measures and judges bumps", () => {
    expect(bumpBetween([0, 1, 0], [0, 2, 0])).toBe("minor");
    expect(bumpBetween([1, 2, 3], [1, 2, 3])).toBe("none");
    expect(bumpBetween([1, 2, 3], [1, 1, 9])).toBe("lower");
    expect(judgeBump("package.json version", [0, 1, 0], [0, 1, 1], "major")).toEqual({
      ok: false,
      line: "error: package.json version 0.1.0 → 0.1.1 (patch bump), not enough: the changes need a minor bump (advice: major)",
    });
    expect(judgeBump("package.json version", [0, 1, 0], [0, 2, 0], "major").ok).toBe(true);
  });
});

describe("--check-version in a repository", () => {
  it("fails until package.json and info.version are bumped enough for a breaking change", async () => {
    const dir = await makeTempDir("check-version");
    const git = (...args: string[]): string =>
      execFileSync("git", ["-c", "user.name=Spec", "-c", "user.email=spec@example.com", ...args], {
        cwd: dir,
        encoding: "utf8",
      });
    await mkdir(join(dir, "spec"));
    await writeFile(join(dir, "package.json"), JSON.stringify({ name: "p", version: "0.1.0" }));
    await writeFile(join(dir, "spec/openapi.yaml"), stringify(baseDocument()));
    git("init", "-q");
    git("add", ".");
    git("commit", "-q", "-m", "base");
    const breaking = without(baseDocument(), "#/paths/~1venues/post");
    await writeFile(join(dir, "spec/openapi.yaml"), stringify(breaking));
    const unbumped = await runCommand(["--check-version", "git:HEAD", "--format", "json"], dir);
    expect(unbumped.code).toBe(1);
    expect(unbumped.stderr).toBe(
      [
        "error: package.json version 0.1.0 → 0.1.0 (none bump), not enough: the changes need a minor bump (advice: major)",
        "error: info.version 1.0.0 → 1.0.0 (none bump), not enough: the changes need a major bump (advice: major)",
        "",
      ].join("\n"),
    );
    await writeFile(join(dir, "package.json"), JSON.stringify({ name: "p", version: "0.2.0" }));
    await writeFile(join(dir, "spec/openapi.yaml"), stringify(withValue(breaking, "#/info/version", "2.0.0")));
    const bumped = await runCommand(["--check-version", "git:HEAD", "--format", "json"], dir);
    expect(bumped.stderr).toContain("ok: package.json version 0.1.0 → 0.2.0 (minor bump), enough");
    expect(bumped.code).toBe(0);
  });
});
