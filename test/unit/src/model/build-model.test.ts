/** The ApiModel built from small spec fragments, checked as explicit literals. */
import { describe, expect, it } from "vitest";
import { buildModel, type LoadedSpec } from "../../../../src/index.js";

function load(document: Record<string, unknown>, version: "3.0" | "3.1" = "3.1"): LoadedSpec {
  const file = "/specs/fragment.yaml";
  return {
    file,
    document,
    files: [file],
    version,
    locate: (pointer) => ({ file, pointer }),
    resolvePositions: async (diagnostics) => [...diagnostics],
    diagnostics: [],
  };
}

const base = { openapi: "3.1.0", info: { title: "Fragment", version: "2" } };

describe("operations", () => {
  const document = {
    ...base,
    servers: [{ url: "{origin}/v1/", variables: { origin: { default: "https://api.example.com" } } }],
    security: [{ key: [] }],
    paths: {
      "/items/{id}": {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        get: {
          operationId: "getItem",
          summary: "One item",
          parameters: [
            { name: "fields", in: "query", schema: { type: "array", items: { type: "string" } } },
            { name: "X-Trace", in: "header", schema: { type: "string" } },
          ],
          responses: {
            default: { description: "Problem" },
            "200": {
              description: "The item",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } } },
            },
            "4XX": { description: "Client error" },
          },
        },
      },
      "/items": {
        post: {
          security: [],
          requestBody: {
            required: true,
            content: {
              "multipart/form-data": {
                schema: {
                  type: "object",
                  properties: { photo: { type: "string", format: "binary" }, note: { type: "string" } },
                },
              },
            },
          },
          responses: { "201": { description: "Created" } },
        },
      },
    },
    components: {
      securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Key" } },
      schemas: { Item: { type: "object", properties: { id: { type: "integer", readOnly: true } } } },
    },
  };
  const { model, diagnostics } = buildModel(load(document), "specs/fragment.yaml");

  it("reads servers, base path and security schemes", () => {
    expect(model.source).toEqual({
      specPath: "specs/fragment.yaml",
      openapiVersion: "3.1",
      title: "Fragment",
      version: "2",
    });
    expect(model.basePath).toBe("/v1");
    expect(model.servers).toEqual([
      { url: "{origin}/v1/", variables: [{ name: "origin", default: "https://api.example.com" }] },
    ]);
    expect(model.securitySchemes).toEqual([
      {
        name: "key",
        pointer: "#/components/securitySchemes/key",
        type: "apiKey",
        in: "header",
        parameterName: "X-Key",
      },
    ]);
  });

  it("sorts operations by id and derives a missing operationId with a warning", () => {
    expect(model.operations.map((o) => [o.id, o.derivedId, o.method, o.path])).toEqual([
      ["getItem", false, "get", "/items/{id}"],
      ["postItems", true, "post", "/items"],
    ]);
    expect(diagnostics.map((d) => [d.code, d.location?.pointer])).toEqual([
      ["OPERATION_ID_MISSING", "#/paths/~1items/post"],
    ]);
  });

  it("groups parameters by location, path-level ones included", () => {
    const [getItem] = model.operations;
    expect(getItem?.parameters).toEqual({
      path: [
        {
          name: "id",
          in: "path",
          required: true,
          pointer: "#/paths/~1items~1{id}/parameters/0",
          schemaPointer: "#/paths/~1items~1{id}/parameters/0/schema",
          style: "simple",
          explode: false,
          isArray: false,
          scalar: true,
          deprecated: false,
        },
      ],
      query: [
        {
          name: "fields",
          in: "query",
          required: false,
          pointer: "#/paths/~1items~1{id}/get/parameters/0",
          schemaPointer: "#/paths/~1items~1{id}/get/parameters/0/schema",
          style: "form",
          explode: true,
          isArray: true,
          deprecated: false,
        },
      ],
      header: [
        {
          name: "X-Trace",
          in: "header",
          required: false,
          pointer: "#/paths/~1items~1{id}/get/parameters/1",
          schemaPointer: "#/paths/~1items~1{id}/get/parameters/1/schema",
          style: "simple",
          explode: false,
          isArray: false,
          scalar: true,
          deprecated: false,
        },
      ],
      cookie: [],
    });
  });

  it("orders responses (codes, ranges, default) and records body facts", () => {
    const [getItem, postItems] = model.operations;
    expect(getItem?.responses.map((r) => [r.status, r.success])).toEqual([
      ["200", true],
      ["4XX", false],
      ["default", false],
    ]);
    expect(getItem?.responses[0]?.contents).toEqual([
      {
        mediaType: "application/json",
        kind: "json",
        schemaPointer: "#/paths/~1items~1{id}/get/responses/200/content/application~1json/schema",
        componentRef: "Item",
        hasReadWrite: true,
        binaryFields: [],
        pointer: "#/paths/~1items~1{id}/get/responses/200/content/application~1json",
      },
    ]);
    expect(postItems?.requestBody).toEqual({
      required: true,
      pointer: "#/paths/~1items/post/requestBody",
      contents: [
        {
          mediaType: "multipart/form-data",
          kind: "multipart",
          schemaPointer: "#/paths/~1items/post/requestBody/content/multipart~1form-data/schema",
          hasReadWrite: false,
          binaryFields: ["photo"],
          pointer: "#/paths/~1items/post/requestBody/content/multipart~1form-data",
        },
      ],
    });
  });

  it("takes the operation's security, or the document's", () => {
    const [getItem, postItems] = model.operations;
    expect(getItem?.security).toEqual([{ schemes: [{ name: "key", scopes: [] }] }]);
    expect(postItems?.security).toEqual([]);
  });

  it("names every generated identifier", () => {
    const [getItem, postItems] = model.operations;
    expect(getItem?.names).toEqual({
      typeStem: "GetItem",
      method: "getItem",
      pathParamsType: "GetItemPathParams",
      pathParamsValidator: "validateGetItemPathParams",
      queryType: "GetItemQuery",
      queryValidator: "validateGetItemQuery",
      headersType: "GetItemHeaders",
      headersValidator: "validateGetItemHeaders",
      responseType: "GetItemResponse",
      responseTypes: { "200": "GetItemResponse200" },
      responseValidators: { "200": "validateGetItemResponse200" },
      bodyValidators: {},
      bodyItemValidators: {},
      bodySequenceValidators: {},
      itemValidators: {},
      itemDataValidators: {},
      sequenceValidators: {},
      sharedValidators: [],
    });
    expect(postItems?.names).toMatchObject({
      method: "postItems",
      bodyType: "PostItemsBody",
      bodyValidators: { "multipart/form-data": "validatePostItemsBody" },
      responseTypes: {},
    });
    expect(model.schemas).toEqual([
      {
        name: "Item",
        pointer: "#/components/schemas/Item",
        typeName: "Item",
        validatorName: "validateItem",
        guardName: "isItem",
        hasReadWrite: true,
      },
    ]);
    expect(model.usesReadWrite).toBe(true);
  });
});

