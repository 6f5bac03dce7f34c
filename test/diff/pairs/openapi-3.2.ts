/**
 * One pair per change OpenAPI 3.2 brings to a comparison: `query` and `additionalOperations`
 * operations added or removed (webhooks' too), and a sequence's `itemSchema` narrowed or widened
 * (per direction, as a body's `schema` is).
 */
import { type RulePair, want } from "../check-pairs.js";
import { chain, type Json, set, without } from "../support.js";

const VENUES = "#/paths/~1venues";
const GET = "#/paths/~1venues~1{id}/get";

/** The base document as OpenAPI 3.2, with the steps given applied. */
const v32 = (...steps: ((document: Json) => Json)[]): ((document: Json) => Json) =>
  chain(set("#/openapi", "3.2.0"), ...steps);

const search = {
  operationId: "searchVenues",
  requestBody: {
    content: { "application/json": { schema: { type: "object", properties: { near: { type: "string" } } } } },
  },
  responses: { "200": { description: "found", content: { "application/json": { schema: { type: "array" } } } } },
};
const purge = { operationId: "purgeVenues", responses: { "204": { description: "purged" } } };

/** A response (or, with `request`, a request body) of JSON Lines whose items are counts up to `maximum`. */
const counts = (maximum: number) => ({
  "application/jsonl": {
    itemSchema: { type: "object", required: ["n"], properties: { n: { type: "integer", minimum: 0, maximum } } },
  },
});

export const openapi32Pairs: readonly RulePair[] = [
  {
    name: "a query operation removed",
    base: v32(set(`${VENUES}/query`, search)),
    head: (document) => without(document, `${VENUES}/query`),
    forward: want("api-removed", "breaking", "major"),
    reverse: want("endpoint-added", "info", "minor"),
  },
  {
    name: "an operation of additionalOperations removed",
    base: v32(set(`${VENUES}/additionalOperations`, { PURGE: purge })),
    head: (document) => without(document, `${VENUES}/additionalOperations`),
    forward: want("api-removed", "breaking", "major"),
    reverse: want("endpoint-added", "info", "minor"),
  },
  {
    name: "a webhook's operation of additionalOperations removed",
    base: v32(set("#/webhooks", { venueMoved: { additionalOperations: { NOTIFY: purge } } })),
    head: (document) => without(document, "#/webhooks/venueMoved/additionalOperations"),
    forward: want("webhook-removed", "breaking", "major"),
    reverse: want("webhook-added", "info", "minor"),
  },
  {
    name: "a response stream's items narrowed",
    base: v32(set(`${GET}/responses/200/content`, counts(100))),
    head: set(`${GET}/responses/200/content`, counts(10)),
    forward: want("response-property-constraint-tightened", "info", "minor"),
    reverse: want("response-property-constraint-loosened", "breaking", "major"),
  },
  {
    name: "a request stream's items narrowed",
    base: v32(set(`${VENUES}/post/requestBody/content`, counts(100))),
    head: set(`${VENUES}/post/requestBody/content`, counts(10)),
    forward: want("request-property-constraint-tightened", "breaking", "major"),
    reverse: want("request-property-constraint-loosened", "info", "minor"),
  },
];
