/**
 * The catalog of every diagnostic the generator reports: a stable code, its severity, and the hint
 * that tells the user how to fix it. Messages are built where the problem is found; the catalog
 * keeps codes and hints in one place so they stay consistent and documented.
 */

export type Severity = "error" | "warning";

export interface CatalogEntry {
  readonly severity: Severity;
  readonly hint: string;
}

export const catalog = {
  SPEC_NOT_FOUND: { severity: "error", hint: "Check the path given with --spec (default: spec/openapi.yaml)." },
  SPEC_SYNTAX: { severity: "error", hint: "Fix the YAML/JSON syntax at the position shown." },
  SPEC_NOT_OPENAPI: {
    severity: "error",
    hint: "The document must be an object with an `openapi: 3.0.x` or `3.1.x` field.",
  },
  UNSUPPORTED_VERSION: {
    severity: "error",
    hint: 'Write the version as OpenAPI 3.0.x, 3.1.x or 3.2.x (`openapi: 3.1.0`), or Swagger 2.0 as `swagger: "2.0"`.',
  },
  OAS_INVALID: {
    severity: "error",
    hint: "Fix the document so it validates against the OpenAPI schema; the pointer shows where.",
  },
  OAS_VALIDATOR_DEFECT: {
    severity: "warning",
    hint: "Nothing to fix: the construct is valid OpenAPI 3.1, but the schema bundled with the validator rejects it, so the generator accepts it.",
  },
  PATH_TEMPLATE_DUPLICATE: {
    severity: "error",
    hint: "Keep one of the two paths and give it the other's operations (one parameter name for both), or make the paths differ in a fixed segment (/items/{id} and /items/by-sku/{sku}).",
  },
  PATH_TEMPLATE_REPEATED: {
    severity: "warning",
    hint: "To follow OpenAPI, keep one of the two paths and give it the other's operations under one parameter name (/items/{id} with both GET and DELETE).",
  },
  OPERATION_FILTER_INVALID: {
    severity: "error",
    hint: "Give --include-operation and --exclude-operation an operationId, tag:NAME or path:GLOB (`*` within a segment, `**` across segments) that the document has; the message lists the nearest.",
  },
  REF_UNRESOLVED: {
    severity: "error",
    hint: "Point the $ref at an existing location (for a component: #/components/schemas/<Name>), or add the missing target.",
  },
  REF_EXTERNAL_FAILED: {
    severity: "error",
    hint: "Check that the referenced file exists relative to the document and parses.",
  },
  OPERATION_ID_MISSING: {
    severity: "warning",
    hint: "Add an operationId (camelCase, e.g. createVenue): it names the client method, the handler and the generated types. A name derived from the method and path is used meanwhile.",
  },
  OPERATION_ID_DUPLICATE: {
    severity: "error",
    hint: "operationIds must be unique in the document: rename one of them.",
  },
  NAME_COLLISION: {
    severity: "error",
    hint: "Two things would get the same generated name: rename one (an operationId, or a key under components/schemas).",
  },
  NAME_ADJUSTED: {
    severity: "warning",
    hint: "To choose the generated name yourself, rename the schema key or operationId the message names to a distinct, identifier-friendly name.",
  },
  NOT_GENERATED: { severity: "warning", hint: "The generator leaves this out; the rest of the document is generated." },
  PATTERN_WITHOUT_UNICODE: {
    severity: "warning",
    hint: "OpenAPI 3.0 patterns are ECMA-262 5.1, without the u flag; the validators compile this one so. To have it read with the u flag (as in OpenAPI 3.1), escape only syntax characters (`:` needs no backslash).",
  },
  SCHEMA_INVALID: {
    severity: "error",
    hint: "Fix the schema so it is valid JSON Schema 2020-12 (OpenAPI 3.1) or an OpenAPI 3.0 schema object.",
  },
  TEMPLATE_FAILED: {
    severity: "error",
    hint: "A template rendered invalid code: this is a defect in the generator or in a customised template.",
  },
  PAGING_OPTION_INVALID: {
    severity: "error",
    hint: "Name an optional query parameter of a GET operation: `--paging NAME` for every GET operation that has it, `--paging operationId=NAME` for one.",
  },
  OUTPUT_FAILED: {
    severity: "error",
    hint: "Check that the output folder is writable and its parent exists; the previous output was left as it was.",
  },
  DIFF_USAGE: { severity: "error", hint: "Run `npm run spec:diff -- --help` for the arguments and options." },
  DIFF_SOURCE_NOT_FOUND: {
    severity: "error",
    hint: "Give a spec file, `git:<ref>` (spec/openapi.yaml at that commit, branch or tag) or `git:<ref>:<path>`; fetch a remote branch before naming it.",
  },
  ACCEPTED_CHANGES_INVALID: {
    severity: "error",
    hint: "Each entry of the accepted-changes file needs `rule` (a rule ID of the report), `operation` or `pointer`, and `reason`; the comment at the top of spec/accepted-changes.yaml shows the format.",
  },
  RELEASE_USAGE: { severity: "error", hint: "Run `npm run release -- --help` for the options." },
  RELEASE_OUT_OF_DATE: {
    severity: "error",
    hint: "Run `npm run generate` so that generated/ is written from the spec you release, then release again.",
  },
  RELEASE_REGISTRY: {
    severity: "error",
    hint: "Check the registry the release uses (`--registry`, package.json's `publishConfig.registry`, else npm's `registry` setting), that it is reachable, and that your .npmrc holds a token for it (`npm login --registry <url>`).",
  },
  RELEASE_PUBLISHED_INVALID: {
    severity: "error",
    hint: "The version the registry calls latest was not published by `npm run release` (it has no dist/openapi.json to compare with): publish a version with it first, or give the last good version a dist-tag of latest.",
  },
  RELEASE_VERSION: {
    severity: "error",
    hint: "Leave --version out to take the advised version, or give one at least as high; a breaking change made on purpose can be accepted in spec/accepted-changes.yaml, and then needs a minor version only.",
  },
  RELEASE_NOTHING: {
    severity: "error",
    hint: "Nothing to publish: change the spec, or give --version to release a change of the package's code that the contract does not show.",
  },
  RELEASE_BUILD_FAILED: {
    severity: "error",
    hint: "Fix what the build printed above (`npm run build` alone shows it again); nothing was published and no file of the repository was changed.",
  },
  RELEASE_PUBLISH_FAILED: {
    severity: "error",
    hint: "Nothing was published and no file of the repository was changed: fix what npm said (credentials, a version already published, the registry's access rules) and release again.",
  },
  VERSION_INVALID: {
    severity: "error",
    hint: "Give package.json a semver `version` (1.2.3) on both sides of --check-version.",
  },
} as const satisfies Record<string, CatalogEntry>;

export type DiagnosticCode = keyof typeof catalog;
