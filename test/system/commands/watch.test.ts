/** --watch regenerates when the spec changes, and keeps watching after a failed run. */

import type { ChildProcess } from "node:child_process";
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../../support/paths.js";
import { spawnCli } from "../../support/run-cli.js";

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill("SIGINT");
  child = undefined;
});

function waitForOutput(process: ChildProcess, pattern: RegExp, count: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; saw:\n${seen}`)), 60_000);
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      if ((seen.match(new RegExp(pattern, "g")) ?? []).length >= count) {
        clearTimeout(timer);
        resolve(seen);
      }
    };
    process.stdout?.on("data", onData);
    process.stderr?.on("data", onData);
  });
}

describe("--watch", () => {
  it("regenerates on a spec change and recovers from a broken spec", async () => {
    const dir = await makeTempDir("watch");
    const spec = join(dir, "spec", "openapi.yaml");
    const out = join(dir, "out");
    await import("node:fs/promises").then((fs) => fs.mkdir(join(dir, "spec")));
    await copyFile("test/fixtures/parameters/openapi.yaml", spec);
    child = spawnCli(["--watch", "--spec", spec, "--out", out]);
    await waitForOutput(child, /Generated \d+ files/, 1);
    const original = await readFile(spec, "utf8");
    await writeFile(spec, original.replace("One order of a shop", "One order of a shop, changed"));
    await waitForOutput(child, /Generated \d+ files/, 1);
    expect(await readFile(join(out, "types.ts"), "utf8")).toContain("One order of a shop, changed");
    await writeFile(spec, `${original}\n  broken: [\n`);
    await waitForOutput(child, /Generation failed/, 1);
    await writeFile(spec, original);
    await waitForOutput(child, /Generated \d+ files/, 1);
    expect(await readFile(join(out, "types.ts"), "utf8")).not.toContain("changed");
  });

  it("follows every file the spec's $refs reach, outside the spec's folder too", async () => {
    const dir = await makeTempDir("watch-multi");
    const fs = await import("node:fs/promises");
    await fs.mkdir(join(dir, "spec"));
    await fs.mkdir(join(dir, "shared"));
    const spec = join(dir, "spec", "openapi.yaml");
    const thing = join(dir, "shared", "Thing.yaml");
    await writeFile(thing, "type: object\ndescription: A thing, first.\nproperties:\n  id: {type: string}\n");
    const paths =
      "paths:\n  /things:\n    get:\n      operationId: listThings\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '../shared/Thing.yaml'}\n";
    await writeFile(spec, `openapi: 3.1.0\ninfo: {title: t, version: '1'}\n${paths}`);
    const out = join(dir, "out");
    child = spawnCli(["--watch", "--spec", spec, "--out", out]);
    await waitForOutput(child, /Generated \d+ files/, 1);
    expect(await readFile(join(out, "types.ts"), "utf8")).toContain("A thing, first.");
    await writeFile(thing, (await readFile(thing, "utf8")).replace("first", "changed"));
    await waitForOutput(child, /Generated \d+ files/, 1);
    expect(await readFile(join(out, "types.ts"), "utf8")).toContain("A thing, changed.");
  });
});
