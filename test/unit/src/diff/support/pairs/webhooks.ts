/** One pair per webhook rule: the rule, its severity and the bump, in both directions. */
import { type RulePair, want } from "../check-pairs.js";
import { type Json, set, without } from "../support.js";

const HOOK = "#/webhooks/venueOpened/post";
const BODY = `${HOOK}/requestBody`;

/** The base document with one webhook: the API posts a venue's id to its subscribers. */
const withWebhook = (document: Json): Json =>
  set("#/webhooks", {
    venueOpened: {
      post: {
        operationId: "venueOpened",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: { type: "object", properties: { venue_id: { type: "integer" } }, required: ["venue_id"] },
            },
          },
        },
        responses: { "200": { description: "received" } },
      },
    },
  })(document);

export const webhookPairs: readonly RulePair[] = [
  {
    name: "a webhook removed",
    base: withWebhook,
    head: (document) => without(document, "#/webhooks/venueOpened"),
    forward: want("webhook-removed", "breaking", "major"),
    reverse: want("webhook-added", "info", "minor"),
  },
  {
    name: "a webhook's body made optional",
    base: withWebhook,
    head: set(`${BODY}/required`, false),
    forward: want("webhook-body-removed", "breaking", "major"),
    reverse: want("webhook-body-added", "info", "minor"),
  },
  {
    name: "a webhook's body sent in a new media type",
    base: withWebhook,
    head: set(`${BODY}/content/application~1xml`, { schema: { type: "object" } }),
    forward: want("webhook-media-type-added", "breaking", "major"),
    reverse: want("webhook-media-type-removed", "info", "minor"),
  },
  {
    name: "a webhook's body read as a response: a property type widened",
    base: withWebhook,
    head: set(`${BODY}/content/application~1json/schema/properties/venue_id/type`, ["integer", "string"]),
    forward: want("response-property-type-changed", "breaking", "major"),
    reverse: want("response-property-type-narrowed", "info", "minor"),
  },
  {
    name: "a status a receiver may answer with removed",
    base: (document) => set(`${HOOK}/responses/410`, { description: "unsubscribe" })(withWebhook(document)),
    head: (document) => without(document, `${HOOK}/responses/410`),
    forward: want("webhook-response-status-removed", "breaking", "major"),
    reverse: want("webhook-response-status-added", "info", "minor"),
  },
];
