/**
 * The 2020-12 meta-schemas the compiler ships (src/compiler/registry/meta-schemas/) are the files
 * json-schema.org publishes, byte for byte: each file's SHA-256 is the published file's (taken from
 * https://json-schema.org/draft/2020-12/schema and meta/*, which json-schema.org serves from the
 * json-schema-org/json-schema-spec repository at commit 601a66c8b0f25246bf0e1fb488c5b5f030a79b72).
 * The registry knows each by its `$id`, and a schema that refers to the meta-schema is checked by it.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { META_SCHEMA_PREFIX, META_SCHEMAS } from "../../../../../src/compiler/registry/meta-schemas.js";
import { validatorFor } from "../support/compile-helpers.js";

const FOLDER = join(import.meta.dirname, "../../../../../src/compiler/registry/meta-schemas");

/** The SHA-256 of each file json-schema.org publishes, by its URI's path under the draft. */
const PUBLISHED: Readonly<Record<string, string>> = {
  schema: "41da76f5afb7ce062d248f762463a92f7ca47e4e0f905b224ba6afeef91ded0f",
  "meta/applicator": "bf273b26f9f735b93ece78f2b61b36676e1d122ce78ab37ad5a2e45dfa1ca2b1",
  "meta/content": "a10456605b2b5bb12a1b4dcfc0300f02f54d3e8bb3646bed7724583866627682",
  "meta/core": "21f79d143fab1f180245c331e5657057045b36794d41fe151e6e4fed65035299",
  "meta/format-annotation": "5c79404f831dd905c0f40fefac7c6f3e51bf3729b4a876a5c2020178d97f3bcc",
  "meta/meta-data": "c664d438a84d58889c8edecd248ce2f945a4bc0e3b087323b11303dc136abfbe",
  "meta/unevaluated": "fc99f32188da41689a9382af174dd42e8b255e4374965c157b8286556b4ab2bc",
  "meta/validation": "e921c5b79264d3689af01c1af1ffdf692e09f1c45df90a0f08eb7288c9acdeab",
};

/** The JSON files of a folder and the folders in it, as paths relative to `root` without `.json`. */
function filesUnder(folder: string, root = folder): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return filesUnder(path, root);
    return [relative(root, path).replace(/\.json$/, "")];
  });
}

describe("the 2020-12 meta-schemas", () => {
  it("are json-schema.org's published files, byte for byte", () => {
    const shipped = filesUnder(FOLDER).sort();
    expect(shipped).toEqual(Object.keys(PUBLISHED).sort());
    const changed = shipped.filter(
      (name) =>
        createHash("sha256")
          .update(readFileSync(join(FOLDER, `${name}.json`)))
          .digest("hex") !== PUBLISHED[name],
    );
    expect(
      changed.map(
        (name) =>
          `src/compiler/registry/meta-schemas/${name}.json differs from ${META_SCHEMA_PREFIX}${name}: copy the published file in byte for byte`,
      ),
    ).toEqual([]);
  });

  it("are known to the registry by their $id, each the URI it is published at", () => {
    expect(Object.keys(META_SCHEMAS).sort()).toEqual(
      Object.keys(PUBLISHED)
        .map((name) => `${META_SCHEMA_PREFIX}${name}`)
        .sort(),
    );
    for (const [id, root] of Object.entries(META_SCHEMAS)) expect((root as { $id: string }).$id).toBe(id);
  });

  it("check a schema that refers to the meta-schema, through every vocabulary's meta-schema", async () => {
    const validate = await validatorFor({ $ref: `${META_SCHEMA_PREFIX}schema` });
    expect(validate({ type: "string", minLength: 1, properties: { a: { contentEncoding: "base64" } } }).valid).toBe(
      true,
    );
    expect(validate({ type: "text" }).valid).toBe(false);
    expect(validate({ minLength: -1 }).valid).toBe(false);
    expect(validate({ properties: { a: { $anchor: "not an anchor" } } }).valid).toBe(false);
    expect(validate({ $defs: { a: { contentMediaType: 1 } } }).valid).toBe(false);
    expect(validate(12).valid).toBe(false);
  });
});
