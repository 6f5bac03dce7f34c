/**
 * Documents met in the wild whose schemas use JSON Schema 2020-12 beyond the common subset, or
 * whose references cross files (test/fixtures/generality/, one defect each, reduced from public API
 * descriptions, the first lines of each saying what): a generic list through `$dynamicRef`,
 * `$defs`, a Parameter Object shared across files, `$id`s and `$anchor`s in other files. Each
 * generates, its output typechecks under strict settings and its validators say what JSON Schema
 * says; or, where the document really is invalid, it is refused with one message that names the
 * cause.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { type Diagnostic, GenerationFailed, generate } from "../../../src/index.js";
import { repoRoot } from "../../support/paths.js";
import { listTypeScript, typecheck } from "../../support/typecheck.js";

/** The fixtures that generate, each with a TypeScript check of its types placed beside its output. */
const GENERATING: Readonly<Record<string, string>> = {
  "03-components-only-external-ref.yaml": "",
  "04-external-anchor.yaml": `export const order: components["schemas"]["Order"] = { kind: "retail" };\n`,
  "05-external-id-base.yaml": `export const user: components["schemas"]["User"] = { profile: { avatar: "a.png" } };\n`,
  "05b-external-id-base-silent.yaml": `export const user: components["schemas"]["User"] = { profile: { avatar: "a.png" } };\n`,
  "02-shared-parameter-ref.yaml": "",
  "02-shared-parameter-ref/root.yaml": "",
  "07-dynamic-ref-generic.yaml": `export const page: components["schemas"]["ThingPage"] = { items: [{ name: "a" }] };\n`,
  "08-defs-as-property.yaml": `export const envelope: components["schemas"]["Envelope"] = { data: { id: "x" } };\n`,
  "11-discriminator-mapping-relative.yaml": `export const drink: components["schemas"]["Drink"] = { kind: "tea", leaves: "green" };\n`,
};

const out = join(repoRoot, ".tmp", `generality-references-${process.pid}`);
const warnings = new Map<string, readonly Diagnostic[]>();
const folder = (fixture: string): string => join(out, fixture.replace(/\W/g, "_"));

beforeAll(async () => {
  for (const [fixture, check] of Object.entries(GENERATING)) {
    const result = await generate({ spec: join(repoRoot, "test/fixtures/generality", fixture), out: folder(fixture) });
    warnings.set(fixture, result.diagnostics);
    if (check !== "") {
      await mkdir(join(folder(fixture), "checks"), { recursive: true });
      await writeFile(
        join(folder(fixture), "checks", "values.ts"),
        `import type { components } from "../types.js";\n${check}`,
      );
    }
  }
}, 120_000);
afterAll(() => rm(out, { recursive: true, force: true }));

type Validators = Record<string, (value: unknown) => { valid: boolean }>;

async function validators(fixture: string): Promise<Validators> {
  return (await import(join(folder(fixture), "validators", "index.ts"))) as Validators;
}

