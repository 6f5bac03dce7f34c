import type { TypeBreak } from "../findings/finding.js";
import type { RuleId } from "../report/rules.js";

/** What changed in a schema, before the direction decides how bad that is. */
export type SchemaChangeKind =
  | "type-narrowed"
  | "type-widened"
  | "type-changed"
  | "format-narrowed"
  | "format-widened"
  | "format-changed"
  | "nullable-added"
  | "nullable-removed"
  | "enum-added"
  | "enum-removed"
  | "constraint-tightened"
  | "constraint-loosened"
  | "constraint-changed"
  | "const-changed"
  | "default-changed"
  | "default-added"
  | "property-added-required"
  | "property-added-optional"
  | "property-added-closed"
  | "property-removed-required"
  | "property-removed-optional"
  | "property-forbidden"
  | "became-required"
  | "became-optional"
  | "closed"
  | "opened"
  | "oneOf-added"
  | "oneOf-overlap"
  | "oneOf-removed"
  | "anyOf-added"
  | "anyOf-removed"
  | "discriminator-property-changed"
  | "discriminator-changed"
  | "discriminator-mapping-added"
  | "discriminator-default-mapping-added"
  | "discriminator-default-mapping-removed"
  | "discriminator-default-mapping-changed";

/** A rule, and whose code the type change can break (none when the generated types stay the same). */
type Classified = readonly [RuleId, TypeBreak?];

/** Per kind of change: what it means in a request body, and what it means in a response. */
const BODIES: Readonly<Record<SchemaChangeKind, readonly [request: Classified, response: Classified]>> = {
  "type-narrowed": [
    ["request-property-type-changed", "callers"],
    ["response-property-type-narrowed", "handlers"],
  ],
  "type-widened": [
    ["request-property-type-widened", "handlers"],
    ["response-property-type-changed", "callers"],
  ],
  "type-changed": [
    ["request-property-type-changed", "callers"],
    ["response-property-type-changed", "callers"],
  ],
  "format-narrowed": [["request-property-type-changed"], ["response-property-type-narrowed"]],
  "format-widened": [["request-property-type-widened"], ["response-property-type-changed"]],
  "format-changed": [["request-property-type-changed"], ["response-property-type-changed"]],
  "nullable-added": [
    ["request-property-became-nullable", "handlers"],
    ["response-property-became-nullable", "callers"],
  ],
  "nullable-removed": [
    ["request-property-became-not-nullable", "callers"],
    ["response-property-became-not-nullable", "handlers"],
  ],
  "enum-added": [
    ["request-property-enum-value-added", "handlers"],
    ["response-property-enum-value-added", "callers"],
  ],
  "enum-removed": [
    ["request-property-enum-value-removed", "callers"],
    ["response-property-enum-value-removed", "handlers"],
  ],
  "constraint-tightened": [["request-property-constraint-tightened"], ["response-property-constraint-tightened"]],
  "constraint-loosened": [["request-property-constraint-loosened"], ["response-property-constraint-loosened"]],
  "constraint-changed": [["request-property-constraint-changed"], ["response-property-constraint-changed"]],
  "const-changed": [
    ["request-property-const-changed", "callers"],
    ["response-property-const-changed", "callers"],
  ],
  "default-changed": [["request-property-default-changed"], ["response-property-default-changed"]],
  "default-added": [["request-property-default-added"], ["response-property-default-changed"]],
  "property-added-required": [
    ["new-required-request-property", "callers"],
    ["response-required-property-added", "handlers"],
  ],
  "property-added-optional": [["new-optional-request-property"], ["response-optional-property-added"]],
  "property-added-closed": [["new-optional-request-property"], ["response-property-added-closed"]],
  "property-removed-required": [
    ["request-property-removed", "callers"],
    ["response-required-property-removed", "callers"],
  ],
  "property-removed-optional": [
    ["request-property-removed", "callers"],
    ["response-optional-property-removed", "callers"],
  ],
  "property-forbidden": [
    ["request-property-removed-closed", "callers"],
    ["response-optional-property-removed", "callers"],
  ],
  "became-required": [
    ["request-property-became-required", "callers"],
    ["response-property-became-required", "handlers"],
  ],
  "became-optional": [
    ["request-property-became-optional", "handlers"],
    ["response-property-became-optional", "callers"],
  ],
  closed: [
    ["request-body-closed", "callers"],
    ["response-body-closed", "handlers"],
  ],
  opened: [["request-body-opened"], ["response-body-opened"]],
  "oneOf-added": [
    ["request-one-of-branch-added", "handlers"],
    ["response-one-of-branch-added", "callers"],
  ],
  "oneOf-overlap": [
    ["request-one-of-branches-overlap", "callers"],
    ["response-one-of-branch-added", "callers"],
  ],
  "oneOf-removed": [
    ["request-one-of-branch-removed", "callers"],
    ["response-one-of-branch-removed", "handlers"],
  ],
  "anyOf-added": [
    ["request-any-of-branch-added", "handlers"],
    ["response-any-of-branch-added", "callers"],
  ],
  "anyOf-removed": [
    ["request-any-of-branch-removed", "callers"],
    ["response-any-of-branch-removed", "handlers"],
  ],
  "discriminator-property-changed": [
    ["request-discriminator-property-changed"],
    ["response-discriminator-property-changed"],
  ],
  "discriminator-changed": [["request-discriminator-changed"], ["response-discriminator-changed"]],
  "discriminator-mapping-added": [["request-discriminator-mapping-added"], ["response-discriminator-mapping-added"]],
  "discriminator-default-mapping-added": [
    ["request-discriminator-default-mapping-added"],
    ["response-discriminator-default-mapping-added"],
  ],
  "discriminator-default-mapping-removed": [
    ["request-discriminator-default-mapping-removed"],
    ["response-discriminator-default-mapping-removed"],
  ],
  "discriminator-default-mapping-changed": [
    ["request-discriminator-default-mapping-changed"],
    ["response-discriminator-default-mapping-changed"],
  ],
};

