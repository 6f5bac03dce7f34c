/**
 * The command as a reviewer and CI run it: bad inputs reported like the generator's diagnostics
 * (file:line:col, code, hint) with exit 2, --fail-on thresholds, and the process itself.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { loadSide } from "../../../../src/diff/source/load-side.js";
import { type CommandResult, runBuiltCommand } from "../../../support/commands.js";
import { makeTempDir } from "../../../support/paths.js";
import { runCommand } from "./support/run-command.js";
import { baseDocument, without, withValue } from "./support/support.js";

let dir: string;
const file = (name: string): string => join(dir, name);

beforeAll(async () => {
  dir = await makeTempDir("spec-diff");
  const base = baseDocument();
  await writeFile(file("base.yaml"), stringify(base));
  await writeFile(file("breaking.yaml"), stringify(without(base, "#/paths/~1venues/post")));
  await writeFile(file("warning.yaml"), stringify(withValue(base, "#/servers/0/url", "https://api.example.org/v1")));
  await writeFile(file("invalid.yaml"), stringify(without(base, "#/info/version")));
  await writeFile(file("syntax.yaml"), "openapi: 3.1.0\ninfo:\n  title: [unclosed\n");
});

describe("inputs that cannot be compared: the generator's diagnostics and exit 2", () => {
  it("an invalid document, placed at file:line:col", async () => {
    const run = await runCommand([file("base.yaml"), file("invalid.yaml")]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/invalid\.yaml:\d+:\d+ error OAS_INVALID .*version/);
    expect(run.stderr).toContain("hint: ");
  });

  it("unparsable YAML, with its line", async () => {
    const run = await runCommand([file("syntax.yaml"), file("base.yaml")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/syntax\.yaml:\d+:\d+ error SPEC_SYNTAX /);
  });

  it("an unknown git ref, named as git:<ref>:<path>", async () => {
    const run = await runCommand(["git:no-such-ref-here"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^git:no-such-ref-here:spec\/openapi\.yaml error DIFF_SOURCE_NOT_FOUND git ref "no-such-ref-here" is not known/,
    );
  });

  it("a file that is not at a git ref, and a git file that is not OpenAPI", async () => {
    expect((await runCommand(["git:HEAD:spec/nothing.yaml"])).stderr).toContain(
      'error DIFF_SOURCE_NOT_FOUND spec/nothing.yaml does not exist at git ref "HEAD"',
    );
    expect((await runCommand(["git:HEAD:package.json"])).stderr).toMatch(
      /^git:HEAD:package\.json error SPEC_NOT_OPENAPI /,
    );
  });

  it("a spec from git whose external $refs reach a file that is not there at that ref", async () => {
    const text = stringify(withValue(baseDocument(), "#/components/schemas/Venue", { $ref: "./venue.yaml#/Venue" }));
    await expect(
      loadSide({
        name: "git:HEAD:spec/split.yaml",
        text,
        read: async () => Promise.reject(new Error("spec/venue.yaml does not exist at git ref HEAD")),
      }),
    ).rejects.toMatchObject({
      diagnostics: [
        expect.objectContaining({
          code: "REF_EXTERNAL_FAILED",
          message: expect.stringMatching(/spec\/venue\.yaml does not exist at git ref HEAD/),
        }),
      ],
    });
  });

  it("a file that does not exist, on both sides at once", async () => {
    const run = await runCommand([file("nowhere.yaml"), file("elsewhere.yaml")]);
    expect(run.code).toBe(2);
    expect(run.stderr.match(/error DIFF_SOURCE_NOT_FOUND the spec file .* does not exist/g)).toHaveLength(2);
  });

  it("an unknown option, a bad value, too many arguments", async () => {
    for (const args of [
      ["--nope"],
      ["--format", "html"],
      ["--fail-on", "info"],
      ["a.yaml", "b.yaml", "c.yaml"],
      ["--check-version", file("base.yaml")],
    ]) {
      const run = await runCommand(args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toMatch(/^error DIFF_USAGE .+\n {2}hint: Run `npm run spec:diff -- --help`/);
    }
  });
});

describe("exit codes", () => {
  it("0 without --fail-on, 1 when its threshold is reached", async () => {
    expect((await runCommand([file("base.yaml"), file("breaking.yaml")])).code).toBe(0);
    expect((await runCommand([file("base.yaml"), file("breaking.yaml"), "--fail-on", "breaking"])).code).toBe(1);
    expect((await runCommand([file("base.yaml"), file("warning.yaml"), "--fail-on", "breaking"])).code).toBe(0);
    expect((await runCommand([file("base.yaml"), file("warning.yaml"), "--fail-on", "warning"])).code).toBe(1);
  });

  it("without arguments, compares git:HEAD with the working spec", async () => {
    const run = await runCommand([]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^### spec:diff: \*\*(major|minor|patch|none)\*\*: /);
  });

  it("--help prints the usage", async () => {
    const run = await runCommand(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: npm run spec:diff -- \[<base>\] \[<head>\] \[options\]/);
  });
});

describe("the process", () => {
  it("prints GitHub annotations on stdout and exits 1 on a breaking change with --fail-on breaking", async () => {
    const run = await spawnCli([
      file("base.yaml"),
      file("breaking.yaml"),
      "--format",
      "github",
      "--fail-on",
      "breaking",
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^::error file=.*breaking\.yaml,line=\d+,col=\d+,title=api-removed::createVenue \(POST \/venues\): removed/,
    );
    expect(run.stdout.trimEnd().split("\n").at(-1)).toBe(
      "::notice title=spec%3Adiff::semver advice: major (1 change(s))",
    );
  });
});

function spawnCli(args: readonly string[]): Promise<CommandResult> {
  return runBuiltCommand("diff/cli.js", args);
}
