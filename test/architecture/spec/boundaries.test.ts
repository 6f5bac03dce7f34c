/**
 * The description's constraints as behaviour: starting from each body's example, a value at a
 * limit is accepted and one past it rejected (checked with Ajv 2020 as the oracle), and every
 * example in the spec is valid against its schema.
 */
import { describe, expect, it } from "vitest";
import { at, createOracle, type Json, type JsonObject, readRawSpec } from "../../support/spec-document.js";
import { type FieldFact, schemas } from "./description-facts.js";

const raw = readRawSpec();
const { valid, validAt } = createOracle(raw);

interface MediaExample {
  where: string;
  /** the JSON pointer of the media type's schema in the spec */
  schemaPointer: string;
  schemaName: string | undefined;
  schema: Json;
  value: Json;
}

function collectExamples(): MediaExample[] {
  const found: MediaExample[] = [];
  const visit = (node: Json, where: string, pointer: string): void => {
    if (node === null || typeof node !== "object") return;
    if (!Array.isArray(node) && node.schema !== undefined && node.examples !== undefined) {
      const ref =
        typeof node.schema === "object" && node.schema !== null && !Array.isArray(node.schema)
          ? node.schema.$ref
          : undefined;
      const schemaName = typeof ref === "string" ? ref.replace("#/components/schemas/", "") : undefined;
      for (const [name, example] of Object.entries(node.examples as JsonObject)) {
        found.push({
          where: `${where}/examples/${name}`,
          schemaPointer: `${pointer}/schema`,
          schemaName,
          schema: node.schema,
          value: exampleValue(example as JsonObject),
        });
      }
    }
    for (const [key, child] of Object.entries(node))
      visit(child, `${where}/${key}`, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
  };
  visit(raw.paths ?? null, "#/paths", "/paths");
  visit(raw.components ?? null, "#/components", "/components");
  return found;
}

/** An example's value, following a `$ref` to `#/components/examples`. */
function exampleValue(example: JsonObject): Json {
  const ref = example.$ref;
  const target = typeof ref === "string" ? (at(raw, ref) as JsonObject) : example;
  return target.value ?? null;
}

const examples = collectExamples();

describe("every example in the spec is valid against its schema", () => {
  it("there is an example for every request and response body", () => {
    const owners = new Set(examples.map((e) => e.where.replace(/\/examples\/[^/]+$/, "")));
    // 7 request bodies (the two GETs have none), 9 success responses, a 400 per operation with a
    // body, the upload's own 413 and 415, 7 shared error responses, and the sandbox's 422 of each
    // operation with a body
    expect(owners.size).toBe(7 + 9 + 7 + 2 + 7 + 7);
  });
  it.each(examples)("$where", ({ schemaName, schemaPointer, schema, value }) => {
    if (schemaName !== undefined) expect(valid(schemaName, value)).toBe(true);
    else {
      // an inline schema: checked where it stands in the spec
      expect(at(raw, schemaPointer)).toEqual(schema);
      expect(validAt(schemaPointer, value)).toBe(true);
    }
  });
  it("checks inline schemas for real: a value of another type is refused", () => {
    const inline = examples.filter((e) => e.schemaName === undefined);
    expect(inline.length).toBeGreaterThanOrEqual(2);
    for (const { schemaPointer } of inline) expect(validAt(schemaPointer, "not a boolean or integer")).toBe(false);
  });
});

function baseInstance(schemaName: string): JsonObject | undefined {
  const example = examples.find((e) => e.schemaName === schemaName);
  return example?.value as JsonObject | undefined;
}

interface Probe {
  label: string;
  value: Json | undefined;
  accepted: boolean;
}

function stringProbes(fact: FieldFact): Probe[] {
  const probes: Probe[] = [];
  if (fact.maxLength !== undefined) {
    probes.push({ label: `${fact.maxLength} astral characters`, value: "😀".repeat(fact.maxLength), accepted: true });
    probes.push({ label: `${fact.maxLength + 1} characters`, value: "x".repeat(fact.maxLength + 1), accepted: false });
  }
  if (fact.minLength !== undefined) {
    probes.push({ label: `${fact.minLength} characters`, value: "x".repeat(fact.minLength), accepted: true });
    probes.push({ label: `${fact.minLength - 1} characters`, value: "x".repeat(fact.minLength - 1), accepted: false });
  }
  if (fact.pattern !== undefined) {
    probes.push({ label: "abc-1 (pattern searches from the start only)", value: "abc-1", accepted: true });
    probes.push({ label: "-abc", value: "-abc", accepted: false });
  }
  if (fact.format === "date") {
    probes.push(
      { label: "2024-02-29", value: "2024-02-29", accepted: true },
      { label: "2023-02-29", value: "2023-02-29", accepted: false },
    );
  }
  if (fact.format === "date-time") {
    probes.push(
      { label: "2024-03-01T09:00:00+01:00", value: "2024-03-01T09:00:00+01:00", accepted: true },
      { label: "2024-03-01", value: "2024-03-01", accepted: false },
    );
  }
  return probes;
}

function numberProbes(fact: FieldFact): Probe[] {
  const probes: Probe[] = [];
  if (fact.minimum !== undefined)
    probes.push(
      { label: `${fact.minimum}`, value: fact.minimum, accepted: true },
      { label: `${fact.minimum - 1}`, value: fact.minimum - 1, accepted: false },
    );
  if (fact.maximum !== undefined)
    probes.push(
      { label: `${fact.maximum}.0`, value: fact.maximum, accepted: true },
      { label: `${fact.maximum + 1}`, value: fact.maximum + 1, accepted: false },
    );
  if (fact.type === "integer")
    probes.push(
      { label: "0.5", value: 0.5, accepted: false },
      { label: `"1" (a string)`, value: "1", accepted: false },
    );
  return probes;
}

function probesFor(fact: FieldFact): Probe[] {
  if (fact.notAccepted) return [{ label: "present", value: "ABC123", accepted: false }];
  const probes = [...stringProbes(fact), ...numberProbes(fact)];
  if (fact.required === true) probes.push({ label: "absent", value: undefined, accepted: false });
  if (fact.required === false) probes.push({ label: "absent", value: undefined, accepted: true });
  return probes;
}

const rows = Object.entries(schemas).flatMap(([schemaName, fields]) => {
  const base = baseInstance(schemaName);
  if (base === undefined) return [];
  return Object.entries(fields).flatMap(([field, fact]) =>
    probesFor(fact).map((probe) => ({ schemaName, field, base, ...probe })),
  );
});

describe("every constraint holds at its boundary", () => {
  it("covers the request bodies with constraints", () => {
    const covered = new Set(rows.map((row) => row.schemaName));
    for (const name of [
      "ClientUpdate",
      "VenueCreate",
      "EventCreate",
      "EventUpdate",
      "WorkerCredentialCreate",
      "WorkerDocumentUpload",
      "PayrollGroup",
      "WorkerDocument",
      "Venue",
    ]) {
      expect(covered.has(name), name).toBe(true);
    }
  });
  it.each(rows)(
    "$schemaName / $field = $label → accepted: $accepted",
    ({ schemaName, field, base, value, accepted }) => {
      const instance: JsonObject = { ...base };
      if (value === undefined) delete instance[field];
      else instance[field] = value;
      expect(valid(schemaName, instance)).toBe(accepted);
    },
  );
});

describe("the event create body refuses event_id, the edit body takes it", () => {
  const create = baseInstance("EventCreate") as JsonObject;
  it("create without event_id is valid, with it invalid", () => {
    expect(valid("EventCreate", create)).toBe(true);
    expect(valid("EventCreate", { ...create, event_id: "GALA2024" })).toBe(false);
  });
  it("edit with and without event_id is valid", () => {
    expect(valid("EventUpdate", create)).toBe(true);
    expect(valid("EventUpdate", { ...create, event_id: "GALA2024" })).toBe(true);
  });
  it("the list item id is an integer while the edit response id is any number", () => {
    const event = at(
      raw,
      "/paths/~1events~1{id}/patch/responses/200/content/application~1json/examples/moved/value",
    ) as JsonObject;
    expect(valid("Event", { ...event, id: 1.5 })).toBe(true);
    expect(valid("EventListItem", { ...event, id: 1.5 })).toBe(false);
    expect(valid("EventListItem", { ...event, id: 9001 })).toBe(true);
  });
  it("invoice_cost is a string in the request and a number or null in the response", () => {
    expect(valid("PayrollGroupCreate", { invoice_cost: "18.50" })).toBe(true);
    expect(valid("PayrollGroupCreate", { invoice_cost: 18.5 })).toBe(false);
    expect(valid("PayrollGroup", { invoice_cost: 18.5 })).toBe(true);
    expect(valid("PayrollGroup", { invoice_cost: null })).toBe(true);
    expect(valid("PayrollGroup", { invoice_cost: "18.50" })).toBe(false);
  });
});
