import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { appendPointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";
import type { Locate } from "../load/source-locator.js";
import { buildRequestBody, buildResponses } from "./bodies.js";
import { entriesAt, followRef, type Located, stringAt } from "./document-nodes.js";
import { deriveOperationId } from "./names.js";
import { checkOperation, unsupportedStyles } from "./operation-checks.js";
import type { OperationDraft } from "./operation-names.js";
import { buildParameters } from "./parameters.js";
import type { SchemaFacts } from "./schemas.js";
import { buildSecurity } from "./security.js";
import type { HttpMethod } from "./types.js";

export const HTTP_METHODS: readonly HttpMethod[] = [
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
];

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
    for (const method of HTTP_METHODS) {
      const node = pathItem.node[method];
      if (!isRecord(node)) continue;
      const operation = { node, pointer: appendPointer(pathItem.pointer, method) };
      const draft = buildOperation({ document, facts }, path, method, pathItem, operation);
      if (draft.derivedId) diagnostics.push(missingIdDiagnostic(draft, locate));
      diagnostics.push(...checkOperation(draft, locate));
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
  return {
    id: declaredId !== undefined && declaredId.trim() !== "" ? declaredId : deriveOperationId(method, path),
    derivedId: declaredId === undefined || declaredId.trim() === "",
    method,
    path,
    pointer: operation.pointer,
    ...(summary !== undefined ? { summary } : {}),
    ...(description !== undefined ? { description } : {}),
    deprecated: node.deprecated === true,
    tags: Array.isArray(node.tags) ? node.tags.map(String) : [],
    parameters: buildParameters(document, pathItem, operation),
    ...(requestBody !== undefined ? { requestBody } : {}),
    responses: buildResponses(document, operation, facts),
    security: buildSecurity(node, document),
  };
}

function missingIdDiagnostic(operation: OperationDraft, locate: Locate): Diagnostic {
  return createDiagnostic(
    "OPERATION_ID_MISSING",
    `${operation.method.toUpperCase()} ${operation.path} has no operationId; using "${operation.id}"`,
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
          `operationId "${other.id}" of ${other.method.toUpperCase()} ${other.path} is also used by ${first?.method.toUpperCase()} ${first?.path} (${first?.pointer})`,
          locate(other.pointer),
        ),
      ),
    );
}
