/**
 * The mock's data: every body is checked by the validators the compiler produces (no validator
 * of its own). openapi-sampler is tried first; the project's builder, steered by the validator's
 * failures, takes over where the sampler's data is not valid: patterns, recursion, oneOf/anyOf
 * and discriminators. Ajv 2020 is the independent oracle for the data chosen.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { compileValidators, type ValidatorEntry } from "../../../src/compiler/index.js";
import { sampleData } from "../../../src/mock/answers.js";
import { samplePattern } from "../../../src/mock/pattern.js";
import { SchemaSource } from "../../../src/mock/schema.js";
import { loadValidators } from "../../../src/mock/validators.js";
import { dialectRules } from "../../../src/schema/dialect.js";

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => void;

const schemas: Record<string, unknown> = {
  Pattern: { type: "string", pattern: "^/v1/items/[^/]+$", maxLength: 40 },
  Bounded: {
    type: "object",
    required: ["n", "s"],
    properties: {
      n: { type: "integer", exclusiveMinimum: 5, multipleOf: 3 },
      s: { type: "string", minLength: 12, format: "email" },
    },
  },
  Dated: {
    type: "object",
    required: ["on", "at", "id"],
    properties: {
      on: { type: "string", format: "date" },
      at: { type: "string", format: "date-time" },
      id: { type: "string", format: "uuid" },
    },
  },
  Base: {
    type: "object",
    required: ["kind"],
    properties: { kind: { type: "string" }, secret: { type: "string", writeOnly: true } },
  },
  Extended: {
    allOf: [
      { $ref: "#/components/schemas/Base" },
      { type: "object", required: ["size"], properties: { size: { type: "number", minimum: 0.5, maximum: 0.75 } } },
    ],
  },
  Cat: {
    type: "object",
    required: ["pet", "lives"],
    properties: { pet: { type: "string" }, lives: { type: "integer", minimum: 1 } },
  },
  Dog: {
    type: "object",
    required: ["pet", "bark"],
    properties: { pet: { type: "string" }, bark: { type: "boolean" } },
  },
  Pet: {
    oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }],
    discriminator: { propertyName: "pet" },
  },
  Tree: {
    type: "object",
    required: ["name", "children"],
    properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/components/schemas/Tree" } } },
  },
  Either: {
    anyOf: [{ type: "null" }, { type: "array", minItems: 2, uniqueItems: false, items: { enum: ["a", "b"] } }],
  },
  Tuple: { type: "array", prefixItems: [{ const: "x" }, { type: "integer" }], items: false, minItems: 2 },
  Map: { type: "object", minProperties: 2, additionalProperties: { type: "integer", maximum: -3 } },
  Exclusive: {
    oneOf: [
      { type: "object", required: ["a"] },
      { type: "object", required: ["b"] },
    ],
  },
  Coded: {
    type: "object",
    required: ["code"],
    additionalProperties: false,
    properties: { code: { type: "string", pattern: "^[A-Z]{3}-[0-9]{4}$" } },
  },
  // Discord's snowflake ids, and its bulk delete's body: at least two distinct ids
  Snowflake: { type: "string", pattern: "^(0|[1-9][0-9]*)$", format: "snowflake" },
  BulkDelete: {
    type: "object",
    required: ["messages"],
    properties: {
      messages: {
        type: "array",
        items: { $ref: "#/components/schemas/Snowflake" },
        minItems: 2,
        maxItems: 100,
        uniqueItems: true,
      },
    },
  },
  DistinctRecords: {
    type: "array",
    minItems: 3,
    uniqueItems: true,
    items: {
      type: "object",
      required: ["id", "on", "size", "kind", "flag"],
      properties: {
        id: { type: "string", format: "uuid" },
        on: { type: "string", format: "date" },
        size: { type: "integer", minimum: 1, maximum: 2 },
        kind: { enum: ["a", "b"] },
        flag: { type: "boolean" },
      },
    },
  },
  DistinctCodes: { type: "array", minItems: 4, uniqueItems: true, items: { $ref: "#/components/schemas/Coded" } },
};
const document = { openapi: "3.1.0", info: { title: "t", version: "1" }, paths: {}, components: { schemas } };
const ref = (name: string): unknown => ({ $ref: `#/components/schemas/${name}` });
const source = new SchemaSource(document, dialectRules("openapi-3.1"));

const entries: ValidatorEntry[] = Object.keys(schemas).map((name) => ({
  name: `validate${name}`,
  schema: { pointer: `#/components/schemas/${name}` },
  direction: "response",
}));
const validators = loadValidators(compileValidators({ document, entries }).javascript());

function oracle(): (name: string, value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat("snowflake", /^(0|[1-9][0-9]*)$/);
  ajv.addKeyword({ keyword: "discriminator" });
  ajv.addSchema({ ...document, $id: "doc.json" });
  return (name, value) => ajv.validate({ $ref: `doc.json#/components/schemas/${name}` }, value) as boolean;
}
const valid = oracle();

describe("mock data", () => {
  const origins = new Map<string, string>();

  it.each(Object.keys(schemas))("%s: there is a sample, valid by the generated validator and by Ajv", (name) => {
    const validator = validators.get(`validate${name}`);
    const sample = sampleData(ref(name), source, validator);
    expect(sample).toBeDefined();
    expect(validator?.(sample?.value).valid).toBe(true);
    expect(valid(name, sample?.value)).toBe(true);
    origins.set(name, sample?.origin ?? "");
  });

  it("takes openapi-sampler's data where it is valid, and the builder's where it is not", () => {
    expect(Object.fromEntries(origins)).toMatchObject({
      Bounded: "openapi-sampler",
      Dated: "openapi-sampler",
      Extended: "openapi-sampler",
      Tuple: "openapi-sampler",
      Map: "openapi-sampler",
      Pattern: "builder",
      Pet: "builder",
      Tree: "builder",
      Either: "builder",
      Exclusive: "builder",
      Coded: "builder",
      BulkDelete: "builder",
      DistinctRecords: "builder",
      DistinctCodes: "builder",
    });
  });

  it("leaves writeOnly properties out and sets the discriminator tag", () => {
    expect(sampleData(ref("Extended"), source, validators.get("validateExtended"))?.value).not.toHaveProperty("secret");
    expect(["Cat", "Dog"]).toContain(
      (sampleData(ref("Pet"), source, validators.get("validatePet"))?.value as { pet?: unknown } | undefined)?.pet,
    );
  });

  it("builds the distinct items a uniqueItems array needs, each valid by its pattern or format", () => {
    const bulk = sampleData(ref("BulkDelete"), source, validators.get("validateBulkDelete"))?.value;
    expect(bulk).toEqual({ messages: ["0", "1"] });
    const records = sampleData(ref("DistinctRecords"), source, validators.get("validateDistinctRecords"))?.value;
    expect(records).toHaveLength(3);
    expect(new Set((records as { id: string }[]).map((record) => JSON.stringify(record))).size).toBe(3);
    const codes = sampleData(ref("DistinctCodes"), source, validators.get("validateDistinctCodes"))?.value;
    expect(new Set((codes as { code: string }[]).map(({ code }) => code)).size).toBe(4);
  });

  it("gives up, rather than answer invalid data, when nothing valid can be built", () => {
    const impossible = {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {},
      components: { schemas: { Never: { type: "string", minLength: 3, maxLength: 2 } } },
    };
    const never = loadValidators(
      compileValidators({
        document: impossible,
        entries: [{ name: "validateNever", schema: { pointer: "#/components/schemas/Never" } }],
      }).javascript(),
    ).get("validateNever");
    expect(
      sampleData(
        { $ref: "#/components/schemas/Never" },
        new SchemaSource(impossible, dialectRules("openapi-3.1")),
        never,
      ),
    ).toBeUndefined();
  });
});

describe("pattern samples", () => {
  it("read groups and alternatives, and give distinct strings the pattern matches for each variant", () => {
    const patterns = ["^(0|[1-9][0-9]*)$", "^(?:ab|c)+-(?<n>\\d{2,3})$", "^[A-Z]{3}-[0-9]{4}$", "^v[1-9]\\.x?$"];
    for (const pattern of patterns) {
      const samples = Array.from({ length: 8 }, (_, variant) => samplePattern(pattern, variant));
      for (const sample of samples) expect(sample).toMatch(new RegExp(pattern, "u"));
      expect(new Set(samples).size).toBeGreaterThanOrEqual(4);
    }
    expect(samplePattern("^(0|[1-9][0-9]*)$")).toBe("0");
    expect(samplePattern("^/v1/items/[^/]+$")).toBe("/v1/items/a");
  });

  it("are not attempted for look-arounds and backreferences", () => {
    expect(samplePattern("^(?!0)\\d+$")).toBeUndefined();
    expect(samplePattern("^(a)\\1$")).toBeUndefined();
  });
});

describe("mock answers from the spec's examples", () => {
  it("answers the first example the response validator accepts, as the server would check it", async () => {
    const { generate } = await import("../../../src/index.js");
    const { makeTempDir } = await import("../../support/paths.js");
    const { writeFile } = await import("node:fs/promises");
    const { join } = await import("node:path");
    const dir = await makeTempDir("mock-examples");
    const spec = {
      openapi: "3.1.0",
      info: { title: "Examples", version: "1" },
      paths: {
        "/a": {
          get: {
            operationId: "getA",
            responses: {
              "200": {
                description: "ok",
                content: {
                  "application/json": {
                    schema: {
                      type: "object",
                      required: ["n"],
                      properties: { n: { type: "integer", maximum: 5 }, note: { type: "string", nullable: true } },
                    },
                    examples: { tooBig: { value: { n: 6 } }, fine: { value: { n: 5, note: null } } },
                  },
                },
              },
            },
          },
        },
      },
    };
    await writeFile(join(dir, "openapi.json"), JSON.stringify(spec));
    const result = await generate({ spec: join(dir, "openapi.json"), out: join(dir, "out"), check: true });
    const mock = result.files.find((file) => file.path === "server/mock.ts")?.content ?? "";
    expect(mock).toMatch(/getA: \{ status: 200, body: \{ n: 5, note: null \} \}/);
  });
});

describe("mock answers of operations that answer with the same schema", () => {
  it("build the data once, and each operation takes it only once its own validator accepts it", async () => {
    const { buildMockAnswers } = await import("../../../src/mock/answers.js");
    const { buildModel, loadSpec } = await import("../../../src/index.js");
    const { makeTempDir } = await import("../../support/paths.js");
    const { writeFile } = await import("node:fs/promises");
    const { join } = await import("node:path");
    const answer = (status: string) => ({
      [status]: {
        description: "ok",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Tree" } } },
      },
    });
    const spec = {
      openapi: "3.1.0",
      info: { title: "Shared", version: "1" },
      paths: {
        "/a": { get: { operationId: "getA", responses: answer("200") } },
        "/b": { get: { operationId: "getB", responses: answer("200") } },
        "/c": { post: { operationId: "postC", responses: answer("201") } },
      },
      components: { schemas: { Tree: schemas["Tree"] } },
    };
    const file = join(await makeTempDir("mock-shared"), "openapi.json");
    await writeFile(file, JSON.stringify(spec));
    const loaded = await loadSpec(file);
    const { model } = buildModel(loaded, file);
    const names = model.operations.map((operation) => Object.values(operation.names.responseValidators)[0] as string);
    // the operations share one validator, as the model names them
    expect(new Set(names).size).toBe(1);
    const name = names[0] as string;
    const compiled = loadValidators(
      compileValidators({
        document: loaded.document,
        entries: [{ name, schema: { pointer: "#/components/schemas/Tree" }, direction: "response" }],
      }).javascript(),
    );
    const validate = compiled.get(name);
    if (validate === undefined) throw new Error(`no ${name}`);
    const checked: unknown[] = [];
    const recording = (value: unknown, options?: { allErrors?: boolean }) => {
      checked.push(value);
      return validate(value, options);
    };
    const [a, b, c] = buildMockAnswers(model, loaded.document, new Map([[name, recording]])).map(
      (view) => view.answer?.body,
    );
    expect(a).toBeDefined();
    expect(b).toBe(a);
    expect(c).toBe(a);
    // the first operation searched (the builder's candidates, Tree being recursive); each other checked the data once
    const searched = checked.length - 2;
    expect(searched).toBeGreaterThan(1);
    expect(checked.slice(searched)).toEqual([a, a]);
    // data the validator refuses is not taken from the cache: refused after the first, the others answer nothing
    let seen = 0;
    const refusingLater = (value: unknown, options?: { allErrors?: boolean }) =>
      seen++ < searched ? validate(value, options) : { valid: false, errors: [] };
    const later = buildMockAnswers(model, loaded.document, new Map([[name, refusingLater]])).map((view) => view.answer);
    expect(later[0]?.body).toEqual(a);
    expect(later.slice(1)).toEqual([undefined, undefined]);
  });
});

describe("mock answers of operations whose inline response schemas are written the same", () => {
  it("share the data too, each operation checking it with its own validator", async () => {
    const { buildMockAnswers, mockValidatorNames } = await import("../../../src/mock/answers.js");
    const { compileModelValidators } = await import("../../../src/emit/validators/compile-model.js");
    const { buildModel, loadSpec } = await import("../../../src/index.js");
    const { makeTempDir } = await import("../../support/paths.js");
    const { writeFile } = await import("node:fs/promises");
    const { join } = await import("node:path");
    const inline = () => ({ oneOf: [{ $ref: "#/components/schemas/Tree" }, { $ref: "#/components/schemas/Pattern" }] });
    const answer = { "200": { description: "ok", content: { "application/json": { schema: inline() } } } };
    const spec = {
      openapi: "3.1.0",
      info: { title: "Inline", version: "1" },
      paths: {
        "/a": { get: { operationId: "getA", responses: answer } },
        "/b": { delete: { operationId: "deleteB", responses: structuredClone(answer) } },
      },
      components: { schemas: { Tree: schemas["Tree"], Pattern: schemas["Pattern"] } },
    };
    const file = join(await makeTempDir("mock-inline"), "openapi.json");
    await writeFile(file, JSON.stringify(spec));
    const loaded = await loadSpec(file);
    const { model } = buildModel(loaded, file);
    const names = mockValidatorNames(model);
    expect(new Set(names).size).toBe(2);
    const compiled = loadValidators(compileModelValidators(model, loaded.document, "assert").javascript(names));
    const checked = new Map<string, number>();
    const counting = new Map(
      [...compiled].map(([name, validate]) => [
        name,
        (value: unknown, options?: { allErrors?: boolean }) => {
          checked.set(name, (checked.get(name) ?? 0) + 1);
          return validate(value, options);
        },
      ]),
    );
    const [a, b] = buildMockAnswers(model, loaded.document, counting).map((view) => view.answer?.body);
    expect(a).toBeDefined();
    expect(b).toBe(a);
    expect(checked.get(names[1] as string)).toBe(1);
    expect(checked.get(names[0] as string)).toBeGreaterThan(1);
  });
});

describe("the mock answer of an operation that declares no response (OpenAPI 3.1)", () => {
  it("is 204, which the server sends unchecked, and one with only an error response answers none", async () => {
    const { buildMockAnswers } = await import("../../../src/mock/answers.js");
    const { buildModel, loadSpec } = await import("../../../src/index.js");
    const text = JSON.stringify({
      openapi: "3.1.0",
      info: { title: "Silent", version: "1" },
      paths: {
        "/a": { get: { operationId: "getA" } },
        "/b": { get: { operationId: "getB", responses: { "404": { description: "none" } } } },
      },
    });
    const loaded = await loadSpec("silent.json", text);
    const { model } = buildModel(loaded, "silent.json");
    expect(buildMockAnswers(model, loaded.document, new Map()).map((view) => view.answer)).toEqual([
      { status: 204 },
      undefined,
    ]);
  });
});