/** A parameter's own schema has parameter rules; properties inside it (deepObject) keep the body's. */
const PARAMETER: Readonly<Partial<Record<SchemaChangeKind, Classified>>> = {
  "type-narrowed": ["request-parameter-type-changed", "callers"],
  "type-widened": ["request-parameter-type-widened", "handlers"],
  "type-changed": ["request-parameter-type-changed", "callers"],
  "format-narrowed": ["request-parameter-type-changed"],
  "format-widened": ["request-parameter-type-widened"],
  "format-changed": ["request-parameter-type-changed"],
  "nullable-added": ["request-parameter-type-widened", "handlers"],
  "nullable-removed": ["request-parameter-type-changed", "callers"],
  "enum-added": ["request-parameter-enum-value-added", "handlers"],
  "enum-removed": ["request-parameter-enum-value-removed", "callers"],
  "constraint-tightened": ["request-parameter-constraint-tightened"],
  "constraint-loosened": ["request-parameter-constraint-loosened"],
  "constraint-changed": ["request-parameter-constraint-changed"],
  "const-changed": ["request-parameter-const-changed", "callers"],
  "default-changed": ["request-parameter-default-changed"],
  "default-added": ["request-parameter-default-added"],
};

/** Where in the exchange a schema stands: a parameter's own schema, or a body (or header) below it. */
export type SchemaPlace = "parameter" | "request" | "response";

/** The rule a kind of change falls under at a place, and whose code its type change can break. */
export function classifyKind(place: SchemaPlace, kind: SchemaChangeKind): { rule: RuleId; typeBreak?: TypeBreak } {
  const [request, response] = BODIES[kind];
  const [rule, typeBreak] =
    place === "response" ? response : ((place === "parameter" ? PARAMETER[kind] : undefined) ?? request);
  return typeBreak === undefined ? { rule } : { rule, typeBreak };
}

/** What a kind of change does to the values a schema accepts: fewer, more, some of each, or none. */
type Polarity = "narrows" | "widens" | "changes" | "neutral";

const POLARITY: Readonly<Record<SchemaChangeKind, Polarity>> = {
  "type-narrowed": "narrows",
  "type-widened": "widens",
  "type-changed": "changes",
  "format-narrowed": "narrows",
  "format-widened": "widens",
  "format-changed": "changes",
  "nullable-added": "widens",
  "nullable-removed": "narrows",
  "enum-added": "widens",
  "enum-removed": "narrows",
  "constraint-tightened": "narrows",
  "constraint-loosened": "widens",
  "constraint-changed": "changes",
  "const-changed": "changes",
  "default-changed": "neutral",
  "default-added": "neutral",
  // a property added to an open object constrains values that were free under its name
  "property-added-required": "narrows",
  "property-added-optional": "narrows",
  // a property added to a closed object is a value it refused before
  "property-added-closed": "widens",
  "property-removed-required": "widens",
  "property-removed-optional": "widens",
  "property-forbidden": "narrows",
  "became-required": "narrows",
  "became-optional": "widens",
  closed: "narrows",
  opened: "widens",
  "oneOf-added": "widens",
  "oneOf-overlap": "changes",
  "oneOf-removed": "narrows",
  "anyOf-added": "widens",
  "anyOf-removed": "narrows",
  // which branch a value picks, not which values are valid
  "discriminator-property-changed": "neutral",
  "discriminator-changed": "neutral",
  "discriminator-mapping-added": "neutral",
  // the schema objects without a tag are read by: more of them valid, fewer, or others
  "discriminator-default-mapping-added": "widens",
  "discriminator-default-mapping-removed": "narrows",
  "discriminator-default-mapping-changed": "changes",
};

const NEGATED: Readonly<Record<Polarity, SchemaChangeKind | undefined>> = {
  narrows: "constraint-loosened",
  widens: "constraint-tightened",
  changes: "constraint-changed",
  neutral: undefined,
};

/**
 * A kind of change read under `not`: what the inner schema accepts, the level refuses, so a
 * narrowing inside loosens the level and a widening tightens it.
 */
export function negateKind(kind: SchemaChangeKind): SchemaChangeKind {
  return NEGATED[POLARITY[kind]] ?? kind;
}
