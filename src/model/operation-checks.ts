import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { Locate } from "../load/source-locator.js";
import type { OperationDraft } from "./operation-names.js";
import type { ParameterLocation } from "./types.js";

/** Serialization styles the generated server and client implement, per parameter location. */
const SUPPORTED_STYLES: Record<ParameterLocation, readonly string[]> = {
  path: ["simple"],
  query: ["form", "spaceDelimited", "pipeDelimited", "deepObject", "content"],
  header: ["simple", "content"],
  cookie: ["form", "content"],
};

/**
 * Checks the OpenAPI schema cannot express: every `{name}` in the path has a path parameter and
 * every path parameter a `{name}`; and every parameter uses a style the generated code handles.
 */
export function checkOperation(operation: OperationDraft, locate: Locate): Diagnostic[] {
  const label = `${operation.method.toUpperCase()} ${operation.path}`;
  const placeholders = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
  const declared = operation.parameters.path.map((p) => p.name);
  const diagnostics: Diagnostic[] = [];
  for (const name of placeholders.filter((n) => !declared.includes(n))) {
    diagnostics.push(createDiagnostic("OAS_INVALID", `${label}: the path has {${name}}, but no path parameter "${name}" is declared`, locate(operation.pointer)));
  }
  for (const parameter of operation.parameters.path.filter((p) => !placeholders.includes(p.name))) {
    diagnostics.push(createDiagnostic("OAS_INVALID", `${label}: path parameter "${parameter.name}" has no {${parameter.name}} in the path`, locate(parameter.pointer)));
  }
  const { path, query, header, cookie } = operation.parameters;
  for (const parameter of cookie) {
    diagnostics.push(
      createDiagnostic(
        "NOT_GENERATED",
        `${label}: cookie parameter "${parameter.name}" is in the types, but the generated server does not read or validate it and the client does not send it`,
        locate(parameter.pointer),
      ),
    );
  }
  for (const parameter of [...path, ...query, ...header]) {
    if (SUPPORTED_STYLES[parameter.in].includes(parameter.style)) continue;
    const supported = SUPPORTED_STYLES[parameter.in].filter((s) => s !== "content").join(", ");
    diagnostics.push(
      createDiagnostic(
        "UNSUPPORTED_CONSTRUCT",
        `${label}: ${parameter.in} parameter "${parameter.name}" uses style "${parameter.style}"; the generated server and client support ${supported} for ${parameter.in} parameters`,
        locate(parameter.pointer),
      ),
    );
  }
  return diagnostics;
}
