/**
 * A Swagger 2.0 operation's own `schemes` (as Kubernetes' description gives every operation):
 * OpenAPI 3.0 has no such field, so the upgraded operation is served at the document's host and
 * base path by them (its own `servers`) where they differ from the document's, and has none where
 * they are the same or the document names no host.
 */
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { loadSpec } from "../../../../src/load/load-spec.js";

const operation = (operationId: string, schemes?: string[]) => ({
  operationId,
  ...(schemes === undefined ? {} : { schemes }),
  responses: { "200": { description: "OK" } },
});

function document(host: boolean): object {
  return {
    swagger: "2.0",
    info: { title: "Schemes", version: "1" },
    ...(host ? { host: "api.example.com", basePath: "/v1" } : {}),
    schemes: ["https"],
    paths: {
      "/pods": { get: operation("listPods", ["https"]), post: operation("createPod") },
      "/pods/{name}/log": {
        get: {
          ...operation("readPodLog", ["http", "https"]),
          parameters: [{ name: "name", in: "path", required: true, type: "string" }],
        },
      },
    },
  };
}

describe("a Swagger 2.0 operation's own schemes", () => {
  it("become the operation's servers where they differ from the document's, and are gone elsewhere", async () => {
    const { document: upgraded, diagnostics } = await loadSpec("swagger.yaml", stringify(document(true)));
    expect(diagnostics).toEqual([]);
    const paths = upgraded.paths as Record<string, Record<string, Record<string, unknown>>>;
    expect(upgraded.servers).toEqual([{ url: "https://api.example.com/v1" }]);
    expect(paths["/pods"]?.get).toEqual(operation("listPods"));
    expect(paths["/pods/{name}/log"]?.get?.servers).toEqual([
      { url: "http://api.example.com/v1" },
      { url: "https://api.example.com/v1" },
    ]);
    expect(paths["/pods/{name}/log"]?.get?.schemes).toBeUndefined();
  });

  it("are left out where the document names no host to write them with", async () => {
    const { document: upgraded } = await loadSpec("swagger.yaml", stringify(document(false)));
    const paths = upgraded.paths as Record<string, Record<string, Record<string, unknown>>>;
    expect(Object.keys(paths["/pods/{name}/log"]?.get ?? {}).sort()).toEqual([
      "operationId",
      "parameters",
      "responses",
    ]);
  });
});
