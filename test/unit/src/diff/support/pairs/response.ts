/** One pair per response-side rule: the rule, its severity and the bump, in both directions. */
import { bothWays, type RulePair, want } from "../check-pairs.js";
import { discriminated, objectBranches, PAYMENT_TAGS, set, without } from "../support.js";

const V = "#/components/schemas/Venue";
const OK = "#/paths/~1venues~1{id}/get/responses/200";
const TYPE = "package-type-changed";

const rate = (required: boolean): unknown => ({ "X-Rate": { required, schema: { type: "integer" } } });

const PAYMENT = `${V}/properties/payment`;

export const responsePairs: readonly RulePair[] = [
  {
    name: "a discriminator's propertyName changed",
    base: discriminated(PAYMENT, "method", PAYMENT_TAGS),
    head: discriminated(PAYMENT, "kind", PAYMENT_TAGS),
    ...bothWays(want("response-discriminator-property-changed", "breaking", "major")),
  },
  {
    name: "a discriminator's tag value pointed at another schema",
    base: discriminated(PAYMENT, "method", PAYMENT_TAGS),
    head: discriminated(PAYMENT, "method", { ...PAYMENT_TAGS, card: "#/components/schemas/Transfer" }),
    // Card, no longer named by the mapping, is picked by its component name, "Card"
    forward: want("response-discriminator-changed", "warning", "minor", "response-discriminator-mapping-added"),
    reverse: want("response-discriminator-changed", "warning", "minor"),
  },
  {
    name: "a required property removed",
    head: (document) => set(`${V}/required`, ["venue_id"])(without(document, `${V}/properties/name`)),
    forward: want("response-required-property-removed", "breaking", "major"),
    reverse: want("response-required-property-added", "info", "major", TYPE),
  },
  {
    name: "an optional property removed",
    head: (document) => without(document, `${V}/properties/city`),
    forward: want("response-optional-property-removed", "warning", "major", TYPE),
    reverse: want("response-optional-property-added", "info", "minor"),
  },
  {
    name: "a property made optional",
    head: set(`${V}/required`, ["venue_id"]),
    forward: want("response-property-became-optional", "breaking", "major"),
    reverse: want("response-property-became-required", "info", "major", TYPE),
  },
  {
    name: "a type changed",
    head: set(`${V}/properties/venue_id/type`, "string"),
    ...bothWays(want("response-property-type-changed", "breaking", "major")),
  },
  {
    name: "a type widened",
    head: set(`${V}/properties/venue_id/type`, "number"),
    forward: want("response-property-type-changed", "breaking", "major"),
    reverse: want("response-property-type-narrowed", "info", "major", TYPE),
  },
  {
    name: "null now possible",
    head: set(`${V}/properties/city/type`, ["string", "null"]),
    forward: want("response-property-became-nullable", "breaking", "major"),
    reverse: want("response-property-became-not-nullable", "info", "major", TYPE),
  },
  {
    name: "a const value changed",
    base: set(`${V}/properties/kind`, { const: "hall" }),
    head: set(`${V}/properties/kind`, { const: "park" }),
    ...bothWays(want("response-property-const-changed", "breaking", "major")),
  },
  {
    name: "a pattern replaced by another",
    base: set(`${V}/properties/city/pattern`, "^[A-Z]"),
    head: set(`${V}/properties/city/pattern`, "^[A-Z][a-z]"),
    ...bothWays(want("response-property-constraint-changed", "breaking", "major")),
  },
  {
    name: "an enum value added",
    head: set(`${V}/properties/kind/enum`, ["hall", "park", "roof"]),
    forward: want("response-property-enum-value-added", "warning", "major", TYPE),
    reverse: want("response-property-enum-value-removed", "info", "major", TYPE),
  },
  {
    name: "maxLength raised",
    head: set(`${V}/properties/name/maxLength`, 200),
    forward: want("response-property-constraint-loosened", "breaking", "major"),
    reverse: want("response-property-constraint-tightened", "info", "minor"),
  },
  {
    name: "a default added",
    head: set(`${V}/properties/city/default`, "Bristol"),
    ...bothWays(want("response-property-default-changed", "info", "minor")),
  },
  {
    name: "a closed object opened",
    base: set(`${V}/additionalProperties`, false),
    head: (document) => without(document, `${V}/additionalProperties`),
    forward: want("response-body-opened", "warning", "minor"),
    reverse: want("response-body-closed", "info", "minor"),
  },
  {
    name: "an optional property added to a closed object",
    base: (document) => set(`${V}/additionalProperties`, false)(without(document, `${V}/properties/city`)),
    head: set(`${V}/properties/city`, { type: "string" }),
    forward: want("response-property-added-closed", "breaking", "major"),
    reverse: want("response-optional-property-removed", "warning", "major", TYPE),
  },
  {
    name: "a required property added to a closed object",
    base: (document) => set(`${V}/additionalProperties`, false)(without(document, `${V}/properties/city`)),
    head: (document) =>
      set(`${V}/required`, ["venue_id", "name", "city"])(set(`${V}/properties/city`, { type: "string" })(document)),
    forward: want("response-property-added-closed", "breaking", "major"),
    reverse: want("response-required-property-removed", "breaking", "major"),
  },
  {
    name: "the schema of other properties taken away (compared with anything)",
    base: set(`${V}/additionalProperties`, { type: "string" }),
    head: (document) => without(document, `${V}/additionalProperties`),
    forward: want("response-property-type-changed", "breaking", "major", "response-property-became-nullable"),
    reverse: want("response-property-type-narrowed", "info", "major", "response-property-became-not-nullable", TYPE),
  },
  {
    name: "a oneOf branch added",
    base: set(`${V}/properties/place`, objectBranches("oneOf", ["a"])),
    head: set(`${V}/properties/place`, objectBranches("oneOf", ["a", "b"])),
    forward: want("response-one-of-branch-added", "breaking", "major"),
    reverse: want("response-one-of-branch-removed", "info", "major", TYPE),
  },
  {
    name: "an anyOf branch added",
    base: set(`${V}/properties/place`, objectBranches("anyOf", ["a"])),
    head: set(`${V}/properties/place`, objectBranches("anyOf", ["a", "b"])),
    forward: want("response-any-of-branch-added", "breaking", "major"),
    reverse: want("response-any-of-branch-removed", "info", "major", TYPE),
  },
  {
    name: "the success status renumbered",
    head: (document) =>
      set("#/paths/~1venues~1{id}/get/responses/201", {
        description: "ok",
        content: { "application/json": { schema: { $ref: V } } },
      })(without(document, OK)),
    forward: want(
      "response-success-status-removed",
      "breaking",
      "major",
      "response-success-status-added",
      TYPE,
      "package-export-added",
      "package-export-removed",
    ),
    reverse: want(
      "response-success-status-added",
      "warning",
      "major",
      "response-success-status-removed",
      TYPE,
      "package-export-added",
      "package-export-removed",
    ),
  },
  {
    name: "an error status added",
    head: set("#/paths/~1venues~1{id}/get/responses/404", {
      description: "missing",
      content: { "application/json": { schema: { type: "object" } } },
    }),
    forward: want("response-non-success-status-added", "info", "minor", "package-export-added"),
    reverse: want("response-non-success-status-removed", "info", "major", "package-export-removed"),
  },
  {
    name: "a response media type removed",
    base: set(`${OK}/content/application~1xml`, { schema: { $ref: V } }),
    head: (document) => without(document, `${OK}/content/application~1xml`),
    forward: want("response-media-type-removed", "breaking", "major"),
    reverse: want("response-media-type-added", "info", "minor"),
  },
  {
    name: "a required response header removed",
    base: set(`${OK}/headers`, rate(true)),
    head: (document) => without(document, `${OK}/headers`),
    forward: want("required-response-header-removed", "breaking", "major"),
    reverse: want("response-header-added", "info", "minor"),
  },
  {
    name: "an optional response header removed",
    base: set(`${OK}/headers`, rate(false)),
    head: (document) => without(document, `${OK}/headers`),
    forward: want("response-header-removed", "warning", "minor"),
    reverse: want("response-header-added", "info", "minor"),
  },
  {
    name: "a response header made optional",
    base: set(`${OK}/headers`, rate(true)),
    head: set(`${OK}/headers`, rate(false)),
    forward: want("response-header-became-optional", "breaking", "major"),
    reverse: want("response-header-became-required", "info", "minor"),
  },
];
