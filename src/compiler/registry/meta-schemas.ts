/**
 * The JSON Schema 2020-12 meta-schema and its vocabulary meta-schemas, as json-schema.org
 * publishes them (https://json-schema.org/draft/2020-12/schema and meta/*), for schemas that refer
 * to them (`$ref: "https://json-schema.org/draft/2020-12/schema"` validates a schema) and for the
 * vocabularies a custom meta-schema builds on. The registry adds them when a reference needs them;
 * they are never fetched. Each is the published file byte for byte, in ./meta-schemas/ under its
 * URI's path with `.json` (json-schema.org serves them from the json-schema-org/json-schema-spec
 * repository, commit 601a66c8b0f25246bf0e1fb488c5b5f030a79b72), and
 * test/unit/src/compiler/registry/meta-schemas.test.ts holds each to the digest of the published file.
 */
import applicator from "./meta-schemas/meta/applicator.json" with { type: "json" };
import content from "./meta-schemas/meta/content.json" with { type: "json" };
import core from "./meta-schemas/meta/core.json" with { type: "json" };
import formatAnnotation from "./meta-schemas/meta/format-annotation.json" with { type: "json" };
import metaData from "./meta-schemas/meta/meta-data.json" with { type: "json" };
import unevaluated from "./meta-schemas/meta/unevaluated.json" with { type: "json" };
import validation from "./meta-schemas/meta/validation.json" with { type: "json" };
import schema from "./meta-schemas/schema.json" with { type: "json" };

/** Where the 2020-12 meta-schemas live: every URI under it is one of these documents. */
export const META_SCHEMA_PREFIX = "https://json-schema.org/draft/2020-12/";

/** The meta-schemas by their `$id`. */
export const META_SCHEMAS: Readonly<Record<string, unknown>> = Object.fromEntries(
  [schema, core, applicator, unevaluated, validation, metaData, formatAnnotation, content].map((root) => [
    root.$id,
    root,
  ]),
);
