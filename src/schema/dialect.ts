/**
 * The rules that differ between the flavours of JSON Schema an OpenAPI document speaks, and the
 * keywords OpenAPI reads its own way: `nullable`, boolean exclusive bounds (3.0), and keywords
 * beside `$ref` (which 3.0 ignores). The compiler, the mock and the breaking-change report read
 * these through here.
 */
import type { JsonObject } from "../json-value.js";

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

/** The OpenAPI versions read as they are (a Swagger 2.0 document is read once upgraded to 3.0). */
export type OpenApiVersion = "3.0" | "3.1" | "3.2";

/** The dialect of an OpenAPI document's schemas, by its version: 3.1 and 3.2 speak the same. */
export function openApiDialect(version: OpenApiVersion): Dialect {
  return version === "3.0" ? "openapi-3.0" : "openapi-3.1";
}

/**
 * OpenAPI's `nullable: true`: null is a valid instance, whatever else the schema says (with or
 * without `type`), as the generated types (`T | null`) say too. Read in 3.1 documents as well.
 */
export function isNullable(rules: DialectRules, schema: JsonObject): boolean {
  return rules.openApi && schema["nullable"] === true;
}

/** Whether the keywords of a schema apply: not beside a `$ref` in OpenAPI 3.0, where only the reference counts. */
export function ownKeywordsApply(rules: DialectRules, schema: JsonObject): boolean {
  return rules.refSiblings || typeof schema["$ref"] !== "string";
}

/**
 * OpenAPI 3.0's boolean form of `exclusiveMinimum`/`exclusiveMaximum`: whether it makes `minimum`
 * (`maximum`) exclusive; undefined where the keyword is the 2020-12 number (a bound of its own)
 * or absent.
 */
export function exclusiveFlag(
  rules: DialectRules,
  schema: JsonObject,
  keyword: "exclusiveMinimum" | "exclusiveMaximum",
): boolean | undefined {
  const value = schema[keyword];
  return typeof value === "boolean" && rules.openApi ? value : undefined;
}
