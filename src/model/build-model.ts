import { METHODS } from "node:http";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { isRecord } from "../json-value.js";
import type { LoadedSpec } from "../load/load-spec.js";
import type { Locate } from "../load/source-locator.js";
import { stringAt } from "./document-nodes.js";
import {
  type NameAdjustment,
  NameRegistry,
  RESERVED_METHOD_NAMES,
  RESERVED_TYPE_NAMES,
  toPascalCase,
} from "./names.js";
import { nameOperation, type OperationDraft } from "./operation-names.js";
import { buildOperations } from "./operations.js";
import { createSchemaFacts, listComponentSchemas, type SchemaEntry } from "./schemas.js";
import { buildSecuritySchemes } from "./security.js";
import { buildServers, serverBasePath } from "./servers.js";
import type { ApiModel, OperationModel, SchemaModel, WebhookModel } from "./types.js";
import { buildWebhooks, type WebhookDraft } from "./webhooks.js";

const VALIDATOR_MODULE_NAMES = new Set(["ValidationError", "ValidateOptions", "ValidationResult"]);

/**
 * Builds the ApiModel: the operations, schemas, security and names read from the document. The
 * emitters that print or compile a schema read it from the document, at the pointers the model records.
 */
export function buildModel(loaded: LoadedSpec, specPath: string): { model: ApiModel; diagnostics: Diagnostic[] } {
  const { document, locate } = loaded;
  const types = new NameRegistry(RESERVED_TYPE_NAMES);
  const validators = new NameRegistry(VALIDATOR_MODULE_NAMES);
  const entries = listComponentSchemas(document);
  const schemas = nameSchemas(entries, types, validators);
  const facts = createSchemaFacts(document, entries);
  const built = buildOperations(document, locate, facts);
  const context = { document, types, validators, schemas: new Map(schemas.map((s) => [s.name, s])) };
  const operations: OperationModel[] = built.operations.map((draft) => ({
    ...draft,
    names: nameOperation(draft, context),
  }));
  const hooks = buildWebhooks({ document, facts }, locate);
  const webhooks = nameWebhooks(hooks.drafts, context, locate);
  const servers = buildServers(document);
  const info = isRecord(document.info) ? document.info : {};
  const model: ApiModel = {
    source: {
      specPath,
      openapiVersion: loaded.version,
      ...(loaded.upgradedFrom !== undefined ? { upgradedFrom: loaded.upgradedFrom } : {}),
      title: stringAt(info, "title") ?? "",
      version: stringAt(info, "version") ?? "",
    },
    servers,
    basePath: serverBasePath(servers[0]),
    securitySchemes: buildSecuritySchemes(document),
    operations,
    webhooks: webhooks.models,
    schemas,
    usesReadWrite: usesReadWrite(schemas, [...operations, ...webhooks.models]),
  };
  const diagnostics = [
    ...built.diagnostics,
    ...hooks.diagnostics,
    ...webhooks.diagnostics,
    ...methodCollisions(operations, locate),
    ...reservedMethods(operations, locate),
    ...queryInPaths(operations, locate),
    ...unparsedMethods(operations, locate),
    ...[...types.adjustments, ...validators.adjustments].map((a) => adjustmentDiagnostic(a, model, locate)),
  ];
  return { model, diagnostics };
}

/** Whether some schema the types describe has readOnly/writeOnly: from the facts of components and bodies. */
function usesReadWrite(schemas: readonly SchemaModel[], operations: readonly OperationModel[]): boolean {
  if (schemas.some((schema) => schema.hasReadWrite)) return true;
  return operations.some((operation) =>
    [...(operation.requestBody?.contents ?? []), ...operation.responses.flatMap((r) => r.contents)].some(
      (c) => c.hasReadWrite,
    ),
  );
}

/**
 * Names each webhook and callback as operations are named (their types and validators share the
 * operations' namespaces); each is received at `/<method name>`. Two that would take the same
 * method name cannot both be: the second is left out, with an error naming both.
 */
function nameWebhooks(
  drafts: readonly WebhookDraft[],
  context: Parameters<typeof nameOperation>[1],
  locate: Locate,
): { models: WebhookModel[]; diagnostics: Diagnostic[] } {
  const models: WebhookModel[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const draft of drafts) {
    const names = nameOperation(draft, context);
    const first = models.find((model) => model.names.method === names.method);
    if (first !== undefined) {
      diagnostics.push(
        createDiagnostic(
          "NAME_COLLISION",
          `${draft.kind} "${draft.name}" (${draft.httpMethod}) and ${first.kind} "${first.name}" both become the receiver's name "${names.method}": give one an operationId of its own`,
          locate(draft.pointer),
        ),
      );
      continue;
    }
    models.push({ ...draft, path: `/${names.method}`, names });
  }
  return { models, diagnostics };
}

