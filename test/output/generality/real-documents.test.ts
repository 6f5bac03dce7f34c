/**
 * Published descriptions of other versions (test/fixtures/real-documents/, with their licences):
 * three Swagger 2.0 documents, read through the upgrader, and two OpenAPI 3.2 ones each generate
 * with no error and their output typechecks under strict, together.
 */
import { readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../../../src/index.js";
import { repoRoot } from "../../support/paths.js";
import { listTypeScript, typecheck } from "../../support/typecheck.js";

const folder = join(repoRoot, "test/fixtures/real-documents");
const documents = readdirSync(folder)
  .filter((name) => name.endsWith(".yaml"))
  .sort();
const out = join(repoRoot, ".tmp", `real-documents-${process.pid}`);
afterAll(() => rm(out, { recursive: true, force: true }));

describe("published Swagger 2.0 and OpenAPI 3.2 documents", () => {
  it("are three of 2.0 and two of 3.2", () => {
    expect(documents.filter((name) => name.startsWith("swagger-2.0-"))).toHaveLength(3);
    expect(documents.filter((name) => name.startsWith("openapi-3.2-"))).toHaveLength(2);
  });

  it.each(documents)("%s generates", async (name) => {
    const result = await generate({ spec: join(folder, name), out: join(out, name.replace(".yaml", "")) });
    expect(result.diagnostics.filter((diagnostic) => diagnostic.severity === "error")).toEqual([]);
    expect(result.model.source.upgradedFrom).toBe(name.startsWith("swagger-2.0-") ? "2.0" : undefined);
    expect(result.model.operations.length).toBeGreaterThan(0);
  });

  it("their output typechecks", { timeout: 300_000 }, () => {
    expect(typecheck(listTypeScript(out))).toEqual([]);
  });
});
