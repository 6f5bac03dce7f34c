/**
 * What the loader accepts in `paths`: a Path Item Object given by `$ref` (OpenAPI 3.1) generates
 * like one written in place.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../../src/index.js";
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
