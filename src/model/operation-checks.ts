import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { Locate } from "../load/source-locator.js";
import type { OperationDraft } from "./operation-names.js";
import type { ParameterLocation } from "./types.js";

/** Serialization styles the generated server and client implement, per parameter location. */
const SUPPORTED_STYLES: Record<ParameterLocation, readonly string[]> = {
  path: ["simple", "label", "matrix"],
  query: ["form", "spaceDelimited", "pipeDelimited", "deepObject", "content"],
  header: ["simple", "content"],
  cookie: ["form", "content"],
};

/**
 * Checks the OpenAPI schema cannot express: every `{name}` in the path has a path parameter and
 * every path parameter a `{name}`. (A parameter's style: see `unsupportedStyles`.)
 */
export function checkOperation(operation: OperationDraft, locate: Locate): Diagnostic[] {
  const label = `${operation.httpMethod} ${operation.path}`;
  const placeholders = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
  const declared = operation.parameters.path.map((p) => p.name);
  const diagnostics: Diagnostic[] = [];
  for (const name of placeholders.filter((n) => !declared.includes(n))) {
    diagnostics.push(
      createDiagnostic(
        "OAS_INVALID",
        `${label}: the path has {${name}}, but no path parameter "${name}" is declared`,
        locate(operation.pointer),
      ),
    );
  }
  for (const parameter of operation.parameters.path.filter((p) => !placeholders.includes(p.name))) {
    diagnostics.push(
      createDiagnostic(
        "OAS_INVALID",
        `${label}: path parameter "${parameter.name}" has no {${parameter.name}} in the path`,
        locate(parameter.pointer),
      ),
    );
  }
  return diagnostics;
}

/**
 * An operation with a parameter whose style the generated server and client do not implement
 * (a query parameter of style matrix, say) cannot be called or served: it is left out of both,
 * with a warning naming the parameter. Its types stay.
 */
export function unsupportedStyles(operation: OperationDraft, locate: Locate): Diagnostic[] {
  const label = `${operation.httpMethod} ${operation.path}`;
  const { path, query, header, cookie } = operation.parameters;
  return [...path, ...query, ...header, ...cookie]
    .filter((parameter) => !SUPPORTED_STYLES[parameter.in].includes(parameter.style))
    .map((parameter) => {
      const supported = SUPPORTED_STYLES[parameter.in].filter((s) => s !== "content").join(", ");
      return createDiagnostic(
        "NOT_GENERATED",
        `${label}: ${parameter.in} parameter "${parameter.name}" uses style "${parameter.style}", which the generated server and client do not implement (for ${parameter.in} parameters: ${supported}); the operation is left out of the client and the server (the types describe it)`,
        locate(parameter.pointer),
      );
    });
}
