/**
 * What the loader accepts and refuses in `paths`: a Path Item Object given by `$ref` (OpenAPI 3.1)
 * generates like one written in place, and paths that are one template once parameter names are
 * erased (`/items/{id}` and `/items/{sku}`), which OpenAPI forbids, are refused with a diagnostic
 * naming both.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { GenerationFailed, generate } from "../../src/index.js";
import { loadSpec } from "../../src/load/load-spec.js";
import { repoRoot } from "../support/paths.js";

const out = join(repoRoot, ".tmp", `path-items-${process.pid}`);
afterAll(() => rm(out, { recursive: true, force: true }));

interface GeneratedRoute {
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly validators: { readonly pathParams?: (value: unknown) => { valid: boolean } };
}

describe("a path item given by $ref", () => {
  it("generates each operation of the path items referred to, without a diagnostic", async () => {
    const result = await generate({ spec: join(repoRoot, "test/fixtures/generality/path-item-ref.yaml"), out });
    expect(result.diagnostics).toEqual([]);
    const { routes } = (await import(join(out, "routes.ts"))) as { routes: Record<string, GeneratedRoute> };
    expect(Object.entries(routes).map(([id, route]) => [id, route.path, route.pathParams])).toEqual([
      ["getUser", "/users/{id}", ["id"]],
      ["listUsers", "/users", []],
    ]);
    const validate = routes.getUser?.validators.pathParams;
    expect([validate?.({ id: 1 }).valid, validate?.({ id: 0 }).valid]).toEqual([true, false]);
  });
});

/** A document with a GET operation at each of the paths given. */
function withPaths(paths: readonly string[]): string {
  const operation = (path: string, index: number): Record<string, unknown> => ({
    get: {
      operationId: `get${index}`,
      parameters: [...path.matchAll(/\{([^}]*)\}/g)].map(([, name]) => ({
        name,
        in: "path",
        required: true,
        schema: { type: "string" },
      })),
      responses: { "204": { description: "none" } },
    },
  });
  return stringify({
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: Object.fromEntries(paths.map((path, index) => [path, operation(path, index)])),
  });
}

async function refusal(text: string): Promise<GenerationFailed> {
  return loadSpec("paths.yaml", text).then(
    () => expect.fail("the document was accepted"),
    (thrown: unknown) => {
      expect(thrown).toBeInstanceOf(GenerationFailed);
      return thrown as GenerationFailed;
    },
  );
}

describe("paths that are one template once parameter names are erased", () => {
  it("are refused, each repeat named with the path it repeats, where it stands and how to fix it", async () => {
    const failed = await refusal(withPaths(["/items/{id}", "/items/{id}/parts", "/items/{sku}", "/items/{key}"]));
    expect(
      failed.diagnostics.map((d) => [d.code, d.severity, d.location?.pointer, d.location?.line, d.message]),
    ).toEqual([
      [
        "PATH_TEMPLATE_DUPLICATE",
        "error",
        "#/paths/~1items~1{sku}",
        expect.any(Number),
        'paths "/items/{id}" and "/items/{sku}" differ only in their parameter names (both are /items/{}), which OpenAPI forbids: a request to one matches the other',
      ],
      [
        "PATH_TEMPLATE_DUPLICATE",
        "error",
        "#/paths/~1items~1{key}",
        expect.any(Number),
        'paths "/items/{id}" and "/items/{key}" differ only in their parameter names (both are /items/{}), which OpenAPI forbids: a request to one matches the other',
      ],
    ]);
    expect(failed.diagnostics[0]?.hint).toMatch(/^Keep one of the two paths/);
  });

  it("leaves paths that differ in a fixed segment, or in where a parameter stands, alone", async () => {
    const loaded = await loadSpec("paths.yaml", withPaths(["/items/{id}", "/items/by-sku/{sku}", "/items/{id}.json"]));
    expect(loaded.diagnostics).toEqual([]);
  });
});
