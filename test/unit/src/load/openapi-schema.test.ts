/**
 * The OpenAPI schema check compiled once per process gives exactly the errors of swagger-parser's
 * own check, for 2.0, 3.0 and 3.1 documents, valid and not, but for the defects of its 3.1 schema that
 * are mended (src/load/validator-defects.ts).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { openApiSchemaCheck } from "../../../../src/load/openapi-schema.js";
import { repoRoot } from "../../../support/paths.js";

const swaggerParserCheck = createRequire(import.meta.url)("@apidevtools/swagger-parser/lib/validators/schema.js") as (
  api: unknown,
) => void;

/** swagger-parser's verdict: the errors it throws with, or [] when it accepts the document. */
function swaggerParserErrors(document: unknown): unknown[] {
  try {
    swaggerParserCheck(structuredClone(document));
    return [];
  } catch (error) {
    return (error as { details: unknown[] }).details;
  }
}

function ours(document: Record<string, unknown>): unknown[] {
  const check = openApiSchemaCheck(document["openapi"]);
  if (check === undefined) return expect.fail(`no check for ${String(document["openapi"])}`);
  return check(document) ? [] : [...(check.errors ?? [])];
}

const spec = parse(readFileSync(join(repoRoot, "spec/openapi.yaml"), "utf8")) as Record<string, unknown>;
const broken30 = {
  openapi: "3.0.3",
  info: { title: "t" },
  paths: { "/a": { get: { responses: { "200": { description: 1 } }, parameters: [{ name: "x", in: "nowhere" }] } } },
};

describe("the OpenAPI schema check", () => {
  it.each([
    ["the spec (3.1, valid)", spec],
    [
      "the spec with a misplaced $ref and a bad type (3.1)",
      { ...spec, info: { $ref: "#/x" }, paths: { "/a": { get: { responses: { "200": { description: 5 } } } } } },
    ],
    ["a 3.0 document with three defects", broken30],
    ["a valid 3.0 document", { ...broken30, info: { title: "t", version: "1" }, paths: {} }],
  ])("gives swagger-parser's errors: %s", (_label, document) => {
    const expected = swaggerParserErrors(document);
    expect(ours(document)).toEqual(expected);
  });

  it("finds the defects it is shown, and is compiled once per version", () => {
    expect(ours(broken30).length).toBeGreaterThan(2);
    expect(ours({ ...spec, info: { $ref: "#/x" } }).length).toBeGreaterThan(0);
    expect(openApiSchemaCheck("3.1.0")).toBe(openApiSchemaCheck("3.1.1"));
    expect(openApiSchemaCheck("3.0.0")).toBe(openApiSchemaCheck("3.0.3"));
    expect(openApiSchemaCheck("3.0.0")).not.toBe(openApiSchemaCheck("3.1.0"));
  });

  it("accepts a Path Item Object given by $ref, which swagger-parser's 3.1 schema refuses", () => {
    const item = { get: { responses: { "204": { description: "none" } } } };
    const document = {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: { "/a": { $ref: "#/components/pathItems/A", summary: "a" } },
      webhooks: { a: { $ref: "#/components/pathItems/A" } },
      components: { pathItems: { A: item, B: { $ref: "#/components/pathItems/A" } } },
    };
    expect(swaggerParserErrors(document)).not.toEqual([]);
    expect(ours(document)).toEqual([]);
    const misplaced = { ...document, paths: { "/a": { $ref: "#/components/pathItems/A", get: { $ref: "#/x" } } } };
    expect(ours(misplaced)).not.toEqual([]);
  });

  it("checks Swagger 2.0 as swagger-parser does, and has none for other versions", () => {
    const swagger = { swagger: "2.0", info: { title: "t", version: "1" }, paths: { "/a": { get: {} } } };
    const check = openApiSchemaCheck("2.0");
    expect(check?.(swagger)).toBe(false);
    expect(swaggerParserErrors(swagger)).toEqual(check?.errors);
    expect(openApiSchemaCheck("1.2")).toBeUndefined();
    expect(openApiSchemaCheck(undefined)).toBeUndefined();
    expect(openApiSchemaCheck(3.1)).toBeUndefined();
  });
});

describe("the OpenAPI 3.2 schema check (OAI's published schema)", () => {
  const operation = { responses: { "200": { summary: "Found" } } };
  const valid = {
    openapi: "3.2.0",
    $self: "https://example.com/api/openapi.yaml",
    info: { title: "t", version: "1" },
    servers: [{ url: "https://example.com", name: "production" }],
    tags: [
      { name: "a", summary: "A" },
      { name: "b", parent: "a", kind: "nav" },
    ],
    paths: {
      "/a": {
        query: operation,
        additionalOperations: { PURGE: operation },
        get: { parameters: [{ name: "q", in: "querystring", content: { "application/json": {} } }], ...operation },
      },
    },
    components: { mediaTypes: { Events: { itemSchema: { type: "object" } } } },
  };
  const invalid = (path: Record<string, unknown>): unknown[] => ours({ ...valid, paths: { "/a": path } });

  it("accepts every field 3.2 adds", () => {
    expect(ours(valid)).toEqual([]);
    expect(openApiSchemaCheck("3.2.0")).toBe(openApiSchemaCheck("3.2.1"));
    expect(openApiSchemaCheck("3.2.0")).not.toBe(openApiSchemaCheck("3.1.0"));
  });

  it("refuses what 3.2 forbids", () => {
    expect(invalid({ additionalOperations: { POST: operation } })).not.toEqual([]);
    const both = [
      { name: "q", in: "querystring", content: { "application/json": {} } },
      { name: "r", in: "query", schema: {} },
    ];
    expect(invalid({ get: { ...operation, parameters: both } })).not.toEqual([]);
    expect(invalid({ get: { ...operation, parameters: [{ name: "q", in: "querystring", schema: {} }] } })).not.toEqual(
      [],
    );
    expect(ours({ ...valid, $self: "https://example.com/a#b" })).not.toEqual([]);
  });
});
