import type { transformSchema } from "openapi-typescript";
import { loadOpenapiTypescript } from "../typescript-once.js";
import { scanWithDefaults } from "./default-mapping.js";
import { placeExtraOperations, standInExtraOperations } from "./extra-operations.js";
import { typesDocument } from "./types-document.js";

type OpenApiDocument = Parameters<typeof transformSchema>[0];
type TransformContext = Parameters<typeof transformSchema>[1];

/**
 * openapi-typescript's `paths`, `components`, `operations` (and `webhooks`) for the document.
 *
 * `openapiTS()` first lints and bundles its input with Redocly (on large documents the larger
 * part of its time), then transforms it. Here the document is already validated and bundled (all
 * $refs local) by the load stage, so the same public transform runs on it directly, with the
 * options `openapiTS()` would set. `emptyObjectsUnknown` types a schemaless object as
 * Record<string, unknown> rather than an object that accepts nothing; read/write markers are on
 * only when the document uses readOnly/writeOnly.
 */
export function renderOpenapiTypes(
  document: Readonly<Record<string, unknown>>,
  readWriteMarkers: boolean,
  callbacks: Readonly<Record<string, string>> = {},
  hoisted: readonly string[] = [],
): string {
  // The transform writes into the document it is given (discriminator enums): it is given a copy,
  // with every $ref against the root and to a whole component (types-document.ts). Bundling always
  // leaves a `components` object, which gives `components` its usual members.
  const copy = typesDocument(document, callbacks, hoisted);
  const standIns = standInExtraOperations(copy);
  const schema = (copy.components === undefined ? { ...copy, components: {} } : copy) as unknown as OpenApiDocument;
  const options = { silent: true, emptyObjectsUnknown: true, readWriteMarkers };
  const { astToString, transformSchema } = loadOpenapiTypescript();
  const nodes = placeExtraOperations(transformSchema(schema, transformContext(schema, options)), standIns);
  return withNullableRequired(astToString(nodes as Parameters<typeof astToString>[0]));
}

/** openapi-typescript's helper for `allOf` with `required`, as it prints it. */
const WITH_REQUIRED = /^type WithRequired<T, K extends keyof T> = T & \{\n {4}\[P in K\]-\?: T\[P\];\n\};$/m;

/**
 * The helper, for a base that may be null as well: `allOf: [nullable Base], required: [a]` lets
 * null through (`required` constrains objects only), but `WithRequired<Base | null, "a">` does not
 * compile (`keyof (Base | null)` is `never`). This one distributes over the base's members, requires
 * the keys of each object member and leaves `null` (and other non-objects) as they are.
 */
const WITH_REQUIRED_NULLABLE = `type WithRequired<T, K extends PropertyKey> = T extends object ? T & {
    [P in K & keyof T]-?: T[P];
} : T;`;

function withNullableRequired(types: string): string {
  return types.replace(WITH_REQUIRED, WITH_REQUIRED_NULLABLE);
}

function transformContext(
  schema: OpenApiDocument,
  options: { silent: boolean; emptyObjectsUnknown: boolean; readWriteMarkers: boolean },
): TransformContext {
  const { resolveRef, scanDiscriminators } = loadOpenapiTypescript();
  return {
    additionalProperties: false,
    alphabetize: false,
    arrayLength: false,
    defaultNonNullable: true,
    discriminators: scanWithDefaults(schema, options, scanDiscriminators, resolveRef),
    emptyObjectsUnknown: options.emptyObjectsUnknown,
    enum: false,
    enumValues: false,
    conditionalEnums: false,
    dedupeEnums: false,
    excludeDeprecated: false,
    exportType: false,
    immutable: false,
    rootTypes: false,
    rootTypesNoSchemaPrefix: false,
    rootTypesKeepCasing: false,
    injectFooter: [],
    pathParamsAsTypes: false,
    postTransform: undefined,
    propertiesRequiredByDefault: false,
    // used only by openapiTS()'s own lint and bundle step, which this skips
    redoc: undefined as unknown as TransformContext["redoc"],
    silent: options.silent,
    inject: undefined,
    transform: undefined,
    transformProperty: undefined,
    makePathsEnum: false,
    generatePathParams: false,
    readWriteMarkers: options.readWriteMarkers,
    resolve: <T>($ref: string): T | undefined => resolveRef<T>(schema, $ref, { silent: options.silent }),
  };
}
