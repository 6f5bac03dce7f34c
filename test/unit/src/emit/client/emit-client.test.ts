/** The client emitter on hand-built models: the views it computes and the code it prints. */
import { describe, expect, it } from "vitest";
import { emitClient } from "../../../../../src/emit/client/emit-client.js";
import { buildMethodView } from "../../../../../src/emit/client/method-view.js";
import { buildOptionsView } from "../../../../../src/emit/client/options-view.js";
import type { EmitInput } from "../../../../../src/emit/emitter.js";
import { loadRuntimeFiles } from "../../../../../src/emit/runtime-files.js";
import { loadTemplates } from "../../../../../src/emit/templates.js";
import type {
  ApiModel,
  BodyContentModel,
  OperationModel,
  ResponseModel,
  SecuritySchemeModel,
} from "../../../../../src/model/types.js";
import { DEFAULT_TEMPLATES_DIR } from "../../../../../src/pipeline.js";

const content = (
  mediaType: string,
  kind: BodyContentModel["kind"],
  extra: Partial<BodyContentModel> = {},
): BodyContentModel => ({
  mediaType,
  kind,
  schemaPointer: `#/s/${mediaType}`,
  hasReadWrite: false,
  binaryFields: [],
  pointer: "#/c",
  ...extra,
});
const response = (status: string, contents: BodyContentModel[]): ResponseModel => ({
  status,
  success: status.startsWith("2"),
  description: "",
  pointer: "#/r",
  contents,
});

function operation(overrides: Partial<OperationModel> = {}): OperationModel {
  return {
    id: "getThing",
    derivedId: false,
    method: "get",
    httpMethod: "GET",
    additional: false,
    path: "/things/{id}",
    pointer: "#/p",
    deprecated: false,
    tags: [],
    parameters: { path: [], query: [], header: [], cookie: [] },
    responses: [response("200", [content("application/json", "json")])],
    security: [],
    names: {
      typeStem: "GetThing",
      method: "getThing",
      responseType: "GetThingResponse",
      responseTypes: { "200": "GetThingResponse200" },
      bodyValidators: {},
      bodyItemValidators: {},
      bodySequenceValidators: {},
      responseValidators: {},
      itemValidators: {},
      itemDataValidators: {},
      sequenceValidators: {},
      sharedValidators: [],
    },
    ...overrides,
  };
}

function model(operations: OperationModel[], securitySchemes: SecuritySchemeModel[] = []): ApiModel {
  return {
    source: { specPath: "spec.yaml", openapiVersion: "3.1", title: "Things", version: "2" },
    servers: [
      { url: "https://{region}.example.com", variables: [{ name: "region", default: "eu", enum: ["eu", "us"] }] },
    ],
    basePath: "",
    securitySchemes,
    operations,
    webhooks: [],
    schemas: [],
    usesReadWrite: false,
  };
}

const apiKey: SecuritySchemeModel = {
  name: "key",
  pointer: "#/k",
  type: "apiKey",
  in: "header",
  parameterName: "X-Key",
};
const bearer: SecuritySchemeModel = { name: "token", pointer: "#/t", type: "http", scheme: "bearer" };

describe("method views", () => {
  it("returns the generated response type when every success body is JSON with a schema", () => {
    expect(buildMethodView(operation()).returns).toEqual([{ prefix: "T.", name: "GetThingResponse", files: [] }]);
  });

  it("returns Blob for bytes, string for text, undefined for no content, unknown without a declared answer", () => {
    const mixed = operation({
      responses: [response("200", [content("image/png", "binary"), content("text/csv", "text")]), response("204", [])],
    });
    expect(buildMethodView(mixed).returns.map((p) => `${p.prefix}${p.name}`)).toEqual(["Blob", "string", "undefined"]);
    expect(buildMethodView(operation({ responses: [response("404", [])] })).returns).toEqual([
      { prefix: "", name: "unknown", files: [] },
    ]);
    const fallback = operation({
      responses: [response("default", [content("application/json", "json")])],
      names: { ...operation().names, responseTypes: { default: "GetThingResponseDefault" } },
    });
    expect(buildMethodView(fallback).returns[0]?.name).toBe("GetThingResponse");
  });

  it("types file fields, raw bodies and several media types, and knows what is optional", () => {
    const body = {
      required: false,
      pointer: "#/b",
      contents: [
        content("application/octet-stream", "binary"),
        content("multipart/form-data", "multipart", { binaryFields: ["file"] }),
      ],
    };
    const names = { ...operation().names, queryType: "GetThingQuery", bodyType: "GetThingBody" };
    const query = [
      {
        name: "q",
        in: "query" as const,
        required: false,
        pointer: "#/q",
        style: "form",
        explode: true,
        isArray: false,
        deprecated: false,
      },
    ];
    const view = buildMethodView(
      operation({ requestBody: body, names, parameters: { path: [], query, header: [], cookie: [] } }),
    );
    expect(view.body).toEqual({
      optional: true,
      parts: [
        { prefix: "", name: "RawBody", files: [] },
        { prefix: "T.", name: "GetThingBody", files: ["file"] },
      ],
    });
    expect([view.argsOptional, view.noArgs, view.query, view.contentTypes]).toEqual([
      true,
      false,
      { type: "GetThingQuery", optional: true },
      ["application/octet-stream", "multipart/form-data"],
    ]);
  });

  it("documents summary, description, method and path, and deprecation", () => {
    const view = buildMethodView(
      operation({ summary: "Get a thing", description: "With */ inside.", deprecated: true }),
    );
    expect(view.doc).toBe("Get a thing\n\nWith */ inside.\n\n`GET /things/{id}`\n\n@deprecated");
    expect(buildMethodView(operation({ names: { ...operation().names, method: "constructor" } })).computed).toBe(true);
  });
});

