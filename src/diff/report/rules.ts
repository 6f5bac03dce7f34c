/**
 * The catalogue of every rule `spec:diff` reports: a stable ID (oasdiff's where the meaning is
 * the same), where it bites, how bad it is, and the bump it needs when it is not breaking (a
 * breaking change always needs a major one). Messages are built where a change is found.
 */
import type { ChangeDirection, ChangeSeverity, SemverBump } from "./types.js";

/** One rule of the catalogue. */
export interface RuleEntry {
  readonly direction: ChangeDirection;
  readonly severity: ChangeSeverity;
  /** the bump a change under this rule needs ("major" for breaking rules) */
  readonly semver: SemverBump;
}

const breaking = (direction: ChangeDirection): RuleEntry => ({ direction, severity: "breaking", semver: "major" });
const warning = (direction: ChangeDirection): RuleEntry => ({ direction, severity: "warning", semver: "minor" });
const addition = (direction: ChangeDirection): RuleEntry => ({ direction, severity: "info", semver: "minor" });
const documentation: RuleEntry = { direction: "operation", severity: "info", semver: "patch" };

export const rules = {
  // operations, security, servers and the document
  "api-removed": breaking("operation"),
  "endpoint-added": addition("operation"),
  "api-security-added": breaking("operation"),
  "api-security-removed": addition("operation"),
  "api-security-alternative-removed": breaking("operation"),
  "api-security-alternative-added": addition("operation"),
  "api-security-scope-added": breaking("operation"),
  "api-security-scope-removed": addition("operation"),
  "api-security-scheme-changed": breaking("operation"),
  "api-security-scheme-renamed": warning("operation"),
  "api-security-scheme-added": addition("operation"),
  "api-security-scheme-removed": warning("operation"),
  "api-security-scheme-scopes-changed": addition("operation"),
  "api-base-path-changed": breaking("operation"),
  "api-server-changed": warning("operation"),
  "deprecation-changed": addition("operation"),
  "openapi-version-changed": documentation,
  "documentation-changed": documentation,
  "example-changed": documentation,
  unclassified: warning("operation"),
  "accepted-change-stale": { direction: "operation", severity: "warning", semver: "none" },
  // request parameters
  "new-required-request-parameter": breaking("request"),
  "new-optional-request-parameter": addition("request"),
  "request-parameter-became-required": breaking("request"),
  "request-parameter-became-optional": addition("request"),
  "request-parameter-removed": warning("request"),
  "request-parameter-type-changed": breaking("request"),
  "request-parameter-type-widened": addition("request"),
  "request-parameter-serialization-changed": breaking("request"),
  "request-parameter-enum-value-removed": breaking("request"),
  "request-parameter-enum-value-added": addition("request"),
  "request-parameter-constraint-tightened": breaking("request"),
  "request-parameter-constraint-loosened": addition("request"),
  "request-parameter-constraint-changed": breaking("request"),
  "request-parameter-const-changed": breaking("request"),
  "request-parameter-default-changed": breaking("request"),
  "request-parameter-default-added": warning("request"),
  // request bodies
  "request-body-became-required": breaking("request"),
  "request-body-became-optional": addition("request"),
  "request-body-added-required": breaking("request"),
  "request-body-added-optional": addition("request"),
  "request-body-removed": breaking("request"),
  "request-body-media-type-removed": breaking("request"),
  "request-body-media-type-added": addition("request"),
  "request-body-became-stream": breaking("request"),
  "request-body-became-document": breaking("request"),
  "request-body-closed": breaking("request"),
  "request-body-opened": addition("request"),
  "new-required-request-property": breaking("request"),
  "new-optional-request-property": addition("request"),
  "request-property-became-required": breaking("request"),
  "request-property-became-optional": addition("request"),
  "request-property-removed": warning("request"),
  "request-property-removed-closed": breaking("request"),
  "request-property-type-changed": breaking("request"),
  "request-property-type-widened": addition("request"),
  "request-property-became-not-nullable": breaking("request"),
  "request-property-became-nullable": addition("request"),
  "request-property-enum-value-removed": breaking("request"),
  "request-property-enum-value-added": addition("request"),
  "request-property-constraint-tightened": breaking("request"),
  "request-property-constraint-loosened": addition("request"),
  "request-property-constraint-changed": breaking("request"),
  "request-property-const-changed": breaking("request"),
  "request-property-default-changed": breaking("request"),
  "request-property-default-added": warning("request"),
  "request-one-of-branch-removed": breaking("request"),
  "request-one-of-branch-added": addition("request"),
  "request-one-of-branches-overlap": breaking("request"),
  "request-any-of-branch-removed": breaking("request"),
  "request-any-of-branch-added": addition("request"),
  "request-discriminator-property-changed": breaking("request"),
  "request-discriminator-changed": warning("request"),
  "request-discriminator-mapping-added": addition("request"),
  "request-discriminator-default-mapping-added": addition("request"),
  "request-discriminator-default-mapping-removed": breaking("request"),
  "request-discriminator-default-mapping-changed": breaking("request"),
  // responses
  "response-success-status-removed": breaking("response"),
  "response-success-status-added": warning("response"),
  "response-non-success-status-removed": addition("response"),
  "response-non-success-status-added": addition("response"),
  "response-media-type-removed": breaking("response"),
  "response-media-type-added": addition("response"),
  "response-body-became-stream": breaking("response"),
  "response-body-became-document": breaking("response"),
  "required-response-header-removed": breaking("response"),
  "response-header-removed": warning("response"),
  "response-header-became-optional": breaking("response"),
  "response-header-became-required": addition("response"),
  "response-header-added": addition("response"),
  "response-body-opened": warning("response"),
  "response-body-closed": addition("response"),
  "response-required-property-removed": breaking("response"),
  "response-optional-property-removed": warning("response"),
  "response-required-property-added": addition("response"),
  "response-optional-property-added": addition("response"),
  "response-property-added-closed": breaking("response"),
  "response-property-became-optional": breaking("response"),
  "response-property-became-required": addition("response"),
  "response-property-type-changed": breaking("response"),
  "response-property-type-narrowed": addition("response"),
  "response-property-became-nullable": breaking("response"),
  "response-property-became-not-nullable": addition("response"),
  "response-property-enum-value-added": warning("response"),
  "response-property-enum-value-removed": addition("response"),
  "response-property-constraint-loosened": breaking("response"),
  "response-property-constraint-tightened": addition("response"),
  "response-property-constraint-changed": breaking("response"),
  "response-property-const-changed": breaking("response"),
  "response-property-default-changed": addition("response"),
  "response-one-of-branch-added": breaking("response"),
  "response-one-of-branch-removed": addition("response"),
  "response-any-of-branch-added": breaking("response"),
  "response-any-of-branch-removed": addition("response"),
  "response-discriminator-property-changed": breaking("response"),
  "response-discriminator-changed": warning("response"),
  "response-discriminator-mapping-added": warning("response"),
  "response-discriminator-default-mapping-added": warning("response"),
  "response-discriminator-default-mapping-removed": addition("response"),
  "response-discriminator-default-mapping-changed": breaking("response"),
  // webhooks: requests the API sends (their bodies read as responses), and the answers it takes in
  "webhook-removed": breaking("operation"),
  "webhook-added": addition("operation"),
  "webhook-body-removed": breaking("response"),
  "webhook-body-added": addition("response"),
  "webhook-media-type-added": breaking("response"),
  "webhook-media-type-removed": addition("response"),
  "webhook-response-status-removed": breaking("request"),
  "webhook-response-status-added": addition("request"),
  // the generated package's TypeScript surface
  "api-operation-id-changed": breaking("package"),
  "request-path-parameter-renamed": breaking("package"),
  "api-schema-renamed": breaking("package"),
  "api-schema-removed": breaking("package"),
  "api-schema-added": addition("package"),
  "package-export-removed": breaking("package"),
  "package-export-added": addition("package"),
  "package-type-changed": breaking("package"),
  "package-validator-changed": warning("package"),
} as const satisfies Record<string, RuleEntry>;

/** The ID of a rule of the catalogue. */
export type RuleId = keyof typeof rules;

/** Every rule ID, in catalogue order. */
export const RULE_IDS = Object.keys(rules) as RuleId[];
