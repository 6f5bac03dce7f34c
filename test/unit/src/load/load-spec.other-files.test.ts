/**
 * Objects a document reaches through other files: each is checked against the OpenAPI schema as
 * if it were written where it is used, and every diagnostic about it (the schema check's, the
 * model's, the schema compiler's) names the file, line and column where it is written, with its
 * pointer in that file (test/fixtures/generality/12-yaml-null-type.yaml and
 * 15-other-files-not-checked.yaml, and variants written here).
 */
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { type Diagnostic, GenerationFailed, generate } from "../../../../src/index.js";
import { repoRoot } from "../../../support/paths.js";

const fixtures = join(repoRoot, "test/fixtures/generality");
const out = join(repoRoot, ".tmp", `other-files-${process.pid}`);
afterAll(() => rm(out, { recursive: true, force: true }));

/** Each diagnostic as file (from the fixtures' folder), line, column, code, pointer and message. */
function placed(diagnostics: readonly Diagnostic[], root: string): (string | number | undefined)[][] {
  return diagnostics.map((d) => [
    d.location?.file.slice(root.length + 1),
    d.location?.line,
    d.location?.column,
    d.code,
    d.location?.pointer,
    d.message,
  ]);
}

async function refusal(spec: string): Promise<readonly Diagnostic[]> {
  const error = await generate({ spec, out: join(out, "refused"), check: true }).then(
    () => expect.fail(`${spec} generated`),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(GenerationFailed);
  return (error as GenerationFailed).diagnostics;
}

describe("objects written in other files", () => {
  it("15: a Path Item and a Response of other files are checked in place, each fault placed in its file", async () => {
    const diagnostics = await refusal(join(fixtures, "15-other-files-not-checked.yaml"));
    expect(placed(diagnostics, fixtures)).toEqual([
      [
        "15-other-files-not-checked/health.yaml",
        4,
        5,
        "OAS_INVALID",
        "#/get/responses/200",
        "#/paths/~1health/get/responses/200 must have required property 'description'",
      ],
      [
        "15-other-files-not-checked/health.yaml",
        4,
        5,
        "OAS_INVALID",
        "#/get/responses/200",
        "#/paths/~1health/get/responses/200 must NOT have unevaluated properties: 'examples'",
      ],
      [
        "15-other-files-not-checked/ready-response.yaml",
        1,
        1,
        "OAS_INVALID",
        "#",
        "#/paths/~1ready/get/responses/200 must have required property 'description'",
      ],
    ]);
  });

  it("15 in OpenAPI 3.0: the same faults, by the 3.0 schema", async () => {
    const folder = join(out, "openapi-3.0");
    await mkdir(folder, { recursive: true });
    await cp(join(fixtures, "15-other-files-not-checked"), join(folder, "15-other-files-not-checked"), {
      recursive: true,
    });
    const text = await readFile(join(fixtures, "15-other-files-not-checked.yaml"), "utf8");
    await writeFile(join(folder, "entry.yaml"), text.replace("openapi: 3.1.0", "openapi: 3.0.3"));
    const diagnostics = await refusal(join(folder, "entry.yaml"));
    expect(placed(diagnostics, folder).map((d) => d.slice(0, 5))).toEqual([
      ["15-other-files-not-checked/health.yaml", 4, 5, "OAS_INVALID", "#/get/responses/200"],
      ["15-other-files-not-checked/health.yaml", 4, 5, "OAS_INVALID", "#/get/responses/200"],
      ["15-other-files-not-checked/ready-response.yaml", 1, 1, "OAS_INVALID", "#"],
    ]);
    expect(diagnostics.map((d) => d.message)).toContain(
      "#/paths/~1health/get/responses/200 must NOT have additional properties: 'examples'",
    );
  });

  it("12: a null among a schema's type names in another file, placed at that item, saying to quote it", async () => {
    const diagnostics = await refusal(join(fixtures, "12-yaml-null-type.yaml"));
    expect(placed(diagnostics, fixtures).map((d) => d.slice(0, 5))).toEqual([
      ["12-yaml-null-type/credits.yaml", 3, 5, "SCHEMA_INVALID", "#/type/1"],
    ]);
    expect(diagnostics[0]?.message).toMatch(
      /^unknown type null: this is a null value, not the type name "null" .*quoted in YAML: "null"/,
    );
  });

  it("places the model's diagnostics in the file an operation or a schema is written in", async () => {
    const folder = join(out, "model");
    await mkdir(join(folder, "items"), { recursive: true });
    const operation = {
      responses: {
        "200": {
          description: "An item.",
          content: { "application/json": { schema: { $ref: "./Route.yaml" } } },
        },
      },
    };
    await writeFile(join(folder, "items", "item.yaml"), stringify({ summary: "Items.", get: operation }));
    await writeFile(join(folder, "items", "Route.yaml"), stringify({ type: "object" }));
    const document = {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: { "/items": { $ref: "./items/item.yaml" } },
    };
    await writeFile(join(folder, "openapi.yaml"), stringify(document));
    const result = await generate({ spec: join(folder, "openapi.yaml"), out: join(out, "model-out") });
    expect(placed(result.diagnostics, folder).map((d) => d.slice(0, 5))).toEqual([
      ["items/item.yaml", 2, 1, "OPERATION_ID_MISSING", "#/get"],
      ["items/Route.yaml", 1, 1, "NAME_ADJUSTED", "#"],
    ]);
  });
});
