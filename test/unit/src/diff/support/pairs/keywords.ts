/**
 * The JSON Schema 2020-12 keywords beyond the classic constraints, each read for requests (what a
 * server now refuses: VenueCreate) and for responses (what a client now receives: Venue).
 */
import { bothWays, type RulePair, want } from "../check-pairs.js";
import { type Json, set, without } from "../support.js";

const VC = "#/components/schemas/VenueCreate";
const V = "#/components/schemas/Venue";
const TAGS = { type: "array", items: { type: "string" } };

const tightenedRequest = {
  forward: want("request-property-constraint-tightened", "breaking", "major"),
  reverse: want("request-property-constraint-loosened", "info", "minor"),
};
const loosenedResponse = {
  forward: want("response-property-constraint-loosened", "breaking", "major"),
  reverse: want("response-property-constraint-tightened", "info", "minor"),
};

/** A change made to VenueCreate (a request body), and taken back in Venue (a response). */
function bothPlaces(name: string, pointer: string, change: { base?: unknown; head: unknown }): RulePair[] {
  const request: RulePair = {
    name: `${name}, in a request`,
    ...(change.base !== undefined ? { base: set(`${VC}/${pointer}`, change.base) } : {}),
    head: set(`${VC}/${pointer}`, change.head),
    ...tightenedRequest,
  };
  const response: RulePair = {
    name: `${name}, taken back in a response`,
    base: set(`${V}/${pointer}`, change.head),
    head:
      change.base !== undefined
        ? set(`${V}/${pointer}`, change.base)
        : (document) => without(document, `${V}/${pointer}`),
    ...loosenedResponse,
  };
  return [request, response];
}

/** if/then: where `kind` is the one given, the properties given are required. */
function whenKind(kind: string, required: readonly string[]): Json {
  // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword here
  return { if: { properties: { kind: { const: kind } }, required: ["kind"] }, then: { required } };
}

const hallNeedsCapacity = whenKind("hall", ["capacity"]);

export const keywordPairs: readonly RulePair[] = [
  ...bothPlaces("contains added to an array", "properties/tags", {
    base: TAGS,
    head: { ...TAGS, contains: { const: "featured" } },
  }),
  ...bothPlaces("minContains raised", "properties/tags", {
    base: { ...TAGS, contains: { minLength: 2 } },
    head: { ...TAGS, contains: { minLength: 2 }, minContains: 2 },
  }),
  ...bothPlaces("dependentRequired added", "dependentRequired", { head: { city: ["kind"] } }),
  ...bothPlaces("dependentSchemas added", "dependentSchemas", {
    head: { city: { properties: { kind: { const: "hall" } } } },
  }),
  ...bothPlaces("if/then added", "allOf", { head: [hallNeedsCapacity] }),
  ...bothPlaces("patternProperties added", "patternProperties", { head: { "^x-": { type: "string" } } }),
  ...bothPlaces("propertyNames added", "propertyNames", { head: { maxLength: 10 } }),
  ...bothPlaces("unevaluatedProperties given a schema", "unevaluatedProperties", { head: { type: "string" } }),
  ...bothPlaces("unevaluatedItems: false after prefixItems", "properties/tags", {
    base: { type: "array", prefixItems: [{ type: "string" }] },
    head: { type: "array", prefixItems: [{ type: "string" }], unevaluatedItems: false },
  }),
  ...bothPlaces("a prefixItems position bounded", "properties/tags", {
    base: TAGS,
    head: { ...TAGS, prefixItems: [{ type: "string", maxLength: 3 }] },
  }),
  ...bothPlaces("contentSchema added to a JSON string", "properties/city", {
    base: { type: "string", contentMediaType: "application/json" },
    head: { type: "string", contentMediaType: "application/json", contentSchema: { type: "object" } },
  }),
  ...bothPlaces("not added", "not", { head: { required: ["city", "kind"] } }),
  ...bothPlaces("a property no longer required inside not (the value may match less of it)", "not", {
    base: { required: ["city", "kind"] },
    head: { required: ["city"] },
  }),
  {
    name: "a required property added inside then",
    base: set(`${VC}/allOf`, [hallNeedsCapacity]),
    head: set(`${VC}/allOf`, [whenKind("hall", ["capacity", "city"])]),
    forward: want("new-required-request-property", "breaking", "major"),
    reverse: want("request-property-removed", "warning", "minor"),
  },
  {
    name: "a minimum raised inside dependentSchemas",
    base: set(`${VC}/dependentSchemas`, { city: { properties: { capacity: { minimum: 10 } } } }),
    head: set(`${VC}/dependentSchemas`, { city: { properties: { capacity: { minimum: 20 } } } }),
    ...tightenedRequest,
  },
  {
    name: "the condition of if/then changed",
    base: set(`${VC}/allOf`, [hallNeedsCapacity]),
    head: set(`${VC}/allOf`, [whenKind("park", ["capacity"])]),
    ...bothWays(want("request-property-constraint-changed", "breaking", "major")),
  },
  {
    name: "a prefixItems position given another type, in a response",
    base: set(`${V}/properties/tags`, TAGS),
    head: set(`${V}/properties/tags`, { ...TAGS, prefixItems: [{ type: "integer" }] }),
    ...bothWays(want("response-property-type-changed", "breaking", "major")),
  },
  {
    name: "contentEncoding changed",
    base: set(`${VC}/properties/city/contentEncoding`, "base64"),
    head: set(`${VC}/properties/city/contentEncoding`, "base32"),
    ...bothWays(want("request-property-type-changed", "breaking", "major")),
  },
  {
    name: "contentMediaType changed, in a response",
    base: set(`${V}/properties/city/contentMediaType`, "text/plain"),
    head: set(`${V}/properties/city/contentMediaType`, "text/html"),
    ...bothWays(want("response-property-type-changed", "breaking", "major")),
  },
];