describe("the naming authority", () => {
  const document = {
    ...base,
    paths: {
      "/a": {
        get: {
          operationId: "list-items",
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/ListItemsResponse" } } },
            },
          },
        },
      },
      "/b": { get: { operationId: "listItems", responses: { "200": { description: "ok" } } } },
    },
    components: {
      schemas: {
        Record: { type: "object" },
        "my-thing": { type: "string" },
        my_thing: { type: "string" },
        ListItemsResponse: { type: "object" },
      },
    },
  };
  const { model, diagnostics } = buildModel(load(document), "fragment.yaml");

  it("adjusts reserved and colliding schema names, and says so", () => {
    expect(model.schemas.map((s) => [s.name, s.typeName])).toEqual([
      ["ListItemsResponse", "ListItemsResponse"],
      ["Record", "RecordSchema"],
      ["my-thing", "MyThing"],
      ["my_thing", "MyThing2"],
    ]);
    expect(diagnostics.filter((d) => d.code === "NAME_ADJUSTED").map((d) => d.message)).toEqual([
      'schema "Record": generated name "RecordSchema" instead of "Record" ("Record" is reserved by the generated code)',
      'schema "my_thing": generated name "MyThing2" instead of "MyThing" ("MyThing" is already taken by schema "my-thing")',
      'operation listItems: generated name "ListItemsResponse2" instead of "ListItemsResponse" ("ListItemsResponse" is already taken by schema "ListItemsResponse")',
    ]);
    // validator names derive from the adjusted type names, so they need no adjustment of their own
    expect(model.schemas.map((s) => [s.validatorName, s.guardName])).toContainEqual(["validateMyThing2", "isMyThing2"]);
  });

  it("shares a component's name when the body is exactly that component", () => {
    expect(model.operations.find((o) => o.id === "list-items")?.names.responseType).toBe("ListItemsResponse");
  });

  it("shares a component's validator, and says so as data", () => {
    const names = model.operations.find((o) => o.id === "list-items")?.names;
    expect(names?.responseValidators).toEqual({ "200": "validateListItemsResponse" });
    expect(names?.sharedValidators).toEqual(["validateListItemsResponse"]);
  });

  it("reports two operations that would get the same method name", () => {
    expect(diagnostics.filter((d) => d.code === "NAME_COLLISION").map((d) => d.message)).toEqual([
      'operationIds "list-items" and "listItems" both become the method name "listItems"',
    ]);
  });
});

