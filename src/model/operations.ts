import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { appendPointer } from "../json-pointer.js";
import { PATH_ITEM_METHODS, pathItemOperations } from "../load/path-items.js";
import type { Locate } from "../load/source-locator.js";
import { buildRequestBody, buildResponses } from "./bodies.js";
import { entriesAt, followRef, type Located, stringAt } from "./document-nodes.js";
import { deriveOperationId } from "./names.js";
import { checkOperation, unsupportedStyles } from "./operation-checks.js";
import type { OperationDraft } from "./operation-names.js";
import { buildParameters } from "./parameters.js";
import { buildQuerystring, checkQuerystring } from "./querystring.js";
import type { SchemaFacts } from "./schemas.js";
import { buildSecurity } from "./security.js";
import type { FixedMethod, HttpMethod } from "./types.js";

/** The methods a Path Item names by a field of its own, in the order operations are read (the loader's list). */
export const HTTP_METHODS: readonly FixedMethod[] = PATH_ITEM_METHODS;

/**
 * The operations of a Path Item: those of its method fields, then those of its
 * `additionalOperations` (OpenAPI 3.2), each with its method as the document names it.
 */
export function operationsOf(pathItem: Located): [HttpMethod, Located][] {
  return pathItemOperations(pathItem.node).map(({ method, segments, operation }): [HttpMethod, Located] => [
    method,
    { node: operation, pointer: appendPointer(pathItem.pointer, ...segments) },
  ]);
}

/** Whether a method is one of the Path Item's own fields (else an `additionalOperations` key). */
export function isFixedMethod(method: string): method is FixedMethod {
  return (HTTP_METHODS as readonly string[]).includes(method);
}

/** Every operation under `paths`, sorted by id, with diagnostics for missing and duplicate ids. */
export function buildOperations(
  document: Record<string, unknown>,
  locate: Locate,
  facts: (schemaPointer: string) => SchemaFacts,
): { operations: OperationDraft[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const operations: OperationDraft[] = [];
  for (const [path, item, pointer] of entriesAt({ node: document, pointer: "#" }, "paths")) {
    const pathItem = followRef(document, item, pointer);
    if (pathItem === undefined) continue;
    for (const [method, operation] of operationsOf(pathItem)) {
      const draft = buildOperation({ document, facts }, path, method, pathItem, operation);
      if (draft.derivedId) diagnostics.push(missingIdDiagnostic(draft, locate));
      diagnostics.push(...checkOperation(draft, locate));
      diagnostics.push(...checkQuerystring(document, { pathItem, operation }, draft, locate));
      const unsupported = unsupportedStyles(draft, locate);
      diagnostics.push(...unsupported);
      if (unsupported.length === 0) operations.push(draft);
    }
  }
  operations.sort((a, b) => a.id.localeCompare(b.id) || a.pointer.localeCompare(b.pointer));
  return { operations, diagnostics: [...diagnostics, ...duplicateIdDiagnostics(operations, locate)] };
}

export interface Sources {
  readonly document: Record<string, unknown>;
  readonly facts: (schemaPointer: string) => SchemaFacts;
}

/** One operation of a Path Item: its parameters, bodies, responses and security. */
export function buildOperation(
  { document, facts }: Sources,
  path: string,
  method: HttpMethod,
  pathItem: Located,
  operation: Located,
): OperationDraft {
  const { node } = operation;
  const declaredId = stringAt(node, "operationId");
  const summary = stringAt(node, "summary") ?? stringAt(pathItem.node, "summary");
  const description = stringAt(node, "description") ?? stringAt(pathItem.node, "description");
  const requestBody = buildRequestBody(document, operation, facts);
  const querystring = buildQuerystring(document, pathItem, operation);
  return {
    id: declaredId !== undefined && declaredId.trim() !== "" ? declaredId : deriveOperationId(method, path),
    derivedId: declaredId === undefined || declaredId.trim() === "",
    method,
    httpMethod: isFixedMethod(method) ? method.toUpperCase() : method,
    additional: !isFixedMethod(method),
    path,
    pointer: operation.pointer,
    ...(summary !== undefined ? { summary } : {}),
    ...(description !== undefined ? { description } : {}),
    deprecated: node.deprecated === true,
    tags: Array.isArray(node.tags) ? node.tags.map(String) : [],
    parameters: buildParameters(document, pathItem, operation),
    ...(querystring !== undefined ? { querystring } : {}),
    ...(requestBody !== undefined ? { requestBody } : {}),
    responses: buildResponses(document, operation, facts),
    security: buildSecurity(node, document),
  };
}

function missingIdDiagnostic(operation: OperationDraft, locate: Locate): Diagnostic {
  return createDiagnostic(
    "OPERATION_ID_MISSING",
    `${operation.httpMethod} ${operation.path} has no operationId; using "${operation.id}"`,
    locate(operation.pointer),
  );
}

function duplicateIdDiagnostics(operations: readonly OperationDraft[], locate: Locate): Diagnostic[] {
  const byId = new Map<string, OperationDraft[]>();
  for (const operation of operations) byId.set(operation.id, [...(byId.get(operation.id) ?? []), operation]);
  return [...byId.values()]
    .filter((group) => group.length > 1)
    .flatMap(([first, ...rest]) =>
      rest.map((other) =>
        createDiagnostic(
          "OPERATION_ID_DUPLICATE",
          `operationId "${other.id}" of ${other.httpMethod} ${other.path} is also used by ${first?.httpMethod} ${first?.path} (${first?.pointer})`,
          locate(other.pointer),
        ),
      ),
    );
}
