/**
 * References into other files read as JSON Schema 2020-12 reads them: against the `$id`s around
 * them (a pointer within a schema with `$id` starts at that schema), and to an `$anchor` of
 * another file; and where a reference cannot be read from a file (an `$id` that is a URL), or an
 * anchor is missing, one error that says which reference and why, never a guess at a file.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolvePointer } from "../../../../src/json-pointer.js";
import { loadSpec } from "../../../../src/load/load-spec.js";
import { refusalMessages } from "../../../support/refusal.js";

const folder = join("/", "virtual", "api");

/** Loads a 3.1 document whose components refer to `ref`, the other files given by name. */
function load(ref: string, files: Readonly<Record<string, string>>): ReturnType<typeof loadSpec> {
  const root = `openapi: 3.1.0\ninfo: {title: t, version: "1"}\ncomponents:\n  schemas:\n    User:\n      type: object\n      properties:\n        box:\n          $ref: '${ref}'\n`;
  return loadSpec(join(folder, "openapi.yaml"), root, async (file) => {
    const text = files[file.slice(folder.length + 1)];
    if (text === undefined) throw new Error(`ENOENT: ${file}`);
    return text;
  });
}

describe("references into other files", () => {
  it("reads a pointer within a schema with a relative $id from that schema", async () => {
    const other = [
      "$defs:",
      "  Box:",
      "    $id: ./box/",
      "    properties:",
      "      v: {$ref: '#/$defs/V'}",
      "    $defs:",
      "      V: {type: integer}",
      "  V: {type: string}",
    ].join("\n");
    const { document } = await load("./other.yaml#/$defs/Box", { "other.yaml": other });
    const box = resolvePointer(document, "#/components/schemas/Box") as Record<string, unknown>;
    expect(box.$id).toBeUndefined();
    const ref = (resolvePointer(box, "#/properties/v") as { $ref: string }).$ref;
    expect(resolvePointer(document, ref)).toEqual({ type: "integer" });
  });

  it("refuses a relative reference that an $id turns into a URL, naming both", async () => {
    const other = "$defs:\n  Box:\n    $id: https://example.com/schemas/\n    $ref: ./leaf.yaml\n";
    expect(
      await refusalMessages(load("./other.yaml#/$defs/Box", { "other.yaml": other, "leaf.yaml": "type: integer\n" })),
    ).toEqual([
      `REF_EXTERNAL_FAILED the $ref "./leaf.yaml" at ${join(folder, "other.yaml")}#/$defs/Box reads against the $id around it as https://example.com/schemas/leaf.yaml, which is not a file of the document: refer to the file by a path from this file, or give the $id as a path (such as "./schemas/")`,
    ]);
  });

  it("refuses a reference to an $anchor the other file does not declare", async () => {
    const other = "$defs:\n  Kind: {$anchor: kind, type: string}\n";
    expect(await refusalMessages(load("./other.yaml#kinds", { "other.yaml": other }))).toEqual([
      `REF_EXTERNAL_FAILED the $ref "./other.yaml#kinds" at ${join(folder, "openapi.yaml")}#/components/schemas/User/properties/box names the $anchor "kinds", which ${join(folder, "other.yaml")} does not declare: add "$anchor: kinds" to the schema meant, or refer to it by a JSON pointer`,
    ]);
  });

  it("bundles an OpenAPI 3.2 document of several files, keeping its version", async () => {
    const root = [
      "openapi: 3.2.0",
      'info: {title: t, version: "1"}',
      "paths:",
      "  /shapes:",
      "    query:",
      "      responses:",
      "        '200': {$ref: './answers.yaml#/Shapes'}",
    ].join("\n");
    const answers =
      "Shapes:\n  description: The shapes.\n  content:\n    application/json:\n      schema: {type: array}\n";
    const { document, files } = await loadSpec(join(folder, "openapi.yaml"), root, async (file) => {
      if (file !== join(folder, "answers.yaml")) throw new Error(`ENOENT: ${file}`);
      return answers;
    });
    expect(document.openapi).toBe("3.2.0");
    expect(files).toEqual([join(folder, "openapi.yaml"), join(folder, "answers.yaml")]);
    expect(resolvePointer(document, "#/paths/~1shapes/query/responses/200/description")).toBe("The shapes.");
  });

  it("reads a defaultMapping that names a schema of another file, as a mapping value, into a component", async () => {
    const root = [
      "openapi: 3.2.0",
      'info: {title: t, version: "1"}',
      "components:",
      "  schemas:",
      "    Shape:",
      "      anyOf: [{$ref: './shapes.yaml#/Circle'}]",
      "      discriminator: {propertyName: kind, defaultMapping: './shapes.yaml#/Sketch'}",
    ].join("\n");
    const shapes = "Circle: {type: object, required: [kind]}\nSketch: {type: object, required: [strokes]}\n";
    const { document } = await loadSpec(join(folder, "openapi.yaml"), root, async (file) => {
      if (file !== join(folder, "shapes.yaml")) throw new Error(`ENOENT: ${file}`);
      return shapes;
    });
    expect(resolvePointer(document, "#/components/schemas/Shape/discriminator")).toEqual({
      propertyName: "kind",
      defaultMapping: "#/components/schemas/Sketch",
    });
    expect(resolvePointer(document, "#/components/schemas/Sketch")).toEqual({ type: "object", required: ["strokes"] });
  });
});
