/** One pair per request-side rule (bodies): the rule, its severity and the bump, in both directions. */
import { bothWays, type RulePair, tightenedRequest, want } from "../check-pairs.js";
import { chain, discriminated, objectBranches, PAYMENT_TAGS, set, without, withValue } from "../support.js";

const VC = "#/components/schemas/VenueCreate";
const BODY = "#/paths/~1venues/post/requestBody";
const TYPE = "package-type-changed";

const PAYMENT = `${VC}/properties/payment`;

export const requestBodyPairs: readonly RulePair[] = [
  {
    name: "a property that took anything narrowed to an anyOf, whose branches lie inside it",
    base: set(`${VC}/properties/note`, {}),
    head: set(`${VC}/properties/note`, { anyOf: [{ type: "string" }, { type: "number" }] }),
    forward: want("request-property-type-changed", "breaking", "major", "request-property-became-not-nullable"),
    reverse: want("request-property-type-widened", "info", "major", "request-property-became-nullable", TYPE),
  },
  {
    name: "a discriminator's propertyName changed",
    base: discriminated(PAYMENT, "method", PAYMENT_TAGS),
    head: discriminated(PAYMENT, "kind", PAYMENT_TAGS),
    ...bothWays(want("request-discriminator-property-changed", "breaking", "major")),
  },
  {
    name: "a discriminator's tag value added to its mapping",
    base: discriminated(PAYMENT, "method", PAYMENT_TAGS),
    head: discriminated(PAYMENT, "method", { ...PAYMENT_TAGS, wire: "#/components/schemas/Transfer" }),
    forward: want("request-discriminator-mapping-added", "info", "minor"),
    reverse: want("request-discriminator-changed", "warning", "minor"),
  },
  {
    name: "a required property added",
    head: chain(set(`${VC}/properties/zip`, { type: "string" }), set(`${VC}/required`, ["name", "zip"])),
    forward: want("new-required-request-property", "breaking", "major"),
    reverse: want("request-property-removed", "warning", "major", TYPE),
  },
  {
    name: "an optional property added",
    head: set(`${VC}/properties/zip`, { type: "string" }),
    forward: want("new-optional-request-property", "info", "minor"),
    reverse: want("request-property-removed", "warning", "major", TYPE),
  },
  {
    name: "a property made required",
    head: set(`${VC}/required`, ["name", "city"]),
    forward: want("request-property-became-required", "breaking", "major"),
    reverse: want("request-property-became-optional", "info", "major", TYPE),
  },
  {
    name: "a property removed from a closed object",
    base: set(`${VC}/additionalProperties`, false),
    head: (document) => without(document, `${VC}/properties/city`),
    forward: want("request-property-removed-closed", "breaking", "major"),
    reverse: want("new-optional-request-property", "info", "minor"),
  },
  {
    name: "a type widened",
    head: set(`${VC}/properties/city`, { type: ["string", "integer"] }),
    forward: want("request-property-type-widened", "info", "major", TYPE),
    reverse: want("request-property-type-changed", "breaking", "major"),
  },
  {
    name: "a type changed",
    head: set(`${VC}/properties/capacity/type`, "string"),
    ...bothWays(want("request-property-type-changed", "breaking", "major")),
  },
  {
    name: "a format added",
    head: set(`${VC}/properties/city/format`, "email"),
    forward: want("request-property-type-changed", "breaking", "major"),
    reverse: want("request-property-type-widened", "info", "minor"),
  },
  {
    name: "null no longer allowed",
    base: set(`${VC}/properties/city`, { type: ["string", "null"] }),
    head: set(`${VC}/properties/city`, { type: "string" }),
    forward: want("request-property-became-not-nullable", "breaking", "major"),
    reverse: want("request-property-became-nullable", "info", "major", TYPE),
  },
  {
    name: "an enum value removed",
    head: set(`${VC}/properties/kind/enum`, ["hall"]),
    forward: want("request-property-enum-value-removed", "breaking", "major"),
    reverse: want("request-property-enum-value-added", "info", "major", TYPE),
  },
  {
    name: "a const value changed",
    base: set(`${VC}/properties/kind`, { const: "hall" }),
    head: set(`${VC}/properties/kind`, { const: "park" }),
    ...bothWays(want("request-property-const-changed", "breaking", "major")),
  },
  {
    name: "a pattern replaced by another",
    head: set(`${VC}/properties/name/pattern`, "^[A-Z][a-z]"),
    ...bothWays(want("request-property-constraint-changed", "breaking", "major")),
  },
  tightenedRequest("maxLength lowered", set(`${VC}/properties/name/maxLength`, 50)),
  tightenedRequest("minimum raised", set(`${VC}/properties/capacity/minimum`, 1)),
  tightenedRequest("minimum made exclusive", (document) =>
    set(`${VC}/properties/capacity/exclusiveMinimum`, 0)(without(document, `${VC}/properties/capacity/minimum`)),
  ),
  tightenedRequest("multipleOf added to an integer", set(`${VC}/properties/capacity/multipleOf`, 5)),
  {
    ...tightenedRequest(
      "an integer's multipleOf raised to a multiple of it",
      set(`${VC}/properties/capacity/multipleOf`, 10),
    ),
    base: set(`${VC}/properties/capacity/multipleOf`, 5),
  },
  tightenedRequest("a pattern added", set(`${VC}/properties/city/pattern`, "^[a-z]+$")),
  tightenedRequest("maxItems lowered", set(`${VC}/properties/tags/maxItems`, 3)),
  {
    name: "a default added",
    head: set(`${VC}/properties/capacity/default`, 10),
    forward: want("request-property-default-added", "warning", "minor"),
    reverse: want("request-property-default-changed", "breaking", "major"),
  },
  {
    name: "the body closed with additionalProperties: false",
    head: set(`${VC}/additionalProperties`, false),
    forward: want("request-body-closed", "breaking", "major"),
    reverse: want("request-body-opened", "info", "minor"),
  },
  {
    name: "the body's other properties given a schema (compared with anything)",
    head: set(`${VC}/additionalProperties`, { type: "string" }),
    forward: want("request-property-type-changed", "breaking", "major", "request-property-became-not-nullable"),
    reverse: want("request-property-type-widened", "info", "major", "request-property-became-nullable", TYPE),
  },

  {
    name: "a oneOf branch removed",
    base: set(`${VC}/properties/contact`, objectBranches("oneOf", ["email", "phone"])),
    head: set(`${VC}/properties/contact`, objectBranches("oneOf", ["email"])),
    forward: want("request-one-of-branch-removed", "breaking", "major"),
    reverse: want("request-one-of-branches-overlap", "breaking", "major"),
  },
  {
    name: "a oneOf branch of another type added",
    base: set(`${VC}/properties/contact`, { oneOf: [{ type: "string" }] }),
    head: set(`${VC}/properties/contact`, { oneOf: [{ type: "string" }, { type: "integer" }] }),
    forward: want("request-one-of-branch-added", "info", "major", TYPE),
    reverse: want("request-one-of-branch-removed", "breaking", "major"),
  },
  {
    name: "an anyOf branch removed",
    base: set(`${VC}/properties/contact`, objectBranches("anyOf", ["email", "phone"])),
    head: set(`${VC}/properties/contact`, objectBranches("anyOf", ["email"])),
    forward: want("request-any-of-branch-removed", "breaking", "major"),
    reverse: want("request-any-of-branch-added", "info", "major", TYPE),
  },
  {
    name: "the body made required",
    base: set(`${BODY}/required`, false),
    head: set(`${BODY}/required`, true),
    forward: want("request-body-became-required", "breaking", "major"),
    reverse: want("request-body-became-optional", "info", "major", TYPE),
  },
  {
    name: "a required body added",
    base: (document) => without(document, BODY),
    head: (document) =>
      withValue(document, BODY, { required: true, content: { "application/json": { schema: { $ref: VC } } } }),
    forward: want("request-body-added-required", "breaking", "major", "package-export-added"),
    reverse: want("request-body-removed", "breaking", "major", "package-export-removed"),
  },
  {
    name: "an optional body added",
    base: (document) => without(document, BODY),
    head: (document) => withValue(document, BODY, { content: { "application/json": { schema: { $ref: VC } } } }),
    forward: want("request-body-added-optional", "info", "minor", "package-export-added"),
    reverse: want("request-body-removed", "breaking", "major", "package-export-removed"),
  },
  {
    name: "a request media type removed",
    base: set(`${BODY}/content/multipart~1form-data`, { schema: { $ref: VC } }),
    head: (document) => without(document, `${BODY}/content/multipart~1form-data`),
    forward: want("request-body-media-type-removed", "breaking", "major", "package-export-removed"),
    reverse: want("request-body-media-type-added", "info", "minor", "package-export-added"),
  },
];
