import { resolvePointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";

/** One schema-validation error as swagger-parser reports it (Ajv's ErrorObject). */
export interface SchemaError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message?: string;
  readonly params?: Record<string, unknown>;
}

/**
 * The defects of the OpenAPI 3.1 schema bundled with swagger-parser (its 2021-04-15 edition) that
 * are mended in the schema itself before it is compiled, each with its reason. The later editions
 * of the schema made the same repairs.
 */
const repairs: readonly { readonly reason: string; readonly repair: (defs: Record<string, unknown>) => void }[] = [
  {
    // OpenAPI 3.1's Path Item Object has a `$ref` field (`paths: {/users: {$ref: ...}}`, often to
    // `components.pathItems`), which this edition leaves out of the path item: every such document
    // was refused. Editions from 2022-10-07 list `$ref` among the path item's fields and read the
    // webhooks', callbacks' and components' path items the same way, siblings of `$ref` included.
    reason: "a Path Item Object's `$ref` field is valid OpenAPI 3.1 (the bundled schema leaves it out)",
    repair: (defs) => {
      const pathItem = defs["path-item"];
      if (!isRecord(pathItem) || !isRecord(pathItem.properties))
        throw new Error("the OpenAPI 3.1 schema has no $defs/path-item properties");
      pathItem.properties.$ref = { type: "string" };
      defs["path-item-or-reference"] = { $ref: "#/$defs/path-item" };
    },
  },
];

/** The bundled OpenAPI 3.1 schema's definitions (`$defs`) mended where the schema is known to be wrong. */
export function repairSchemaDefects(defs: Record<string, unknown>): void {
  for (const { repair } of repairs) repair(defs);
}

/**
 * Errors that the OpenAPI 3.1 schema bundled with swagger-parser (its 2021-04-15 edition) raises
 * on valid documents. Each returns why the error is a defect, or undefined when it is real.
 */
const defects: ((error: SchemaError, document: unknown) => string | undefined)[] = [
  // The bundled schema spells the server variable's `description` as `descriptions`.
  (error) =>
    error.keyword === "unevaluatedProperties" &&
    error.params?.unevaluatedProperty === "description" &&
    /\/servers\/\d+\/variables\/[^/]+$/.test(error.instancePath)
      ? "server variable `description` is valid OpenAPI 3.1 (the bundled schema misspells it `descriptions`)"
      : undefined,
  // The bundled schema compares the http `scheme` to "bearer" case-sensitively; the
  // specification says scheme names are case-insensitive, so `Bearer` with `bearerFormat` is valid.
  (error, document) => {
    if (!/\/securitySchemes\/[^/]+$/.test(error.instancePath)) return undefined;
    const scheme = resolvePointer(document, error.instancePath) as { type?: unknown; scheme?: unknown } | undefined;
    const isBearer =
      scheme?.type === "http" && typeof scheme.scheme === "string" && scheme.scheme.toLowerCase() === "bearer";
    return isBearer && scheme?.scheme !== "bearer"
      ? `http scheme "${String(scheme?.scheme)}" is bearer (scheme names are case-insensitive)`
      : undefined;
  },
];

/** Why a schema error is a known defect of the bundled schema, or undefined. */
export function explainDefect(error: SchemaError, document: unknown): string | undefined {
  for (const defect of defects) {
    const reason = defect(error, document);
    if (reason !== undefined) return reason;
  }
  return undefined;
}
