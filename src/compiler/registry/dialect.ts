/** Which flavour of JSON Schema the document speaks. */
export type Dialect = "openapi-3.0" | "openapi-3.1" | "json-schema-2020-12";

/** The behaviour switches that differ between dialects. */
export interface DialectRules {
  readonly name: Dialect;
  /** OpenAPI extensions: `nullable`, boolean `exclusiveMinimum`/`exclusiveMaximum`, `discriminator` */
  readonly openApi: boolean;
  /** keywords next to `$ref` apply (2020-12); OpenAPI 3.0 ignores them */
  readonly refSiblings: boolean;
  /** `$id` changes the base URI (OpenAPI 3.0 has no `$id`) */
  readonly ids: boolean;
}

/** The rules of a dialect. */
export function dialectRules(name: Dialect): DialectRules {
  switch (name) {
    case "json-schema-2020-12":
      return { name, openApi: false, refSiblings: true, ids: true };
    case "openapi-3.1":
      return { name, openApi: true, refSiblings: true, ids: true };
    case "openapi-3.0":
      return { name, openApi: true, refSiblings: false, ids: false };
  }
}
