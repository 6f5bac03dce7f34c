/**
 * Webhooks and callbacks: the requests an API's provider sends to its consumer (OpenAPI 3.1's
 * `webhooks`, and the `callbacks` of an operation). Each method of each of their Path Items is an
 * operation served the other way round: the consumer receives it, the provider (or a test posing
 * as it) sends it. They are read as operations are (parameters, bodies, responses, security) and
 * kept apart from them, in a table of their own, since the consumer chooses where it receives
 * them: each is received at `/<its method name>` unless told otherwise.
 */
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { appendPointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";
import type { Locate } from "../load/source-locator.js";
import { entriesAt, followRef, type Located, stringAt } from "./document-nodes.js";
import { deriveOperationId, toPascalCase } from "./names.js";
import { unsupportedStyles } from "./operation-checks.js";
import type { OperationDraft } from "./operation-names.js";
import { buildOperation, operationsOf, type Sources } from "./operations.js";
import type { WebhookModel } from "./types.js";

/** A webhook or callback before naming. */
export type WebhookDraft = Omit<WebhookModel, "names">;

/** Every webhook, then every callback (by the operation declaring it), each method of each. */
export function buildWebhooks(sources: Sources, locate: Locate): { drafts: WebhookDraft[]; diagnostics: Diagnostic[] } {
  const drafts: WebhookDraft[] = [];
  const diagnostics: Diagnostic[] = [];
  const keep = (draft: WebhookDraft): void => {
    const refused = receivable(draft, locate);
    diagnostics.push(...refused);
    if (refused.length === 0) drafts.push(draft);
  };
  const root = { node: sources.document, pointer: "#" };
  for (const [name, item, pointer] of entriesAt(root, "webhooks")) {
    const pathItem = followRef(sources.document, item, pointer);
    for (const [method, operation] of pathItem === undefined ? [] : operationsOf(pathItem)) {
      const draft = buildOperation(sources, `/${name}`, method, pathItem as Located, operation);
      if (draft.derivedId) diagnostics.push(missingId(`webhook "${name}" (${method.toUpperCase()})`, draft, locate));
      keep({ ...draft, kind: "webhook", name, typesKey: name });
    }
  }
  for (const owner of declaringOperations(sources.document))
    for (const draft of callbacksOf(sources, owner)) keep(draft);
  return { drafts, diagnostics };
}

/** An operation under `paths` that declares callbacks, and its id (declared or derived, as operations.ts does). */
interface CallbackOwner {
  readonly id: string;
  readonly operation: Located;
}

function declaringOperations(document: Record<string, unknown>): CallbackOwner[] {
  const owners: CallbackOwner[] = [];
  for (const [path, item, pointer] of entriesAt({ node: document, pointer: "#" }, "paths")) {
    const pathItem = followRef(document, item, pointer);
    for (const [method, operation] of pathItem === undefined ? [] : operationsOf(pathItem)) {
      if (!isRecord(operation.node.callbacks)) continue;
      const declared = stringAt(operation.node, "operationId");
      const id = declared !== undefined && declared.trim() !== "" ? declared : deriveOperationId(method, path);
      owners.push({ id, operation });
    }
  }
  return owners;
}

/**
 * The callbacks of one operation. One without an operationId is named after the operation and
 * the callback (`subscribe` + `onEvent` → `subscribeOnEvent`), with the method and a number
 * when the callback holds more than one request.
 */
function callbacksOf(sources: Sources, owner: CallbackOwner): WebhookDraft[] {
  const drafts: WebhookDraft[] = [];
  for (const [name, value, pointer] of entriesAt(owner.operation, "callbacks")) {
    const callback = followRef(sources.document, value, pointer);
    if (callback === undefined) continue;
    const requests = Object.entries(callback.node).flatMap(([expression, item]) => {
      const pathItem = followRef(sources.document, item, appendPointer(callback.pointer, expression));
      return pathItem === undefined
        ? []
        : operationsOf(pathItem).map((entry) => [expression, pathItem, ...entry] as const);
    });
    for (const [index, [expression, pathItem, method, operation]] of requests.entries()) {
      const stem = `${owner.id}${toPascalCase(name)}`;
      const fallback = requests.length === 1 ? stem : `${stem}${toPascalCase(method)}${index === 0 ? "" : index + 1}`;
      const draft = buildOperation(sources, `/${fallback}`, method, pathItem, operation);
      const id = draft.derivedId ? fallback : draft.id;
      const typesKey = `${owner.id} ${name} ${expression}`;
      drafts.push({ ...draft, id, derivedId: false, kind: "callback", name, typesKey, owner: owner.id, expression });
    }
  }
  return drafts;
}

/**
 * A webhook is received at a path the consumer chooses, so path parameters mean nothing there:
 * one declaring them is left out, as is one with a parameter style the runtime does not implement.
 */
function receivable(draft: WebhookDraft, locate: Locate): Diagnostic[] {
  const label = draft.kind === "webhook" ? `webhook "${draft.name}"` : `callback "${draft.name}" of ${draft.owner}`;
  const path = draft.parameters.path.map((parameter) =>
    createDiagnostic(
      "NOT_GENERATED",
      `${label} (${draft.httpMethod}): path parameter "${parameter.name}" has no path to be read from (the receiver's path is the consumer's choice); the ${draft.kind} is left out of the receiver and the sender (the types describe it)`,
      locate(parameter.pointer),
    ),
  );
  return [...path, ...unsupportedStyles(draft, locate)];
}

function missingId(label: string, draft: OperationDraft, locate: Locate): Diagnostic {
  return createDiagnostic(
    "OPERATION_ID_MISSING",
    `${label} has no operationId; using "${draft.id}"`,
    locate(draft.pointer),
  );
}
