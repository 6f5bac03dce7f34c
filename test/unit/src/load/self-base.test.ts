/**
 * OpenAPI 3.2's `$self` as the base URI of a document's references
 * (test/fixtures/multi-file/self/): an absolute `$self` makes a path from the root of its origin
 * and an absolute URL beside it the files beside the document; a relative one moves the base
 * before any reference reads against it; the operation filters read Path Items through it too; a
 * reference it turns into a URL no file stands for is refused, naming it; and a URI another
 * document names itself by (its `$self`) is that document, found among those beside the entry.
 */
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../../../../src/index.js";
import { resolvePointer } from "../../../../src/json-pointer.js";
import { loadSpec } from "../../../../src/load/load-spec.js";
import { repoRoot } from "../../../support/paths.js";
import { refusalMessages } from "../../../support/refusal.js";
import { listTypeScript, typecheck } from "../../../support/typecheck.js";

const fixtures = join(repoRoot, "test/fixtures/multi-file/self");
const absolute = join(fixtures, "v2", "openapi.yaml");
const relative = join(fixtures, "relative", "openapi.yaml");
const identity = join(fixtures, "identity", "openapi.yaml");
const out = join(repoRoot, ".tmp", `self-base-${process.pid}`);
afterAll(() => rm(out, { recursive: true, force: true }));

describe("an absolute $self", () => {
  it("reads a path from the root of its origin and a URL beside it from the files beside the document", async () => {
    const { document, files } = await loadSpec(absolute);
    expect(files.map((file) => file.slice(fixtures.length + 1)).sort()).toEqual([
      "common/problem.yaml",
      "common/responses.yaml",
      "v2/openapi.yaml",
      "v2/paths/pet.yaml",
      "v2/schemas/pet.yaml",
    ]);
    expect(resolvePointer(document, "#/paths/~1pets~1{id}/get/operationId")).toBe("getPet");
    expect(resolvePointer(document, "#/components/schemas/pet/required")).toEqual(["id", "name"]);
    expect(resolvePointer(document, "#/components/schemas/problem/required")).toEqual(["title", "status"]);
  });

  it("generates a package whose validators and types are the files' schemas", { timeout: 120_000 }, async () => {
    const result = await generate({ spec: absolute, out: join(out, "absolute") });
    expect(result.diagnostics).toEqual([]);
    const validators = (await import(join(out, "absolute", "validators", "index.ts"))) as Record<
      string,
      (value: unknown) => { valid: boolean }
    >;
    expect(validators.validatePet?.({ id: 1, name: "Rex" }).valid).toBe(true);
    expect(validators.validatePet?.({ id: 0, name: "Rex" }).valid).toBe(false);
    expect(validators.validateProblem?.({ title: "Gone", status: 410 }).valid).toBe(true);
    expect(typecheck(listTypeScript(join(out, "absolute")))).toEqual([]);
  });

  it("is what makes them files: without it, a path from the root is one of the disk", async () => {
    const text = (await readFile(absolute, "utf8")).replace(/^\$self: .*\n/m, "");
    const messages = await refusalMessages(loadSpec(absolute, text));
    expect(messages).toEqual([
      "REF_EXTERNAL_FAILED ENOENT: no such file or directory, open '/pets/common/responses.yaml'",
    ]);
  });

  it("lets the operation filters read a Path Item through it", async () => {
    const generated = await generate({
      spec: absolute,
      out: join(out, "filtered"),
      operations: { include: ["getPet"] },
    });
    expect(generated.model.operations.map((operation) => operation.id)).toEqual(["getPet"]);
  });

  it("refuses a reference it turns into a URL of another origin, naming the URL", async () => {
    const text = (await readFile(absolute, "utf8")).replace(
      "$ref: /pets/common/responses.yaml#/Problem",
      "$ref: //cdn.example.org/common/responses.yaml#/Problem",
    );
    expect(await refusalMessages(loadSpec(absolute, text))).toEqual([
      expect.stringMatching(
        /^REF_EXTERNAL_FAILED the \$ref "\/\/cdn\.example\.org\/common\/responses\.yaml#\/Problem" at .* reads against the document's \$self as https:\/\/cdn\.example\.org\/common\/responses\.yaml#\/Problem, which is not a file of the document/,
      ),
    ]);
  });
});

describe("a relative $self", () => {
  it("is read against the document's place, then is the base of its references", async () => {
    const { document } = await loadSpec(relative);
    expect(resolvePointer(document, "#/components/schemas/pet")).toEqual({
      type: "object",
      required: ["name"],
      properties: { name: { type: "string" } },
    });
    const without = (await readFile(relative, "utf8")).replace(/^\$self: .*\n/m, "");
    const plain = await loadSpec(relative, without);
    expect(resolvePointer(plain.document, "#/components/schemas/pet/required")).toEqual(["legacyName"]);
  });
});

describe("a $self as another document's identity", () => {
  it("finds the document a URI names among those beside the entry, by their $self", async () => {
    const { document, files } = await loadSpec(identity);
    expect(files.map((file) => file.slice(fixtures.length + 1)).sort()).toEqual([
      "identity/catalog.yaml",
      "identity/openapi.yaml",
      "identity/shared/errors.yaml",
    ]);
    expect(resolvePointer(document, "#/components/schemas/Item/required")).toEqual(["sku", "price"]);
    expect(resolvePointer(document, "#/components/schemas/Problem/required")).toEqual(["title", "status"]);
  });

  it("generates validators of the schemas found so", { timeout: 120_000 }, async () => {
    const result = await generate({ spec: identity, out: join(out, "identity") });
    expect(result.diagnostics).toEqual([]);
    const validators = (await import(join(out, "identity", "validators", "index.ts"))) as Record<
      string,
      (value: unknown) => { valid: boolean }
    >;
    expect(validators.validateItem?.({ sku: "ABC-123", price: 2 }).valid).toBe(true);
    expect(validators.validateItem?.({ sku: "abc", price: 2 }).valid).toBe(false);
    expect(validators.validateProblem?.({ title: "Gone", status: 410 }).valid).toBe(true);
  });

  it("refuses a URI that no document beside the entry names itself by, naming the URI", async () => {
    const text = (await readFile(identity, "utf8")).replace(
      "https://schemas.example.org/errors/openapi.yaml#",
      "https://schemas.example.org/faults/openapi.yaml#",
    );
    // an absolute URI no document names is left to the bundler, which cannot download it either
    expect(await refusalMessages(loadSpec(identity, text))).toEqual([
      expect.stringMatching(/^REF_EXTERNAL_FAILED .*https:\/\/schemas\.example\.org\/faults\/openapi\.yaml/),
    ]);
  });
});