describe("method names a client cannot carry", () => {
  const document = {
    ...base,
    paths: { "/p": { get: { operationId: "then", responses: { "204": { description: "ok" } } } } },
  };
  const { model, diagnostics } = buildModel(load(document), "fragment.yaml");

  it("become <name>Operation, with a warning", () => {
    expect(model.operations[0]?.names.method).toBe("thenOperation");
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        "NAME_ADJUSTED",
        'operation then: method name "thenOperation" instead of "then" (a client method cannot be named "then")',
      ],
    ]);
  });
});

describe("cookie parameters", () => {
  const document = {
    ...base,
    paths: {
      "/p": {
        get: {
          operationId: "getP",
          parameters: [{ name: "session", in: "cookie", schema: { type: "string" } }],
          responses: { "204": { description: "ok" } },
        },
      },
    },
  };
  const { model, diagnostics } = buildModel(load(document), "fragment.yaml");

  it("are modelled, named and generated without a warning", () => {
    expect(model.operations[0]?.parameters.cookie.map((p) => p.name)).toEqual(["session"]);
    expect(model.operations[0]?.names).toMatchObject({
      cookiesType: "GetPCookies",
      cookiesValidator: "validateGetPCookies",
    });
    expect(diagnostics).toEqual([]);
  });

  it("of a style OpenAPI does not define for cookies leave the operation out, with a warning", () => {
    const parameter = { name: "session", in: "cookie", style: "simple", schema: { type: "string" } };
    const simple = { ...base, paths: { "/p": { get: { ...document.paths["/p"].get, parameters: [parameter] } } } };
    const built = buildModel(load(simple), "fragment.yaml");
    expect(built.model.operations).toEqual([]);
    expect(built.diagnostics.map((d) => [d.code, d.location?.pointer])).toEqual([
      ["NOT_GENERATED", "#/paths/~1p/get/parameters/0"],
    ]);
    expect(built.diagnostics[0]?.message).toMatch(
      /cookie parameter "session" uses style "simple".*\(for cookie parameters: form\)/,
    );
  });
});

describe("object parameters", () => {
  const parameters = [
    { name: "near", in: "query", style: "form", explode: false, schema: { $ref: "#/components/schemas/Point" } },
    { name: "range", in: "query", schema: { type: ["object", "null"], properties: { min: {}, max: {} } } },
    { name: "meta", in: "query", schema: { additionalProperties: { type: "string" } } },
    { name: "ids", in: "query", schema: { type: ["array", "object"], items: {} } },
    { name: "q", in: "query", schema: { type: "string" } },
  ];
  const document = {
    ...base,
    paths: { "/p": { get: { operationId: "getP", parameters, responses: { "204": { description: "ok" } } } } },
    components: {
      schemas: { Point: { type: "object", properties: { lat: { type: "number" }, lon: { type: "number" } } } },
    },
  };
  const { model } = buildModel(load(document), "fragment.yaml");

  it("record the names of their properties (after $refs); arrays and scalars have none", () => {
    const query = model.operations[0]?.parameters.query ?? [];
    expect(Object.fromEntries(query.map((p) => [p.name, p.objectProperties]))).toEqual({
      ids: undefined,
      meta: [],
      near: ["lat", "lon"],
      q: undefined,
      range: ["min", "max"],
    });
  });

  it("are scalars only when their type names scalar types alone", () => {
    const scalars = (list: readonly { name: string; scalar?: true }[]): string[] =>
      list.filter((p) => p.scalar === true).map((p) => p.name);
    expect(scalars(model.operations[0]?.parameters.query ?? [])).toEqual(["q"]);
    const typed = [
      { name: "a", in: "query", schema: { type: ["integer", "null"] } },
      { name: "b", in: "query", schema: { type: "null" } },
      { name: "c", in: "query", schema: { enum: ["x", "y"] } },
      { name: "d", in: "query", schema: { $ref: "#/components/schemas/Flag" } },
      { name: "e", in: "query", content: { "application/json": { schema: { type: "string" } } } },
    ];
    const built = buildModel(
      load({
        ...base,
        paths: {
          "/p": { get: { operationId: "getP", parameters: typed, responses: { "204": { description: "ok" } } } },
        },
        components: { schemas: { Flag: { type: "boolean" } } },
      }),
      "fragment.yaml",
    );
    expect(scalars(built.model.operations[0]?.parameters.query ?? [])).toEqual(["a", "d"]);
  });
});