function nameSchemas(entries: readonly SchemaEntry[], types: NameRegistry, validators: NameRegistry): SchemaModel[] {
  return entries.map((entry) => {
    const owner = `schema ${JSON.stringify(entry.name)}`;
    const typeName = types.claim(toPascalCase(entry.name), owner);
    return {
      ...entry,
      typeName,
      validatorName: validators.claim(`validate${typeName}`, owner, "Validator"),
      guardName: validators.claim(`is${typeName}`, owner, "Guard"),
    };
  });
}

/** Client methods and handlers are keyed by method name: two operations cannot share one. */
function methodCollisions(operations: readonly OperationModel[], locate: Locate): Diagnostic[] {
  const seen = new Map<string, OperationDraft>();
  const diagnostics: Diagnostic[] = [];
  for (const operation of operations) {
    const first = seen.get(operation.names.method);
    if (first === undefined) {
      seen.set(operation.names.method, operation);
      continue;
    }
    if (first.id === operation.id) continue;
    diagnostics.push(
      createDiagnostic(
        "NAME_COLLISION",
        `operationIds "${first.id}" and "${operation.id}" both become the method name "${operation.names.method}"`,
        locate(operation.pointer),
      ),
    );
  }
  return diagnostics;
}

function reservedMethods(operations: readonly OperationModel[], locate: Locate): Diagnostic[] {
  return operations
    .filter((operation) => RESERVED_METHOD_NAMES.has(operation.id))
    .map((operation) =>
      createDiagnostic(
        "NAME_ADJUSTED",
        `operation ${operation.id}: method name "${operation.names.method}" instead of "${operation.id}" (a client method cannot be named "${operation.id}")`,
        locate(operation.pointer),
      ),
    );
}

/**
 * A path key with a query part ("/responses?beta=true") routes as the path without it; when that
 * meets another operation's route, the generated server serves only the first of them.
 */
function queryInPaths(operations: readonly OperationModel[], locate: Locate): Diagnostic[] {
  const routes = new Map<string, OperationModel>();
  const diagnostics: Diagnostic[] = [];
  for (const operation of operations) {
    const route = `${operation.method} ${operation.path.split("?")[0] ?? ""}`;
    const first = routes.get(route);
    if (first === undefined) routes.set(route, operation);
    else if (operation.path.includes("?") || first.path.includes("?")) {
      diagnostics.push(
        createDiagnostic(
          "NOT_GENERATED",
          `${operation.httpMethod} ${operation.path} routes as ${route.split(" ")[1]}, like operation ${first.id}: the generated server serves only ${first.id} there (the client calls both)`,
          locate(operation.pointer),
        ),
      );
    }
  }
  return diagnostics;
}

/**
 * An additional operation (OpenAPI 3.2) whose method Node's HTTP parser does not read (it knows a
 * fixed list, `http.METHODS`) cannot reach the generated Fastify server: Node answers 400 before
 * any route. The client, the MSW handlers and the Fetch transport still take it.
 */
function unparsedMethods(operations: readonly OperationModel[], locate: Locate): Diagnostic[] {
  return operations
    .filter((operation) => operation.additional && !METHODS.includes(operation.httpMethod))
    .map((operation) =>
      createDiagnostic(
        "NOT_GENERATED",
        `${operation.httpMethod} ${operation.path} (${operation.id}): Node's HTTP parser refuses the method ${operation.httpMethod} (it reads only those of http.METHODS), so the generated Fastify server cannot serve it; the client, the MSW handlers and the Fetch transport take it`,
        locate(operation.pointer),
      ),
    );
}

function adjustmentDiagnostic(adjustment: NameAdjustment, model: ApiModel, locate: Locate): Diagnostic {
  const schema = model.schemas.find((s) => `schema ${JSON.stringify(s.name)}` === adjustment.owner);
  const operation = model.operations.find((o) => `operation ${o.id}` === adjustment.owner);
  const pointer = schema?.pointer ?? operation?.pointer ?? "#";
  return createDiagnostic(
    "NAME_ADJUSTED",
    `${adjustment.owner}: generated name "${adjustment.given}" instead of "${adjustment.wanted}" (${adjustment.reason})`,
    locate(pointer),
  );
}
