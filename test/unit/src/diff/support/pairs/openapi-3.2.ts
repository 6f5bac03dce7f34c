/**
 * One pair per change OpenAPI 3.2 brings to a comparison: `query` and `additionalOperations`
 * operations added or removed (webhooks' too), a sequence's `itemSchema` narrowed or widened (per
 * direction, as a body's `schema` is), one document that became a stream of items or the reverse
 * (a media type's `schema` for an `itemSchema`), the query string as one value (`in: querystring`) added,
 * removed or changed, and a discriminator's `defaultMapping` added, removed or pointed elsewhere.
 */
import { bothWays, type RulePair, want } from "../check-pairs.js";
import { chain, discriminated, type Json, PAYMENT_TAGS, set, without } from "../support.js";

const VENUES = "#/paths/~1venues";
const GET = "#/paths/~1venues~1{id}/get";
const TYPE = "package-type-changed";

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

/** The same counts as one JSON document: the list of them, read or sent whole. */
const countList = (maximum: number) => ({
  "application/jsonl": {
    schema: { type: "array", items: counts(maximum)["application/jsonl"].itemSchema },
  },
});

const filter = (mediaType: string, maximum: number, required = true) => ({
  name: "filter",
  in: "querystring",
  required,
  content: {
    [mediaType]: {
      schema: { type: "object", properties: { city: { type: "string" }, limit: { type: "integer", maximum } } },
    },
  },
});

const PAYMENT = "#/components/schemas/Venue/properties/payment";
const PAYMENT_IN = "#/components/schemas/VenueCreate/properties/payment";
const withDefault = (pointer: string, target: string | undefined) =>
  chain(
    discriminated(pointer, "method", PAYMENT_TAGS),
    target === undefined ? (document: Json) => document : set(`${pointer}/discriminator/defaultMapping`, target),
  );

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
  {
    name: "a response's one document became a stream of items",
    base: v32(set(`${GET}/responses/200/content`, countList(100))),
    head: set(`${GET}/responses/200/content`, counts(100)),
    forward: want("response-body-became-stream", "breaking", "major"),
    reverse: want("response-body-became-document", "breaking", "major"),
  },
  {
    // the `schema` kept beside the `itemSchema` still describes the whole, and is compared as before
    name: "a response's one document became a stream of items, its schema kept beside",
    base: v32(set(`${GET}/responses/200/content`, countList(100))),
    head: set(
      `${GET}/responses/200/content/application~1jsonl/itemSchema`,
      counts(100)["application/jsonl"].itemSchema,
    ),
    forward: want("response-body-became-stream", "breaking", "major"),
    reverse: want("response-body-became-document", "breaking", "major"),
  },
  {
    name: "a request body's one document became a stream of items",
    base: v32(set(`${VENUES}/post/requestBody/content`, countList(100))),
    head: set(`${VENUES}/post/requestBody/content`, counts(100)),
    forward: want("request-body-became-stream", "breaking", "major"),
    reverse: want("request-body-became-document", "breaking", "major"),
  },
  {
    // the query string is one value or a list of parameters, never both: the base has no `q`
    name: "a required querystring added",
    base: v32((document) => without(document, `${GET}/parameters/1`)),
    head: set(`${GET}/parameters/1`, filter("application/x-www-form-urlencoded", 50)),
    forward: want("new-required-request-parameter", "breaking", "major", "package-export-added"),
    reverse: want("request-parameter-removed", "warning", "major", "package-export-removed", TYPE),
  },
  {
    name: "an optional querystring added",
    base: v32((document) => without(document, `${GET}/parameters/1`)),
    head: set(`${GET}/parameters/1`, filter("application/json", 50, false)),
    forward: want("new-optional-request-parameter", "info", "minor", "package-export-added"),
    reverse: want("request-parameter-removed", "warning", "major", "package-export-removed", TYPE),
  },
  {
    name: "a querystring's content schema narrowed",
    base: v32(set(`${GET}/parameters/1`, filter("application/x-www-form-urlencoded", 50))),
    head: set(`${GET}/parameters/1`, filter("application/x-www-form-urlencoded", 20)),
    forward: want("request-property-constraint-tightened", "breaking", "major"),
    reverse: want("request-property-constraint-loosened", "info", "minor"),
  },
  {
    name: "a querystring written as JSON, not as a form",
    base: v32(set(`${GET}/parameters/1`, filter("application/x-www-form-urlencoded", 50))),
    head: set(`${GET}/parameters/1`, filter("application/json", 50)),
    ...bothWays(want("request-parameter-serialization-changed", "breaking", "major")),
  },
  {
    name: "a request discriminator's defaultMapping added",
    base: v32(withDefault(PAYMENT_IN, undefined)),
    head: withDefault(PAYMENT_IN, "Card"),
    forward: want("request-discriminator-default-mapping-added", "info", "minor"),
    reverse: want("request-discriminator-default-mapping-removed", "breaking", "major"),
  },
  {
    name: "a response discriminator's defaultMapping added",
    base: v32(withDefault(PAYMENT, undefined)),
    head: withDefault(PAYMENT, "#/components/schemas/Transfer"),
    forward: want("response-discriminator-default-mapping-added", "warning", "minor"),
    reverse: want("response-discriminator-default-mapping-removed", "info", "minor"),
  },
  {
    name: "a discriminator's defaultMapping pointed at another schema",
    base: v32(withDefault(PAYMENT, "Card")),
    head: withDefault(PAYMENT, "Transfer"),
    ...bothWays(want("response-discriminator-default-mapping-changed", "breaking", "major")),
  },
  {
    name: "a request discriminator's defaultMapping pointed at another schema",
    base: v32(withDefault(PAYMENT_IN, "Card")),
    head: withDefault(PAYMENT_IN, "Transfer"),
    ...bothWays(want("request-discriminator-default-mapping-changed", "breaking", "major")),
  },
];
