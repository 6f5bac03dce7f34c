import { bodyKindOf } from "../../runtime/media-types.js";
import type { QuerystringKind } from "../../runtime/route-types.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { appendPointer, resolvePointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";
import type { Locate } from "../load/source-locator.js";
import { followRef, type Located, stringAt } from "./document-nodes.js";
import type { OperationDraft } from "./operation-names.js";
import { componentSchemaName } from "./schemas.js";
import type { QuerystringModel } from "./types.js";

/**
 * The operation's `in: querystring` parameter (OpenAPI 3.2): the operation's own over its Path
 * Item's, as for other parameters; undefined when neither declares one.
 */
export function buildQuerystring(
  document: unknown,
  pathItem: Located,
  operation: Located,
): QuerystringModel | undefined {
  return querystringOf(document, operation) ?? querystringOf(document, pathItem);
}

/** Every `in: querystring` parameter the owners (an operation, its Path Item) declare. */
function querystringParameters(document: unknown, owners: readonly Located[]): Located[] {
  return owners.flatMap((owner) => declared(document, owner).filter((p) => p.node.in === "querystring"));
}

function querystringOf(document: unknown, owner: Located): QuerystringModel | undefined {
  const found = declared(document, owner).find((p) => p.node.in === "querystring");
  return found === undefined ? undefined : toQuerystring(document, found);
}

function declared(document: unknown, owner: Located): Located[] {
  const list = owner.node.parameters;
  if (!Array.isArray(list)) return [];
  const base = appendPointer(owner.pointer, "parameters");
  return list.flatMap((entry, index) => followRef(document, entry, appendPointer(base, index)) ?? []);
}

function toQuerystring(document: unknown, { node, pointer }: Located): QuerystringModel | undefined {
  const name = stringAt(node, "name");
  const content = node.content;
  const [mediaType] = isRecord(content) ? Object.keys(content) : [];
  if (name === undefined || mediaType === undefined || !isRecord(content)) return undefined;
  const mediaPointer = appendPointer(pointer, "content", mediaType);
  const media = followRef(document, content[mediaType], mediaPointer);
  const schemaPointer =
    media !== undefined && media.node.schema !== undefined ? appendPointer(media.pointer, "schema") : undefined;
  const schema = schemaPointer === undefined ? undefined : resolvePointer(document, schemaPointer);
  const componentRef =
    isRecord(schema) && Object.keys(schema).length === 1 ? componentSchemaName(schema.$ref) : undefined;
  const description = stringAt(node, "description");
  return {
    name,
    required: node.required === true,
    pointer,
    mediaType,
    kind: querystringKind(mediaType),
    ...(schemaPointer !== undefined ? { schemaPointer } : {}),
    ...(componentRef !== undefined ? { componentRef } : {}),
    ...(description !== undefined ? { description } : {}),
  };
}

/** A URL-encoded form, JSON, or (any other media type) the query string's text as it is. */
function querystringKind(mediaType: string): QuerystringKind {
  const kind = bodyKindOf(mediaType);
  return kind === "form" || kind === "json" ? kind : "text";
}

/**
 * The rules of `in: querystring` the 3.2 schema cannot express: at most one such parameter for an
 * operation (its own and its Path Item's, unless the operation's overrides the Path Item's by
 * name), and no `in: query` parameter beside it.
 */
export function checkQuerystring(
  document: unknown,
  owners: { readonly pathItem: Located; readonly operation: Located },
  draft: OperationDraft,
  locate: Locate,
): Diagnostic[] {
  const own = querystringParameters(document, [owners.operation]);
  const names = new Set(own.map((p) => p.node.name));
  const inherited = querystringParameters(document, [owners.pathItem]).filter((p) => !names.has(p.node.name));
  const all = [...own, ...inherited];
  const label = `${draft.httpMethod} ${draft.path}`;
  const diagnostics = all
    .slice(1)
    .map((extra) =>
      createDiagnostic(
        "OAS_INVALID",
        `${label}: more than one \`in: querystring\` parameter; the whole query string is one value: keep one`,
        locate(extra.pointer),
      ),
    );
  const first = all[0];
  const query = draft.parameters.query[0];
  if (first !== undefined && query !== undefined)
    diagnostics.push(
      createDiagnostic(
        "OAS_INVALID",
        `${label}: query parameter "${query.name}" beside the \`in: querystring\` parameter "${String(first.node.name)}", which is the whole query string: make it a property of the querystring's schema`,
        locate(query.pointer),
      ),
    );
  return diagnostics;
}
