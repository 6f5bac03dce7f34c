/** One pair per package rule (the generated TypeScript surface): the rule, its severity and the bump, both ways. */
import { bothWays, type RulePair, want } from "../check-pairs.js";
import { type Json, set, without, withValue } from "../support.js";

const SCHEMAS = "#/components/schemas";
const extra = (properties: Json): unknown => ({ type: "object", properties });

/** The same document with a component renamed, and every $ref to it. */
function renameComponent(document: Json, from: string, to: string): Json {
  const text = JSON.stringify(document).split(`"${SCHEMAS}/${from}"`).join(`"${SCHEMAS}/${to}"`);
  const renamed = JSON.parse(text) as Json;
  const schemas = (renamed.components as Json).schemas as Json;
  const { [from]: schema, ...rest } = schemas;
  return withValue(renamed, SCHEMAS, { ...rest, [to]: schema });
}

export const packagePairs: readonly RulePair[] = [
  {
    name: "an operationId changed",
    head: set("#/paths/~1venues~1{id}/get/operationId", "fetchVenue"),
    ...bothWays(want("api-operation-id-changed", "breaking", "major")),
  },
  {
    name: "a component renamed (its $refs follow)",
    head: (document) => renameComponent(document, "Venue", "Place"),
    ...bothWays(want("api-schema-renamed", "breaking", "major")),
  },
  {
    name: "an unused component removed",
    base: set(`${SCHEMAS}/Extra`, extra({ a: { type: "string" } })),
    head: (document) => without(document, `${SCHEMAS}/Extra`),
    forward: want("api-schema-removed", "breaking", "major"),
    reverse: want("api-schema-added", "info", "minor"),
  },
  {
    name: "an unused component's property retyped",
    base: set(`${SCHEMAS}/Extra`, extra({ a: { type: "string" } })),
    head: set(`${SCHEMAS}/Extra`, extra({ a: { type: "integer" } })),
    ...bothWays(want("package-type-changed", "breaking", "major")),
  },
  {
    name: "an unused component's constraint changed",
    base: set(`${SCHEMAS}/Extra`, extra({ a: { type: "string" } })),
    head: set(`${SCHEMAS}/Extra`, extra({ a: { type: "string", maxLength: 5 } })),
    ...bothWays(want("package-validator-changed", "warning", "minor")),
  },
  {
    name: "a component takes an operation's type name",
    head: set(`${SCHEMAS}/GetVenueQuery`, extra({ a: { type: "string" } })),
    forward: want("package-export-removed", "breaking", "major", "api-schema-added", "package-export-added"),
    reverse: want("package-export-removed", "breaking", "major", "api-schema-removed", "package-export-added"),
  },
];
