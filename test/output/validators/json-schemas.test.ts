/**
 * The components as self-contained JSON Schema documents (./json-schemas): each one compiles on
 * its own in Ajv (2020-12, nothing else added) and gives the same verdict as the generated
 * validator, on every example in the spec and on values that break it.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { type JsonSchemaName, jsonSchemas } from "../../../generated/json-schemas.js";
import { schemas } from "../../../generated/validators/index.js";
import { deref, type Json, type JsonObject, readRawSpec } from "../../support/spec-document.js";

const raw = readRawSpec();
const names = Object.keys(jsonSchemas) as JsonSchemaName[];

/** Every example in the spec whose schema is a component: [component, example value]. */
function componentExamples(): [JsonSchemaName, Json][] {
  const found: [JsonSchemaName, Json][] = [];
  const visit = (node: Json): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach(visit);
    const ref = (node["schema"] as JsonObject | undefined)?.["$ref"];
    const name = typeof ref === "string" ? ref.replace("#/components/schemas/", "") : "";
    if (names.includes(name as JsonSchemaName) && typeof node["examples"] === "object" && node["examples"] !== null) {
      for (const example of Object.values(node["examples"] as JsonObject))
        found.push([name as JsonSchemaName, (deref(raw, example) as JsonObject)["value"] ?? null]);
    }
    Object.values(node).forEach(visit);
  };
  visit(raw);
  return found;
}

const compiled = new Map<JsonSchemaName, (value: unknown) => boolean>();

/** Ajv's validator for one document, compiled alone (nothing else added), once. */
function compile(name: JsonSchemaName): (value: unknown) => boolean {
  const known = compiled.get(name);
  if (known !== undefined) return known;
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  addFormats.default(ajv);
  ajv.addFormat("binary", true);
  const validate = ajv.compile(jsonSchemas[name] as object);
  const check = (value: unknown): boolean => validate(value);
  compiled.set(name, check);
  return check;
}

function ours(name: JsonSchemaName, value: unknown): boolean {
  const result = schemas[name]["~standard"].validate(value);
  return !(result instanceof Promise) && result.issues === undefined;
}

describe("jsonSchemas", () => {
  it("has every component, each standing alone: its references point into itself", () => {
    expect(names.sort()).toEqual(Object.keys((raw["components"] as JsonObject)["schemas"] as JsonObject).sort());
    expect(JSON.stringify(jsonSchemas)).not.toContain("#/components/");
    for (const name of names) expect(jsonSchemas[name].$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  });

  it("accepts every example of the spec, as the validators do", () => {
    const examples = componentExamples();
    expect(examples.length).toBeGreaterThan(20);
    for (const [name, value] of examples) {
      expect([name, compile(name)(value)]).toEqual([name, true]);
      expect([name, ours(name, value)]).toEqual([name, true]);
    }
  });

  it("refuses what the validators refuse", () => {
    const broken: [JsonSchemaName, unknown][] = [
      ["VenueCreate", { name: "x".repeat(151), address: "1 Road", city: "Town", zip: "1" }],
      ["EventCreate", { name: "Gala", date: "2024-02-30", venue: { venue_id: "1" } }],
      ["Event", { location: { name: 7 } }],
      ["Problem", { type: "about:blank" }],
      ["PayrollGroupCreate", { locations: ["12", 7] }],
    ];
    for (const [name, value] of broken)
      expect([name, compile(name)(value), ours(name, value)]).toEqual([name, false, false]);
  });
});
