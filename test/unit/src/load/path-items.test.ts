/**
 * What the loader accepts and refuses in `paths`: a Path Item Object given by `$ref` (OpenAPI 3.1)
 * generates like one written in place, and paths that are one template once parameter names are
 * erased (`/items/{id}` and `/items/{sku}`), which OpenAPI forbids, are refused with a diagnostic
 * naming both and the method they share; sharing none, they are generated with a warning, and the
 * server and the client tell them apart by method.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { GenerationFailed, generate } from "../../../../src/index.js";
import { loadSpec } from "../../../../src/load/load-spec.js";
import { repoRoot } from "../../../support/paths.js";

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

/** A document with, at each of the paths given, an operation under each of its methods (GET by default). */
function withPaths(paths: readonly (string | readonly [string, ...string[]])[]): string {
  const operation = (path: string, method: string, index: number): Record<string, unknown> => ({
    operationId: `${method}${index}`,
    parameters: [...path.matchAll(/\{([^}]*)\}/g)].map(([, name]) => ({
      name,
      in: "path",
      required: true,
      schema: { type: "string" },
    })),
    responses: { "204": { description: "none" } },
  });
  const entries = paths.map((entry, index) => {
    const [path, ...methods] = typeof entry === "string" ? [entry, "get"] : entry;
    return [path, Object.fromEntries(methods.map((method) => [method, operation(path, method, index)]))];
  });
  return stringify({ openapi: "3.1.0", info: { title: "t", version: "1" }, paths: Object.fromEntries(entries) });
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
        'paths "/items/{id}" and "/items/{sku}" differ only in their parameter names (both are /items/{}) and both have GET: a GET request to one matches the other, which is why OpenAPI forbids such paths',
      ],
      [
        "PATH_TEMPLATE_DUPLICATE",
        "error",
        "#/paths/~1items~1{key}",
        expect.any(Number),
        'paths "/items/{id}" and "/items/{key}" differ only in their parameter names (both are /items/{}) and both have GET: a GET request to one matches the other, which is why OpenAPI forbids such paths',
      ],
    ]);
    expect(failed.diagnostics[0]?.hint).toMatch(/^Keep one of the two paths/);
  });

  it("names every method two paths share", async () => {
    const failed = await refusal(
      withPaths([
        ["/items/{id}", "get", "put", "delete"],
        ["/items/{sku}", "delete", "get"],
      ]),
    );
    expect(failed.diagnostics.map((d) => d.message)).toEqual([
      'paths "/items/{id}" and "/items/{sku}" differ only in their parameter names (both are /items/{}) and both have GET and DELETE: a GET or DELETE request to one matches the other, which is why OpenAPI forbids such paths',
    ]);
  });

  it("generates paths that share no method, with a warning saying why no request is ambiguous", async () => {
    const loaded = await loadSpec(
      "paths.yaml",
      withPaths([
        ["/items/{id}", "delete"],
        ["/items/{sku}", "get", "put"],
      ]),
    );
    expect(loaded.diagnostics.map((d) => [d.code, d.severity, d.location?.pointer, d.message])).toEqual([
      [
        "PATH_TEMPLATE_REPEATED",
        "warning",
        "#/paths/~1items~1{sku}",
        'paths "/items/{id}" and "/items/{sku}" differ only in their parameter names (both are /items/{}), which OpenAPI forbids; they share no method ("/items/{id}" has DELETE, "/items/{sku}" has GET and PUT), so every request goes to one of them by its method: both are generated',
      ],
    ]);
  });

  it("refuses a third path that shares a method with one of two that share none", async () => {
    const failed = await refusal(
      withPaths([
        ["/items/{id}", "delete"],
        ["/items/{sku}", "get"],
        ["/items/{key}", "get"],
      ]),
    );
    expect(failed.diagnostics.map((d) => [d.code, d.message.split(" differ")[0]])).toEqual([
      ["PATH_TEMPLATE_REPEATED", 'paths "/items/{id}" and "/items/{sku}"'],
      ["PATH_TEMPLATE_DUPLICATE", 'paths "/items/{sku}" and "/items/{key}"'],
    ]);
  });

  it("counts the methods of additionalOperations (OpenAPI 3.2) as the fixed ones", async () => {
    const document = (paths: Record<string, object>): string =>
      stringify({ openapi: "3.2.0", info: { title: "t", version: "1" }, paths });
    const operation = (operationId: string, name: string) => ({
      operationId,
      parameters: [{ name, in: "path", required: true, schema: { type: "string" } }],
      responses: { "204": { description: "none" } },
    });
    const failed = await refusal(
      document({
        "/items/{id}": { get: operation("getItem", "id"), additionalOperations: { PURGE: operation("purge", "id") } },
        "/items/{sku}": { additionalOperations: { PURGE: operation("purgeBySku", "sku") } },
      }),
    );
    expect(failed.diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        "PATH_TEMPLATE_DUPLICATE",
        'paths "/items/{id}" and "/items/{sku}" differ only in their parameter names (both are /items/{}) and both have PURGE: a PURGE request to one matches the other, which is why OpenAPI forbids such paths',
      ],
    ]);
    const loaded = await loadSpec(
      "paths.yaml",
      document({
        "/items/{id}": { get: operation("getItem", "id") },
        "/items/{sku}": {
          query: operation("findBySku", "sku"),
          additionalOperations: { LINK: operation("link", "sku") },
        },
      }),
    );
    expect(loaded.diagnostics.map((d) => [d.code, d.message.split("; ")[1]])).toEqual([
      [
        "PATH_TEMPLATE_REPEATED",
        'they share no method ("/items/{id}" has GET, "/items/{sku}" has QUERY and LINK), so every request goes to one of them by its method: both are generated',
      ],
    ]);
  });

  it("leaves paths that differ in a fixed segment, or in where a parameter stands, alone", async () => {
    const loaded = await loadSpec("paths.yaml", withPaths(["/items/{id}", "/items/by-sku/{sku}", "/items/{id}.json"]));
    expect(loaded.diagnostics).toEqual([]);
  });
});

