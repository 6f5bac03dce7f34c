/**
 * Every kind of bad input gets its diagnostic: the code, the JSON pointer and the line and column
 * in the file, so the user can go straight to the problem.
 */
import { describe, expect, it } from "vitest";
import { type Diagnostic, GenerationFailed, generate } from "../../../../src/index.js";
import { makeTempDir } from "../../../support/paths.js";

async function failureOf(fixture: string): Promise<Diagnostic[]> {
  const out = await makeTempDir("diagnostics");
  try {
    await generate({ spec: `test/fixtures/invalid/${fixture}`, out, check: true });
  } catch (error) {
    if (error instanceof GenerationFailed) return [...error.diagnostics];
    throw error;
  }
  throw new Error(`${fixture} generated without errors`);
}

function errorsOf(
  diagnostics: readonly Diagnostic[],
): [string, string | undefined, number | undefined, number | undefined][] {
  return diagnostics
    .filter((d) => d.severity === "error")
    .map((d) => [d.code, d.location?.pointer, d.location?.line, d.location?.column]);
}

const cases: { fixture: string; code: string; pointer: string; line?: number; column?: number; message: RegExp }[] = [
  {
    fixture: "syntax.yaml",
    code: "SPEC_SYNTAX",
    pointer: "",
    line: 8,
    column: 20,
    message: /Nested mappings are not allowed/,
  },
  {
    fixture: "duplicate-key.yaml",
    code: "SPEC_SYNTAX",
    pointer: "",
    line: 6,
    column: 1,
    message: /Map keys must be unique/,
  },
  { fixture: "not-openapi.yaml", code: "SPEC_NOT_OPENAPI", pointer: "", message: /no `openapi` version field/ },
  {
    fixture: "swagger-1.2.yaml",
    code: "UNSUPPORTED_VERSION",
    pointer: "#/swagger",
    line: 1,
    column: 1,
    message: /Swagger "1.2" is not supported \(Swagger "2.0" and OpenAPI 3.0.x, 3.1.x and 3.2.x are\)/,
  },
  {
    fixture: "swagger-2-unresolved-ref.yaml",
    code: "REF_UNRESOLVED",
    pointer: "#/paths/~1pets/post/parameters/0/schema/$ref",
    line: 16,
    column: 13,
    message: /"#\/definitions\/Pett" does not resolve/,
  },
  {
    // found once upgraded to 3.0, placed in the 2.0 file
    fixture: "swagger-2-path-parameter.yaml",
    code: "OAS_INVALID",
    pointer: "#/paths/~1pets~1{id}/get",
    line: 7,
    column: 5,
    message: /no path parameter "id" is declared/,
  },
  {
    // OpenAPI 3.2: the whole query string is one value, so no query parameter goes beside it
    fixture: "querystring-beside-query.yaml",
    code: "OAS_INVALID",
    pointer: "#/paths/~1events/get/parameters",
    line: 7,
    column: 7,
    message: /has `in: query` parameters beside an `in: querystring` one/,
  },
  {
    // the Path Item's querystring, the operation's query parameter: each list alone is valid
    fixture: "querystring-inherited.yaml",
    code: "OAS_INVALID",
    pointer: "#/paths/~1events/get/parameters/0",
    line: 14,
    column: 11,
    message: /query parameter "timezone" beside the `in: querystring` parameter "criteria"/,
  },
  {
    fixture: "schema-invalid.yaml",
    code: "OAS_INVALID",
    pointer: "#/info",
    line: 2,
    column: 1,
    message: /must have required property 'version'/,
  },
  {
    fixture: "unresolved-ref.yaml",
    code: "REF_UNRESOLVED",
    pointer: "#/paths/~1venues/get/responses/200/content/application~1json/schema/$ref",
    line: 15,
    column: 17,
    message: /"#\/components\/schemas\/Venu" does not resolve/,
  },
  {
    fixture: "duplicate-operation-id.yaml",
    code: "OPERATION_ID_DUPLICATE",
    pointer: "#/paths/~1venues/get",
    line: 7,
    column: 5,
    message: /"venues" of GET \/venues is also used by GET \/events/,
  },
  {
    fixture: "name-collision.yaml",
    code: "NAME_COLLISION",
    pointer: "#/paths/~1events~1all/get",
    line: 13,
    column: 5,
    message: /"list-events" and "listEvents" both become the method name "listEvents"/,
  },
  {
    fixture: "path-parameter-missing.yaml",
    code: "OAS_INVALID",
    pointer: "#/paths/~1workers~1{id}/get",
    line: 7,
    column: 5,
    message: /no path parameter "id" is declared/,
  },
  {
    fixture: "schema-error.yaml",
    code: "SCHEMA_INVALID",
    pointer: "#/components/schemas/Thing/properties/name/type",
    line: 23,
    column: 11,
    message: /unknown type "strnig"/,
  },
  { fixture: "missing-file.yaml", code: "SPEC_NOT_FOUND", pointer: "", message: /does not exist/ },
];

describe("diagnostics for invalid specs", () => {
  it.each(cases)("$fixture → $code", async ({ fixture, code, pointer, line, column, message }) => {
    const diagnostics = await failureOf(fixture);
    expect(errorsOf(diagnostics)).toEqual([[code, pointer, line, column]]);
    const [error] = diagnostics.filter((d) => d.severity === "error");
    expect(error?.message).toMatch(message);
    expect(error?.hint.length).toBeGreaterThan(10);
    expect(error?.location?.file).toMatch(new RegExp(`${fixture.replace(".", "\\.")}$`));
  });

  it("a Swagger 2.0 document is checked against the 2.0 schema, each fault at its own place", async () => {
    const diagnostics = await failureOf("swagger-2-invalid.yaml");
    expect(errorsOf(diagnostics)).toEqual([
      ["OAS_INVALID", "#/paths/~1pets/get/parameters/0/in", 11, 11],
      ["OAS_INVALID", "#/paths/~1pets/get/parameters/0/collectionFormat", 13, 11],
    ]);
  });

  it("an operation with a matrix path parameter is generated, with no warning", async () => {
    const out = await makeTempDir("diagnostics");
    const result = await generate({ spec: "test/fixtures/invalid/matrix-style.yaml", out, check: true });
    expect(result.diagnostics).toEqual([]);
    expect(result.model.operations.map((operation) => operation.id)).toEqual(["getColor"]);
  });

  it("a missing operationId is a warning with a derived name, and generation goes on", async () => {
    const out = await makeTempDir("diagnostics");
    const result = await generate({ spec: "test/fixtures/invalid/missing-operation-id.yaml", out, check: true });
    expect(result.diagnostics.map((d) => [d.code, d.severity, d.location?.pointer, d.location?.line])).toEqual([
      ["OPERATION_ID_MISSING", "warning", "#/paths/~1venues~1{venueId}/get", 7],
    ]);
    expect(result.model.operations.map((o) => o.id)).toEqual(["getVenuesByVenueId"]);
  });
});
