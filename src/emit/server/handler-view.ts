import type { BodyContentModel, OperationModel, ResponseModel } from "../../model/types.js";

/**
 * One alternative of a handler's body type. Exactly one field is set: a named type, the named
 * type with file fields as uploads, raw bytes, text, unknown, or undefined (no body).
 */
export interface BodyPartView {
  readonly type?: string;
  readonly uploadType?: string;
  readonly uploadFiles?: readonly string[];
  readonly bytes?: true;
  /** a sequence of items (an `itemSchema` the runtime reads): the items of the named type, as they arrive */
  readonly items?: string;
  readonly text?: true;
  readonly unknown?: true;
  readonly none?: true;
}

/** One declared response: its status key and body type (named, none, unknown; plus bytes). */
export interface ResponseView {
  readonly status: string;
  readonly type?: string;
  readonly empty?: true;
  readonly untyped?: true;
  readonly bytes?: true;
}

/** Everything `handlers.ts` and `stubs.ts` print for one operation. */
export interface HandlerView {
  readonly method: string;
  readonly operationId: string;
  readonly doc: string;
  readonly summary: string;
  readonly params?: string;
  readonly query?: string;
  /** the query is an optional `in: querystring` parameter, undefined when not sent */
  readonly queryOptional: boolean;
  readonly headers?: string;
  readonly cookies?: string;
  readonly bodyParts: readonly BodyPartView[];
  /** the body type has one alternative (printed on one line) */
  readonly singleBody: boolean;
  /** every way to call the operation presents a credential to the authenticate hook, so a principal is known */
  readonly secured: boolean;
  readonly responses: readonly ResponseView[];
}

/** `credentialSchemes`: the security schemes whose credential goes to the authenticate hook (all but mutualTLS). */
export function buildHandlerView(operation: OperationModel, credentialSchemes: ReadonlySet<string>): HandlerView {
  const { names } = operation;
  const line = `${operation.httpMethod} ${operation.path}`;
  const summary = operation.summary ?? operation.id;
  const parts = bodyParts(operation);
  return {
    method: names.method,
    operationId: operation.id,
    doc: handlerDoc(operation, summary, line),
    summary: `${summary} (${line})`,
    ...(names.pathParamsType !== undefined ? { params: names.pathParamsType } : {}),
    ...(names.queryType !== undefined ? { query: names.queryType } : {}),
    // an optional `in: querystring` parameter that is not sent reaches the handler as undefined
    queryOptional: operation.querystring?.required === false,
    ...(names.headersType !== undefined ? { headers: names.headersType } : {}),
    ...(names.cookiesType !== undefined ? { cookies: names.cookiesType } : {}),
    bodyParts: parts,
    singleBody: parts.length === 1,
    secured:
      operation.security.length > 0 &&
      operation.security.every((requirement) =>
        requirement.schemes.some((scheme) => credentialSchemes.has(scheme.name)),
      ),
    responses: operation.responses.map((response) => responseView(response, names.responseTypes[response.status])),
  };
}

/** The handler's JSDoc: summary, description, method and path, and the deprecation. */
function handlerDoc(operation: OperationModel, summary: string, line: string): string {
  return [summary, operation.description, `\`${line}\``, operation.deprecated ? "@deprecated" : undefined]
    .map((part) => part?.trim())
    .filter((part): part is string => part !== undefined && part !== "")
    .join("\n\n");
}

function bodyParts(operation: OperationModel): BodyPartView[] {
  const body = operation.requestBody;
  if (body === undefined || body.contents.length === 0) return [{ none: true }];
  const typeName = operation.names.bodyType;
  const parts = body.contents.map((content) => bodyPart(content, typeName));
  const unique = parts.filter(
    (part, i) => parts.findIndex((other) => JSON.stringify(other) === JSON.stringify(part)) === i,
  );
  return body.required ? unique : [...unique, { none: true }];
}

function bodyPart(content: BodyContentModel, typeName: string | undefined): BodyPartView {
  if (content.sequence !== undefined && content.itemSchemaPointer !== undefined && typeName !== undefined)
    return { items: typeName };
  if (content.kind === "binary") return { bytes: true };
  if (typeName === undefined || content.schemaPointer === undefined)
    return content.kind === "text" ? { text: true } : { unknown: true };
  if (content.kind === "multipart" && content.binaryFields.length > 0)
    return { uploadType: typeName, uploadFiles: content.binaryFields };
  return { type: typeName };
}

function responseView(response: ResponseModel, typeName: string | undefined): ResponseView {
  const bytes = response.contents.some((content) => content.kind === "binary" && content.sequence === undefined)
    ? { bytes: true as const }
    : {};
  if (response.contents.length === 0) return { status: response.status, empty: true };
  if (typeName === undefined) return { status: response.status, untyped: true };
  return { status: response.status, type: typeName, ...bytes };
}