describe("options view", () => {
  it("requires a credential that every operation needs", () => {
    const secured = operation({ security: [{ schemes: [{ name: "key", scopes: [] }] }] });
    const view = buildOptionsView(model([secured, secured], [apiKey]));
    expect([view.apiKey !== false && view.apiKey.required, view.bearerToken, view.optional]).toEqual([
      true,
      false,
      false,
    ]);
    expect(view.serverVariables).toEqual([
      { name: "region", values: ["eu", "us"], doc: '`{region}` in the server URL (default "eu").' },
    ]);
  });

  it("leaves credentials optional when an operation has another way in or none", () => {
    const either = operation({
      security: [{ schemes: [{ name: "key", scopes: [] }] }, { schemes: [{ name: "token", scopes: [] }] }],
    });
    const view = buildOptionsView(model([either, operation()], [apiKey, bearer]));
    expect([
      view.apiKey !== false && view.apiKey.required,
      view.bearerToken !== false && view.bearerToken.required,
      view.optional,
    ]).toEqual([false, false, true]);
    expect(view.schemes.map((s) => s.name)).toEqual(["key", "token"]);
  });
});

describe("emitClient", () => {
  const templates = loadTemplates(DEFAULT_TEMPLATES_DIR);
  const runtime = loadRuntimeFiles();
  const emit = (m: ApiModel) =>
    emitClient({
      model: m,
      document: {},
      config: {
        templates,
        runtime,
        formats: "assert",
        paging: [],
        validators: () => {
          throw new Error("the client emitter compiles no validator");
        },
      },
    } satisfies EmitInput);

  it("writes the client folder", () => {
    expect(emit(model([operation()])).map((file) => file.path)).toEqual([
      "client/client.ts",
      "client/index.ts",
      "client/answer-check.ts",
      "client/answers.ts",
      "client/auth.ts",
      "client/body.ts",
      "client/deep-object.ts",
      "client/errors.ts",
      "client/headers.ts",
      "client/operation.ts",
      "client/parameters.ts",
      "client/path-parameters.ts",
      "client/policies.ts",
      "client/query.ts",
      "client/response.ts",
      "client/retry.ts",
      "client/runtime.ts",
      "client/transport.ts",
      "client/typed-errors.ts",
      "client/values.ts",
    ]);
  });

  it("prints one typed, documented method per operation", () => {
    const names = { ...operation().names, pathParamsType: "GetThingPathParams" };
    const path = [
      {
        name: "id",
        in: "path" as const,
        required: true,
        pointer: "#/id",
        style: "simple",
        explode: false,
        isArray: false,
        deprecated: false,
      },
    ];
    const client =
      emit(
        model([operation({ summary: "Get a thing", names, parameters: { path, query: [], header: [], cookie: [] } })]),
      )[0]?.content ?? "";
    const start = client.indexOf("  /**\n   * Get a thing");
    expect(client.slice(start, client.indexOf("\n}\n", start))).toBe(`  /**
   * Get a thing
   *
   * \`GET /things/{id}\`
   */
  getThing(
    args: {
      readonly path: T.GetThingPathParams;
    },
    options?: CallOptions,
  ): Promise<T.GetThingResponse> {
    return this[RUNTIME].call("getThing", args, options);
  }`);
    expect(client).toContain(`readonly "region"?: "eu" | "us";`);
    expect(client).toContain("constructor(options: ClientOptions = {})");
  });

  it("imports only what the methods use, and has no method without operations", () => {
    const client = emit(model([operation()]))[0]?.content ?? "";
    expect(client).toContain(
      `import { type BaseClient, RUNTIME, Runtime, TableRuntime, type CallOptions, type NoArgs, type TransportOptions } from "./runtime.js";`,
    );
    expect(client).not.toContain("./body.js");
    expect(client).not.toContain("./auth.js");
    const empty = emit(model([]))[0]?.content ?? "";
    expect(empty).toContain(
      `import { type BaseClient, RUNTIME, Runtime, TableRuntime, type TransportOptions } from "./runtime.js";`,
    );
    expect(empty).not.toContain(".call(");
    expect(empty).not.toContain("../types.js");
  });

  it("writes a method named constructor as a computed key", () => {
    const client =
      emit(model([operation({ names: { ...operation().names, method: "constructor" } })]))[0]?.content ?? "";
    expect(client).toContain(`  ["constructor"](\n    args?: NoArgs,`);
  });
});
