/**
 * Walks every fact of the service description (description-facts.ts) against spec/openapi.yaml:
 * endpoints, fields, types and constraints, both as declared (the schema says it) and as behaviour
 * (an instance at the boundary is accepted, one past it rejected).
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  at,
  createOracle,
  type Json,
  type JsonObject,
  readDereferencedSpec,
  readRawSpec,
} from "../../support/spec-document.js";
import { endpoints, type FieldFact, notShown, schemas } from "./description-facts.js";

const raw = readRawSpec();
const oracle = createOracle(raw);
let spec: JsonObject;
beforeAll(async () => {
  spec = await readDereferencedSpec();
});

function asObject(node: Json | undefined): JsonObject {
  if (node === null || typeof node !== "object" || Array.isArray(node)) throw new Error("not an object");
  return node;
}

/** The schema itself and its allOf members: where a property may be declared. */
function layers(schema: JsonObject): JsonObject[] {
  const members = Array.isArray(schema.allOf) ? schema.allOf.map(asObject) : [];
  return [schema, ...members.flatMap(layers)];
}

function propertyCandidates(schemaName: string, field: string): (JsonObject | boolean)[] {
  const schema = asObject(at(raw, `/components/schemas/${schemaName}`));
  return layers(resolveRefs(schema)).flatMap((layer) => {
    const property = layer.properties && asObject(layer.properties)[field];
    return property === undefined ? [] : [typeof property === "boolean" ? property : resolveRefs(asObject(property))];
  });
}

function resolveRefs(schema: JsonObject): JsonObject {
  if (typeof schema.$ref !== "string") {
    if (!Array.isArray(schema.allOf)) return schema;
    return { ...schema, allOf: schema.allOf.map((member) => resolveRefs(asObject(member))) };
  }
  return resolveRefs(asObject(at(raw, schema.$ref.slice(1))));
}

function isRequired(schemaName: string, field: string): boolean {
  const schema = resolveRefs(asObject(at(raw, `/components/schemas/${schemaName}`)));
  return layers(schema).some((layer) => Array.isArray(layer.required) && layer.required.includes(field));
}

function refName(node: Json | undefined): string | undefined {
  const ref = node !== null && typeof node === "object" && !Array.isArray(node) ? node.$ref : undefined;
  return typeof ref === "string" ? ref.replace("#/components/schemas/", "") : undefined;
}

function rawProperty(schemaName: string, field: string): JsonObject | undefined {
  const schema = asObject(at(raw, `/components/schemas/${schemaName}`));
  const all = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf.map(asObject) : [])];
  for (const layer of all) {
    const property = layer.properties && asObject(layer.properties)[field];
    if (property !== undefined && typeof property === "object" && property !== null && !Array.isArray(property))
      return property;
  }
  const base = all.map((layer) => refName(layer)).find((name) => name !== undefined);
  return base === undefined ? undefined : rawProperty(base, field);
}

const KEYWORDS = ["minLength", "maxLength", "minimum", "maximum", "pattern", "format"] as const;

const fieldRows = Object.entries(schemas).flatMap(([schemaName, fields]) =>
  Object.entries(fields).map(([field, fact]) => ({ schemaName, field, fact })),
);

describe("every field of the description is in the spec", () => {
  it.each(fieldRows)("$schemaName / $field", ({ schemaName, field, fact }) => {
    const candidates = propertyCandidates(schemaName, field);
    expect(candidates.length, `${schemaName}.${field} is declared`).toBeGreaterThan(0);
    if (fact.notAccepted) {
      expect(candidates).toContain(false);
      return;
    }
    const declared = candidates.filter((c): c is JsonObject => typeof c === "object");
    expect(declared.map((c) => c.type)).toContainEqual(fact.type);
    for (const keyword of KEYWORDS) {
      const expected = fact[keyword];
      const actual = declared.find((c) => c[keyword] !== undefined)?.[keyword];
      expect(actual, `${schemaName}.${field} ${keyword}`).toEqual(expected);
    }
    if (fact.required !== undefined)
      expect(isRequired(schemaName, field), `${schemaName}.${field} required`).toBe(fact.required);
    checkNested(schemaName, field, fact);
  });

  it.each(Object.keys(schemas))("%s declares no field the description lacks", (schemaName) => {
    const schema = resolveRefs(asObject(at(raw, `/components/schemas/${schemaName}`)));
    const declared = layers(schema).flatMap((layer) => Object.keys(asObject(layer.properties ?? {})));
    const own = Object.keys(schemas[schemaName] ?? {});
    const inherited = layers(schema).flatMap((layer) =>
      layer === schema ? [] : Object.keys(asObject(layer.properties ?? {})),
    );
    expect([...new Set(declared)].filter((name) => !own.includes(name) && !inherited.includes(name))).toEqual([]);
  });
});

function checkNested(schemaName: string, field: string, fact: FieldFact): void {
  const property = rawProperty(schemaName, field);
  if (fact.schema !== undefined) expect(refName(property)).toBe(fact.schema);
  if (fact.items === undefined) return;
  const items = property?.items;
  if (typeof fact.items === "string") expect(asObject(items).type).toBe(fact.items);
  else expect(refName(items)).toBe(fact.items.schema);
}

