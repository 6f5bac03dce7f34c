/**
 * Pairs of small documents for the breaking-change report: a base document in the shape of the
 * reference frame (one read operation, one create operation, an API key), mutated per case.
 */
import { stringify } from "yaml";
import { reportOn } from "../../../../../src/diff/compare-specs.js";
import type { Change, DiffReport } from "../../../../../src/diff/report/types.js";
import { loadSide, type SpecSide } from "../../../../../src/diff/source/load-side.js";
import { appendPointer, pointerSegments } from "../../../../../src/json-pointer.js";

/** A JSON document being built. */
export type Json = Record<string, unknown>;

const venue = {
  type: "object",
  properties: {
    venue_id: { type: "integer" },
    name: { type: "string", maxLength: 100 },
    city: { type: "string" },
    kind: { type: "string", enum: ["hall", "park"] },
  },
  required: ["venue_id", "name"],
};

const venueCreate = {
  type: "object",
  properties: {
    name: { type: "string", maxLength: 100, pattern: "^[A-Z]" },
    city: { type: "string" },
    kind: { type: "string", enum: ["hall", "park"] },
    capacity: { type: "integer", minimum: 0, maximum: 1000 },
    tags: { type: "array", items: { type: "string" }, maxItems: 5 },
  },
  required: ["name"],
};

/** The base document of every pair. */
export function baseDocument(): Json {
  return structuredClone({
    openapi: "3.1.0",
    info: { title: "T", version: "1.0.0" },
    servers: [{ url: "https://api.example.com/v1" }],
    security: [{ Key: [] }],
    paths: {
      "/venues/{id}": {
        get: {
          operationId: "getVenue",
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "integer" } },
            { name: "q", in: "query", schema: { type: "string", maxLength: 20 } },
          ],
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Venue" } } },
            },
          },
        },
      },
      "/venues": {
        post: {
          operationId: "createVenue",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/VenueCreate" } } },
          },
          responses: {
            "201": {
              description: "created",
              content: {
                "application/json": {
                  schema: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
                },
              },
            },
          },
        },
      },
    },
    components: {
      securitySchemes: { Key: { type: "apiKey", in: "header", name: "X-API-KEY" } },
      schemas: { Venue: venue, VenueCreate: venueCreate },
    },
  });
}

/** A copy of a document with a value set at a JSON pointer ("#/components/schemas/Venue/required"). */
export function withValue(document: Json, pointer: string, value: unknown): Json {
  const copy = structuredClone(document);
  const segments = pointerSegments(pointer);
  const parent = walk(copy, segments.slice(0, -1));
  const last = segments[segments.length - 1] as string;
  if (Array.isArray(parent)) parent[Number(last)] = value;
  else (parent as Json)[last] = value;
  return copy;
}

/** A copy of a document without the value at a JSON pointer. */
export function without(document: Json, pointer: string): Json {
  const copy = structuredClone(document);
  const segments = pointerSegments(pointer);
  const parent = walk(copy, segments.slice(0, -1));
  const last = segments[segments.length - 1] as string;
  if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete (parent as Json)[last];
  return copy;
}

function walk(document: Json, segments: readonly string[]): unknown {
  let node: unknown = document;
  for (const segment of segments) {
    if (node === null || typeof node !== "object") throw new Error(`nothing at ${appendPointer("#", ...segments)}`);
    node = (node as Json)[segment];
  }
  return node;
}

/** Loads a document as a side of a comparison (from YAML text, as a spec file would be). */
export function loadDocument(document: Json, name = "spec/openapi.yaml"): Promise<SpecSide> {
  return loadSide({ name, text: stringify(document) });
}

/** The report from one document to another. */
export async function diffDocuments(base: Json, head: Json): Promise<DiffReport> {
  const [before, after] = await Promise.all([loadDocument(base, "git:HEAD:spec/openapi.yaml"), loadDocument(head)]);
  return reportOn(before, after);
}

/** The distinct rules of a report, sorted. */
export function rulesOf(report: DiffReport): string[] {
  return [...new Set(report.changes.map((change) => change.rule))].sort();
}

/** The changes of a report under one rule. */
export function changesOf(report: DiffReport, rule: string): Change[] {
  return report.changes.filter((change) => change.rule === rule);
}

/** A step that sets a value at a JSON pointer of a document. */
export function set(pointer: string, value: unknown): (document: Json) => Json {
  return (document) => withValue(document, pointer, value);
}

/** Steps applied one after the other. */
export function chain(...steps: ((document: Json) => Json)[]): (document: Json) => Json {
  return (document) => steps.reduce((current, step) => step(current), document);
}

/** A oneOf/anyOf of objects, each with one required string property of the given name. */
export function objectBranches(keyword: "oneOf" | "anyOf", names: readonly string[]): Json {
  return {
    [keyword]: names.map((name) => ({ type: "object", properties: { [name]: { type: "string" } }, required: [name] })),
  };
}

/** The tag values of `discriminated`'s two components. */
export const PAYMENT_TAGS = { card: "#/components/schemas/Card", transfer: "#/components/schemas/Transfer" };

/** A step that makes the schema at `pointer` a oneOf of two components (Card, Transfer) told apart by a discriminator. */
export function discriminated(
  pointer: string,
  propertyName: string,
  mapping: Record<string, string>,
): (document: Json) => Json {
  const branch = (name: string): Json => ({
    type: "object",
    properties: { method: { type: "string" }, kind: { type: "string" }, [name]: { type: "string" } },
  });
  return chain(
    set("#/components/schemas/Card", branch("number")),
    set("#/components/schemas/Transfer", branch("iban")),
    set(pointer, {
      oneOf: [{ $ref: "#/components/schemas/Card" }, { $ref: "#/components/schemas/Transfer" }],
      discriminator: { propertyName, mapping },
    }),
  );
}
