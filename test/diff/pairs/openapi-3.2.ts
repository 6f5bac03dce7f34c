/**
 * One pair per change OpenAPI 3.2 brings to a comparison: `query` and `additionalOperations`
 * operations added or removed (webhooks' too).
 */
import { type RulePair, want } from "../check-pairs.js";
import { chain, type Json, set, without } from "../support.js";

const VENUES = "#/paths/~1venues";

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
];
