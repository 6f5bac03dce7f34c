/**
 * A pointer into a Swagger 2.0 document upgraded to OpenAPI 3.0 is read back into the 2.0
 * document along the upgrade's moves, then cut to the deepest place the 2.0 document has.
 */
import { describe, expect, it } from "vitest";
import { originalPointer } from "../../../../src/load/upgrade-positions.js";

const swagger = {
  swagger: "2.0",
  host: "pets.example.com",
  paths: {
    "/pets/{id}": {
      parameters: [{ name: "id", in: "path", required: true, type: "string" }],
      put: {
        parameters: [
          { name: "dryRun", in: "query", type: "boolean" },
          { name: "pet", in: "body", schema: { $ref: "#/definitions/Pet" } },
          { name: "trace", in: "header", type: "array", items: { type: "string" } },
        ],
        responses: { "200": { description: "ok", schema: { type: "object" }, headers: { ETag: { type: "string" } } } },
      },
      post: { parameters: [{ $ref: "#/parameters/note" }, { name: "file", in: "formData", type: "file" }] },
    },
  },
  parameters: {
    note: { name: "note", in: "formData", type: "string" },
    limit: { name: "limit", in: "query", type: "integer" },
  },
  responses: { Gone: { description: "gone", schema: { type: "string" } } },
  definitions: { Pet: { properties: { name: { type: "string" } } } },
  securityDefinitions: { oauth: { type: "oauth2", flow: "implicit", authorizationUrl: "https://a" } },
};

describe("pointers of an upgraded 2.0 document, in the 2.0 document", () => {
  it.each([
    ["#/components/schemas/Pet/properties/name/type", "#/definitions/Pet/properties/name/type"],
    ["#/components/parameters/limit/schema/type", "#/parameters/limit/type"],
    ["#/components/responses/Gone/content/application~1json/schema/type", "#/responses/Gone/schema/type"],
    [
      "#/components/securitySchemes/oauth/flows/implicit/authorizationUrl",
      "#/securityDefinitions/oauth/authorizationUrl",
    ],
    ["#/servers/0/url", "#/host"],
    ["#/paths/~1pets~1{id}/parameters/0/schema/type", "#/paths/~1pets~1{id}/parameters/0/type"],
    ["#/paths/~1pets~1{id}/put/parameters/1/schema/items/type", "#/paths/~1pets~1{id}/put/parameters/2/items/type"],
    [
      "#/paths/~1pets~1{id}/put/requestBody/content/application~1json/schema/$ref",
      "#/paths/~1pets~1{id}/put/parameters/1/schema/$ref",
    ],
    ["#/paths/~1pets~1{id}/put/requestBody/content/application~1json", "#/paths/~1pets~1{id}/put/parameters/1"],
    [
      "#/paths/~1pets~1{id}/put/responses/200/content/application~1json/schema/type",
      "#/paths/~1pets~1{id}/put/responses/200/schema/type",
    ],
    [
      "#/paths/~1pets~1{id}/put/responses/200/headers/ETag/schema/type",
      "#/paths/~1pets~1{id}/put/responses/200/headers/ETag/type",
    ],
    [
      "#/paths/~1pets~1{id}/post/requestBody/content/multipart~1form-data/schema/properties/file/format",
      "#/paths/~1pets~1{id}/post/parameters/1",
    ],
    ["#/paths/~1pets~1{id}/put/x-made-up/deeper", "#/paths/~1pets~1{id}/put"],
    ["#/info/title", "#"],
  ])("%s → %s", (pointer, expected) => {
    expect(originalPointer(pointer, swagger)).toBe(expected);
  });
});