describe("paths one template apart that share no method (generality/14-identical-templates-disjoint-methods.yaml)", () => {
  interface Generated {
    buildServer(options: {
      handlers: Record<string, (input: { params: unknown }) => unknown>;
    }): Promise<FastifyInstance>;
    createClient(options: { baseUrl: string }): Record<string, (args: object) => Promise<unknown>>;
  }
  const spec = join(repoRoot, "test/fixtures/generality/14-identical-templates-disjoint-methods.yaml");
  const folder = join(out, "disjoint");
  let app: FastifyInstance | undefined;
  afterAll(() => app?.close());

  it("generates both, with the warning, and the server and the client tell them apart by method", async () => {
    const result = await generate({ spec, out: folder });
    expect(result.diagnostics.map((d) => [d.code, d.location?.line])).toEqual([["PATH_TEMPLATE_REPEATED", 30]]);
    const server = (await import(join(folder, "server/index.ts"))) as Pick<Generated, "buildServer">;
    const { createClient } = (await import(join(folder, "client/index.ts"))) as Pick<Generated, "createClient">;
    const seen: unknown[] = [];
    const answering =
      (name: string, answer: object) =>
      ({ params }: { params: unknown }) => {
        seen.push([name, params]);
        return answer;
      };
    app = await server.buildServer({
      handlers: {
        deleteAttestation: answering("delete", { status: 204 }),
        listAttestations: answering("list", { status: 200, body: [{}] }),
      },
    });
    const origin = await app.listen({ host: "127.0.0.1", port: 0 });
    const client = createClient({ baseUrl: origin });
    await expect(client.listAttestations?.({ path: { org: "o", subject_digest: "sha256:1" } })).resolves.toEqual([{}]);
    await expect(client.deleteAttestation?.({ path: { org: "o", attestation_id: 7 } })).resolves.toBeUndefined();
    expect(seen).toEqual([
      ["list", { org: "o", subject_digest: "sha256:1" }],
      ["delete", { org: "o", attestation_id: 7 }],
    ]);
    const put = await fetch(`${origin}/orgs/o/attestations/7`, { method: "PUT" });
    expect([put.status, put.headers.get("allow")]).toEqual([405, "DELETE, GET, HEAD"]);
  });
});
