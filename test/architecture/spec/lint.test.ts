/**
 * The spec validates as OpenAPI 3.1 (swagger-parser) and lints clean with the project ruleset; the
 * project rules each catch the mistake they exist for.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { specPath } from "../../support/spec-document.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../..", import.meta.url));
const spectral = fileURLToPath(new URL("../../../node_modules/.bin/spectral", import.meta.url));

interface SpectralResult {
  code: string;
  path: string[];
  severity: number;
}

async function lint(file: string): Promise<{ exitCode: number; results: SpectralResult[] }> {
  const args = ["lint", file, "--ruleset", ".spectral.yaml", "--format", "json", "--fail-severity", "warn", "--quiet"];
  try {
    const { stdout } = await run(spectral, args, { cwd: root });
    return { exitCode: 0, results: JSON.parse(stdout || "[]") as SpectralResult[] };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { exitCode: failed.code, results: JSON.parse(failed.stdout || "[]") as SpectralResult[] };
  }
}

describe("spec/openapi.yaml", () => {
  it("is a valid OpenAPI 3.1.0 document", async () => {
    const api = await SwaggerParser.validate(specPath);
    expect((api as { openapi?: string }).openapi).toBe("3.1.0");
  });

  it("lints clean: no warning or error", async () => {
    const { exitCode, results } = await lint("spec/openapi.yaml");
    expect(results).toEqual([]);
    expect(exitCode).toBe(0);
  });
});

describe("the project rules catch what they exist for", () => {
  const fixture = "test/fixtures/lint/violations.yaml";
  const expected: [string, string][] = [
    ["operation-operationid-camel-case", "paths./a.post.operationId"],
    ["operation-operationid-camel-case", "paths./b.get"],
    ["operation-secured", "paths./a.post.security"],
    ["operation-secured", "paths./b.get.security"],
    ["success-response-schema", "paths./a.post.responses.200"],
    ["success-response-schema", "paths./a.post.responses.201.content.application/json"],
    ["request-string-bounded", "paths./a.post.requestBody.content.application/json.schema.properties.name"],
    [
      "request-string-bounded",
      "paths./a.post.requestBody.content.application/json.schema.properties.nested.properties.deep",
    ],
    ["body-examples-present", "paths./a.post.responses.201.content.application/json"],
    ["body-examples-present", "paths./b.get.responses.200.content.application/json"],
    ["oas3-valid-media-example", "paths./a.post.requestBody.content.application/json.examples.bad.value.ok"],
  ];

  it("exits non-zero and reports each violation at its place", async () => {
    const { exitCode, results } = await lint(fixture);
    expect(exitCode).not.toBe(0);
    const found = results.map((r) => [r.code, r.path.join(".")]);
    for (const row of expected) expect(found).toContainEqual(row);
    const bounded = found.filter(([code]) => code === "request-string-bounded").map(([, path]) => path);
    expect(bounded.some((path) => path?.endsWith(".ok") || path?.endsWith(".why"))).toBe(false);
  });
});
