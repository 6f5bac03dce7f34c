/**
 * `npm start`'s warning that generated/ was written from another spec (scripts/spec-drift.mjs):
 * the two are compared as data, on a scratch folder holding a spec and a generated/openapi.json.
 */
import { mkdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { specDrift } from "../../../scripts/spec-drift.mjs";
import { makeTempDir } from "../../support/paths.js";

const CONTRACT = { openapi: "3.1.0", info: { title: "T", version: "1" }, paths: {} };
const CHANGED = "warning: spec/openapi.yaml has changed since generated/ was written";
let root: string;

/** Writes the spec (newer than generated/, as after an edit) and the generated copy. */
async function write(spec: string, generated: object): Promise<void> {
  await writeFile(join(root, "generated", "openapi.json"), JSON.stringify(generated));
  await writeFile(join(root, "spec", "openapi.yaml"), spec);
  const later = new Date(Date.now() + 5000);
  await utimes(join(root, "spec", "openapi.yaml"), later, later);
}

beforeEach(async () => {
  root = await makeTempDir("spec-drift");
  await mkdir(join(root, "spec"));
  await mkdir(join(root, "generated"));
});

describe("specDrift", () => {
  it("says nothing when the spec is the one generated/ was written from, whatever its layout", async () => {
    await write("openapi: 3.1.0\ninfo: { title: T, version: '1' }\npaths: {}\n", {
      ...CONTRACT,
      "x-generated": "note",
    });
    expect(specDrift(root)).toBeUndefined();
  });

  it("warns, saying what to run, when the spec says another contract", async () => {
    await write("openapi: 3.1.0\ninfo: { title: T2, version: '1' }\npaths: {}\n", CONTRACT);
    expect(specDrift(root)).toBe(
      `${CHANGED}, so this serves the contract as it was: run npm run generate, then start again`,
    );
  });

  it("warns when the spec does not parse, with the parser's first line", async () => {
    await write("openapi: [3.1.0\n", CONTRACT);
    expect(specDrift(root)).toMatch(
      /^warning: spec\/openapi\.yaml does not parse \(.+\), so generated\/ holds the contract as it last was: fix it, then run npm run generate$/,
    );
  });

  it("reads nothing when generated/ is newer than the spec, or either is missing", async () => {
    await write("not: the contract\n", CONTRACT);
    const earlier = new Date(Date.now() - 60_000);
    await utimes(join(root, "spec", "openapi.yaml"), earlier, earlier);
    expect(specDrift(root)).toBeUndefined();
    expect(specDrift(join(root, "spec"))).toBeUndefined();
  });
});