/** The diagnostics a fixture is refused with: code, pointer, message and hint. */
async function refusal(fixture: string): Promise<(string | undefined)[][]> {
  const error = await generate({
    spec: join(repoRoot, "test/fixtures/generality", fixture),
    out: join(out, "refused"),
    check: true,
  }).then(
    () => expect.fail(`${fixture} generated`),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(GenerationFailed);
  return (error as GenerationFailed).diagnostics.map((d) => [d.code, d.location?.pointer, d.message, d.hint]);
}

describe("schemas beyond the common subset, and references across files", () => {
  it.each(Object.keys(GENERATING))("%s generates, with the warnings it deserves", (fixture) => {
    const found = (warnings.get(fixture) ?? []).map((d) => `${d.code} ${d.message}`);
    // nested/profile.yaml is named after its file, beside the component Profile that refers to it
    const expected =
      fixture === "05-external-id-base.yaml"
        ? [
            'NAME_ADJUSTED schema "profile": generated name "Profile2" instead of "Profile" ("Profile" is already taken by schema "Profile")',
          ]
        : [];
    expect(found).toEqual(expected);
  });

  it("all of their output, and values of their types, typecheck under strict settings", { timeout: 120_000 }, () => {
    expect(typecheck(listTypeScript(out))).toEqual([]);
  });

  it.each([
    [
      "07-dynamic-ref-generic.yaml",
      "validateThingPage",
      [{ items: [] }, { items: [{ name: "a" }, { name: "b" }] }],
      [{ items: [{}] }, { items: [{ name: 1 }] }, { items: {} }],
    ],
    // Page alone binds its items to `not: {}`: only an empty page is one
    ["07-dynamic-ref-generic.yaml", "validatePage", [{ items: [] }, {}], [{ items: [{ name: "a" }] }]],
    ["03-components-only-external-ref.yaml", "validateThing", [{ name: "a" }, {}], [{ name: 1 }, "a"]],
    ["04-external-anchor.yaml", "validateOrder", [{ kind: "retail" }, {}], [{ kind: "other" }, { kind: 1 }]],
    // the $id ./nested/ in the other file: the profile is nested/profile.yaml's object
    [
      "05-external-id-base.yaml",
      "validateUser",
      [{ profile: { avatar: "a.png" } }],
      [{ profile: { avatar: 1 } }, { profile: 7 }],
    ],
    // and not the integer of the leaf.yaml beside the referring file
    ["05b-external-id-base-silent.yaml", "validateUser", [{ profile: { avatar: "a.png" } }], [{ profile: 7 }]],
    ["08-defs-as-property.yaml", "validateEnvelope", [{ data: { id: "x" } }, {}], [{ data: {} }, { data: { id: 1 } }]],
    // the mapping's values read against Drink.yaml, where they are written, as its oneOf's refs are
    [
      "11-discriminator-mapping-relative.yaml",
      "validateDrink",
      [
        { kind: "tea", leaves: "green" },
        { kind: "coffee", shots: 2 },
      ],
      [{ kind: "tea", leaves: 1 }, { kind: "coffee", shots: "2" }, { kind: "juice" }],
    ],
  ] as const)("%s: %s accepts and refuses as JSON Schema says", async (fixture, name, valid, invalid) => {
    const validate = (await validators(fixture))[name];
    expect(validate, `${fixture} exports ${name}`).toBeTypeOf("function");
    for (const value of valid) expect(validate?.(value).valid, JSON.stringify(value)).toBe(true);
    for (const value of invalid) expect(validate?.(value).valid, JSON.stringify(value)).toBe(false);
  });

  it("prints a Parameter Object shared across files once, as a component parameter", async () => {
    const { readFile } = await import("node:fs/promises");
    const types = await readFile(join(folder("02-shared-parameter-ref/root.yaml"), "types.ts"), "utf8");
    expect(types).not.toContain('["header"]["x-trace"]');
    expect(types.match(/"x-trace"\?: components\["parameters"\]/g)).toHaveLength(2);
  });
});

describe("invalid documents, refused with the cause named", () => {
  it("06: a document pointer under an $id, with the $id that changed its meaning", async () => {
    const schema = "#/paths/~1things/get/responses/200/content/application~1json/schema";
    expect(await refusal("06-ref-under-id-diagnostic.yaml")).toEqual([
      [
        "REF_UNRESOLVED",
        `${schema}/properties/items/items/$ref`,
        `$ref "#/components/schemas/Thing" does not resolve: it is read against the $id "https://example.com/schemas/PagedThings" of the schema at ${schema}, so it points into that schema, which has nothing at /components/schemas/Thing`,
        `Remove the $id at ${schema} (a "#/..." $ref inside it then reads against the document), or give the target schema an $id and refer to that.`,
      ],
    ]);
  });

  it("09: components.schemas given as a $ref, one message in 3.0 as in 3.1", async () => {
    const [diagnostic, ...others] = await refusal("09-components-schemas-as-ref.yaml");
    expect(others).toEqual([]);
    expect(diagnostic?.slice(0, 3)).toEqual([
      "OAS_INVALID",
      "#/components/schemas",
      "#/components/schemas is a $ref, but OpenAPI allows no Reference Object here: the map of schemas must be written in the document. Bundle the files first (for example with `redocly bundle`), or give each entry its own $ref",
    ]);
    expect(diagnostic?.join(" ")).not.toContain("schema.invalid");
  });
});

describe("a discriminator mapping in the entry document whose values name other files", () => {
  const drinks = (kind: string, extra: object): string =>
    stringify({ type: "object", required: ["kind"], properties: { kind: { type: "string", enum: [kind] }, ...extra } });

  it.each(["3.0.3", "3.1.0"])("%s: reads them against the entry document's folder", async (version) => {
    const folder = join(out, `root-mapping-${version}`);
    await mkdir(join(folder, "schemas"), { recursive: true });
    await writeFile(join(folder, "schemas", "Tea.yaml"), drinks("tea", { leaves: { type: "string" } }));
    await writeFile(join(folder, "schemas", "Coffee.yaml"), drinks("coffee", { shots: { type: "integer" } }));
    const drink = {
      oneOf: [{ $ref: "./schemas/Tea.yaml" }, { $ref: "./schemas/Coffee.yaml" }],
      discriminator: {
        propertyName: "kind",
        mapping: { tea: "./schemas/Tea.yaml", coffee: "./schemas/Coffee.yaml" },
      },
    };
    const document = {
      openapi: version,
      info: { title: "root mapping", version: "1" },
      paths: {
        "/drink": {
          get: {
            operationId: "getDrink",
            responses: {
              "200": {
                description: "A drink.",
                content: { "application/json": { schema: { $ref: "#/components/schemas/Drink" } } },
              },
            },
          },
        },
      },
      components: { schemas: { Drink: drink } },
    };
    await writeFile(join(folder, "openapi.yaml"), stringify(document));
    const result = await generate({ spec: join(folder, "openapi.yaml"), out: join(folder, "out") });
    expect(result.diagnostics).toEqual([]);
    const { validateDrink } = (await import(join(folder, "out", "validators", "index.ts"))) as Validators;
    expect(
      [
        { kind: "tea", leaves: "x" },
        { kind: "coffee", shots: "2" },
      ].map((value) => validateDrink?.(value).valid),
    ).toEqual([true, false]);
  });
});
