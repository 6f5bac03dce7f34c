/**
 * The commands run as processes (`runAsProcess`): V8 optimises later in them, by the option the
 * running Node's V8 takes (`laterOptimisationFlag`), and none where the V8 is not known to take one.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { laterOptimisationFlag } from "../../../../src/commands/command.js";
import { repoRoot } from "../../../support/paths.js";

describe("laterOptimisationFlag", () => {
  it("names each supported Node's option, and none for the others", () => {
    expect(laterOptimisationFlag("v20.19.0")).toBe("--interrupt-budget=1048576");
    expect(laterOptimisationFlag("v22.23.5")).toBe("--invocation-count-for-turbofan=45000");
    expect(laterOptimisationFlag("24.22.3")).toBe("--invocation-count-for-turbofan=45000");
    for (const other of ["v21.7.3", "v23.11.0", "v26.0.0", "v18.20.0"])
      expect(laterOptimisationFlag(other)).toBeUndefined();
  });

  it("is an option the running Node's V8 has, which a command then sets without a word", () => {
    const flag = laterOptimisationFlag(process.version);
    if (flag === undefined) return void expect(process.version).not.toMatch(/^v(20|22|24)\./);
    const known = spawnSync(process.execPath, ["--v8-options"], { encoding: "utf8" }).stdout;
    expect(known).toMatch(new RegExp(`^\\s+${flag.split("=")[0]}\\s`, "m"));
    const run = spawnSync(process.execPath, [join(repoRoot, "scripts", "run-built.mjs"), "cli.js", "--help"], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    expect(run.status).toBe(0);
    expect(run.stderr).not.toMatch(/unrecognized flag/i);
    expect(run.stdout).toContain("--spec");
  });
});