describe("schemas the description does not mark required leave every field optional", () => {
  const unmarked = [
    "PayrollGroupCreate",
    "PayrollGroup",
    "WorkerCredentialCreate",
    "WorkerCredential",
    "WorkerDocumentUpload",
    "WorkerDocument",
    "Venue",
    "Event",
    "EventList",
    "Location",
    "EventPersonnel",
    "CustomField",
    "EventVenueInput",
  ];
  it.each(unmarked)("%s has no required fields", (schemaName) => {
    const schema = resolveRefs(asObject(at(raw, `/components/schemas/${schemaName}`)));
    expect(layers(schema).flatMap((layer) => layer.required ?? [])).toEqual([]);
  });
});

describe("every endpoint of section 4", () => {
  it("has exactly the nine operations", () => {
    const operations = Object.entries(asObject(raw.paths)).flatMap(([path, item]) =>
      Object.keys(asObject(item))
        .filter((key) => ["get", "post", "put", "patch", "delete"].includes(key))
        .map((method) => `${method} ${path}`),
    );
    expect(operations.sort()).toEqual(endpoints.map((e) => `${e.method} ${e.path}`).sort());
  });

  it.each(endpoints)("$method $path", (endpoint) => {
    const operation = asObject(at(spec, `/paths/${endpoint.path.replace(/\//g, "~1")}/${endpoint.method}`));
    expect(operation.operationId).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    expect(typeof operation.summary).toBe("string");
    expect(Array.isArray(operation.tags) && operation.tags.length > 0).toBe(true);
    const success = asObject(at(operation, `/responses/${endpoint.status}`));
    const responseSchema = at(success, "/content/application~1json/schema");
    expect(Object.keys(asObject(operation.responses)).filter((status) => status.startsWith("2"))).toEqual([
      endpoint.status,
    ]);
    if ("type" in endpoint.response) expect(asObject(responseSchema).type).toBe(endpoint.response.type);
    else expect(responseSchema).toBe(at(spec, `/components/schemas/${endpoint.response.schema}`));
    checkRequest(operation, endpoint.request);
    checkPathId(operation, endpoint.path, endpoint.pathId);
  });
});

function checkRequest(operation: JsonObject, request: { mediaType: string; schema: string } | undefined): void {
  if (request === undefined) {
    expect(operation.requestBody).toBeUndefined();
    return;
  }
  const body = asObject(operation.requestBody);
  expect(body.required).toBe(true);
  expect(Object.keys(asObject(body.content))).toEqual([request.mediaType]);
  expect(at(body, `/content/${request.mediaType.replace(/\//g, "~1")}/schema`)).toBe(
    at(spec, `/components/schemas/${request.schema}`),
  );
}

function checkPathId(operation: JsonObject, path: string, pathId: FieldFact | undefined): void {
  const parameters = Array.isArray(operation.parameters) ? operation.parameters.map(asObject) : [];
  if (pathId === undefined) {
    expect(parameters).toEqual([]);
    return;
  }
  expect(path).toContain("{id}");
  expect(parameters).toHaveLength(1);
  const [parameter] = parameters;
  expect(parameter).toMatchObject({ name: "id", in: "path", required: true, schema: { type: pathId.type } });
  expect(asObject(parameter?.schema ?? null).minimum).toBe(pathId.minimum);
}

describe("security (section 5)", () => {
  it("X-API-KEY is an apiKey header scheme required by every operation", () => {
    expect(at(raw, "/components/securitySchemes/ApiKeyAuth")).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "X-API-KEY",
    });
    expect(raw.security).toEqual([{ ApiKeyAuth: [] }]);
    for (const item of Object.values(asObject(raw.paths))) {
      for (const operation of Object.values(asObject(item)).map(asObject)) expect(operation.security).toBeUndefined();
    }
  });

  it("the server is {base_url}/api/1_12 with base_url defaulting to http://localhost:3000", () => {
    expect(raw.servers).toEqual([
      expect.objectContaining({
        url: "{base_url}/api/1_12",
        variables: { base_url: { default: "http://localhost:3000" } },
      }),
    ]);
    expect(Object.keys(asObject(raw.paths)).every((path) => !path.startsWith("/api"))).toBe(true);
  });
});

describe("what the description does not show is left open and said so", () => {
  it.each(notShown)("$what", ({ pointer, says }) => {
    const node = asObject(at(raw, pointer));
    expect(String(node.description).replace(/\s+/g, " ")).toMatch(new RegExp(says.source.replace(/\\s\+/g, " ")));
  });

  it("GET /events declares no query parameters and the wage rules schema accepts any value", () => {
    expect(at(raw, "/paths/~1events/get/parameters")).toBeUndefined();
    for (const value of [null, 1, "x", [], { any: true }]) expect(oracle.valid("WageRules", value)).toBe(true);
  });
});
