import { createRequire } from "node:module";
import SwaggerParser from "@apidevtools/swagger-parser";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { openApiSchemaCheck } from "./openapi-schema.js";
import type { Locate } from "./source-locator.js";
import { explainDefect, type SchemaError } from "./validator-defects.js";

const MAX_SCHEMA_ERRORS = 25;

type SchemaValidator = (api: unknown) => void;

/**
 * swagger-parser's check of a document against the OpenAPI 3.0/3.1 schema, where its compiled
 * form (openapi-schema.ts) is not to be had. Its public validate()
 * first dereferences the whole document, which for OpenAPI 3 serves no other check (its extra
 * checks are for Swagger 2.0) and costs 0.5–0.8 s on large documents; the schema check itself
 * accepts Reference Objects where they are allowed, so it runs on the document as written.
 * Should the module move in a later swagger-parser, the public validate() is used instead.
 */
function loadSchemaValidator(): SchemaValidator | undefined {
  try {
    return createRequire(import.meta.url)("@apidevtools/swagger-parser/lib/validators/schema.js") as SchemaValidator;
  } catch {
    return undefined;
  }
}

/**
 * Validates the document against the OpenAPI schema. Errors that the schema bundled with
 * swagger-parser raises on valid documents become warnings.
 */
export async function validateDocument(file: string, document: unknown, locate: Locate): Promise<Diagnostic[]> {
  const error = await runValidation(file, document);
  if (error === undefined) return [];
  const details = (error as { details?: unknown }).details;
  if (!Array.isArray(details))
    return [createDiagnostic("OAS_INVALID", firstLine(error.message), { file, pointer: "" })];
  const swagger = (document as { swagger?: unknown } | null)?.swagger !== undefined;
  return fromSchemaErrors(swagger ? reduceBranchErrors(details) : (details as SchemaError[]), document, locate);
}

async function runValidation(file: string, document: unknown): Promise<Error | undefined> {
  const fields = document as { openapi?: unknown; swagger?: unknown } | null;
  const check = openApiSchemaCheck(fields?.openapi ?? fields?.swagger);
  if (check !== undefined) {
    if (check(document)) return undefined;
    return Object.assign(new Error("the document does not match the OpenAPI schema"), { details: check.errors ?? [] });
  }
  try {
    const validateSchema = loadSchemaValidator();
    if (validateSchema !== undefined) validateSchema(document);
    else await SwaggerParser.validate(file, structuredClone(document) as never);
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

const SUMMARY_KEYWORDS = new Set(["oneOf", "anyOf", "if", "then", "else"]);

/**
 * Ajv reports every branch of a oneOf that failed: the summary ("must match exactly one schema")
 * and the Reference Object branch ("must have required property '$ref'") say nothing when a more
 * specific error stands at or below the same place. Those are left out.
 */
function reduceSchemaErrors(details: readonly SchemaError[]): SchemaError[] {
  const hasDeeper = (error: SchemaError): boolean =>
    details.some(
      (other) =>
        other !== error &&
        !isNoise(other) &&
        (other.instancePath === error.instancePath || other.instancePath.startsWith(`${error.instancePath}/`)),
    );
  const isNoise = (error: SchemaError): boolean =>
    SUMMARY_KEYWORDS.has(error.keyword) || (error.keyword === "required" && error.params?.missingProperty === "$ref");
  return details.filter((error) => !isNoise(error) || !hasDeeper(error));
}

/**
 * The Swagger 2.0 schema describes a parameter as a oneOf of one schema per location, each closed:
 * a fault inside one parameter fails every branch at the parameter itself (a property not allowed,
 * one missing), which says nothing. Where an error stands below a place, the `required` and
 * `additionalProperties` errors at that place are left out.
 */
function reduceBranchErrors(details: readonly SchemaError[]): SchemaError[] {
  const noise = (error: SchemaError): boolean =>
    (error.keyword === "required" || error.keyword === "additionalProperties") &&
    details.some((other) => other.instancePath.startsWith(`${error.instancePath}/`));
  return details.filter((error) => !noise(error));
}

function fromSchemaErrors(details: SchemaError[], document: unknown, locate: Locate): Diagnostic[] {
  const seen = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  // An object holding a `$ref` where no Reference Object is allowed (an Operation Object given as
  // one, say) fails every rule of the object it stands for: one message says what is wrong.
  const refHolders = new Set(
    details
      .filter((detail) => (detail.params?.additionalProperty ?? detail.params?.unevaluatedProperty) === "$ref")
      .map((detail) => detail.instancePath),
  );
  for (const detail of reduceSchemaErrors(details)) {
    const misplacedRef = detail.instancePath.endsWith("/$ref") || refHolders.has(detail.instancePath);
    const holder = detail.instancePath.endsWith("/$ref")
      ? detail.instancePath.slice(0, -"/$ref".length)
      : detail.instancePath;
    const pointer = `#${holder}`;
    const defect = explainDefect(detail, document);
    const message =
      defect ??
      (misplacedRef
        ? `${pointer} is a $ref, but OpenAPI allows no Reference Object here: inline the object`
        : `${pointer === "#" ? "the document" : pointer} ${describeSchemaError(detail)}`);
    if (seen.has(message)) continue;
    seen.add(message);
    diagnostics.push(createDiagnostic(defect ? "OAS_VALIDATOR_DEFECT" : "OAS_INVALID", message, locate(pointer)));
  }
  return capErrors(diagnostics);
}

function describeSchemaError(detail: SchemaError): string {
  const rule = parametersRule(detail);
  if (rule !== undefined) return rule;
  const extra =
    detail.params?.additionalProperty ?? detail.params?.unevaluatedProperty ?? detail.params?.missingProperty;
  const base = detail.message ?? `fails ${detail.keyword}`;
  return typeof extra === "string" && !base.includes(`'${extra}'`) ? `${base}: '${extra}'` : base;
}

/**
 * OAI's 3.2 schema states the rules of `in: querystring` on a list of parameters as a `not` (no
 * `in: query` beside it) and a `maxContains` (one at most): said in words, each says what to do.
 */
function parametersRule(detail: SchemaError): string | undefined {
  if (!detail.instancePath.endsWith("/parameters")) return undefined;
  if (detail.keyword === "not")
    return "has `in: query` parameters beside an `in: querystring` one, which is the whole query string: make each a property of the querystring's schema";
  if (detail.keyword === "maxContains")
    return "has more than one `in: querystring` parameter: the whole query string is one value, keep one";
  return undefined;
}

function capErrors(diagnostics: Diagnostic[]): Diagnostic[] {
  if (diagnostics.length <= MAX_SCHEMA_ERRORS) return diagnostics;
  const rest = diagnostics.length - MAX_SCHEMA_ERRORS;
  const last = diagnostics[MAX_SCHEMA_ERRORS - 1];
  const note = createDiagnostic("OAS_INVALID", `... and ${rest} more schema validation errors`, last?.location);
  return [...diagnostics.slice(0, MAX_SCHEMA_ERRORS), note];
}

function firstLine(message: string): string {
  return (message.split("\n")[0] ?? message).replace(/^Validation failed\.\s*/, "").trim();
}
