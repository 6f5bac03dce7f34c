import type { BodyContentModel, OperationModel, ResponseModel } from "../../model/types.js";

/**
 * A type the template prints: `T.<name>` for a generated type (prefix "T."), a global or built-in
 * type otherwise (prefix ""), wrapped in `WithFiles<..., "a" | "b">` when it has file fields.
 */
export interface TypePart {
  readonly prefix: "T." | "";
  readonly name: string;
  readonly files: readonly string[];
}

/** A parameter group of the first argument (path, query, headers) and whether it may be left out. */
export interface GroupView {
  readonly type: string;
  readonly optional: boolean;
}

/** Everything the client template needs for one method. */
export interface MethodView {
  /** the method name, from the naming authority */
  readonly name: string;
  /** "constructor" cannot be a plain method name of a class; it is written as a computed key */
  readonly computed: boolean;
  /** the operation's key in the route table */
  readonly key: string;
  readonly doc: string;
  /** whether the first argument may be left out (nothing in it is required) */
  readonly argsOptional: boolean;
  /** the operation has no parameters and no body */
  readonly noArgs: boolean;
  readonly path: GroupView | false;
  readonly query: GroupView | false;
  readonly headers: GroupView | false;
  readonly cookies: GroupView | false;
  readonly body: { readonly optional: boolean; readonly parts: readonly TypePart[] } | false;
  /** the request media types a caller may choose between (only when there are several) */
  readonly contentTypes: readonly string[];
  readonly returns: readonly TypePart[];
  /** the declared answers that are not 2xx, with the type of the body an `ApiError` carries */
  readonly errors: readonly ErrorView[];
}

/** A declared error answer: its status key, and its body's generated type or a built-in one. */
export interface ErrorView {
  readonly status: string;
  readonly type?: string;
  readonly builtin?: "undefined" | "string" | "unknown";
}

const generated = (name: string, files: readonly string[] = []): TypePart => ({ prefix: "T.", name, files });
const builtin = (name: string): TypePart => ({ prefix: "", name, files: [] });

export function buildMethodView(operation: OperationModel): MethodView {
  const { names } = operation;
  const parts = { ...parameterGroups(operation), body: bodyView(operation) };
  const present = Object.values(parts).filter((part) => part !== false);
  const contents = operation.requestBody?.contents ?? [];
  return {
    name: names.method,
    computed: names.method === "constructor",
    key: names.method,
    doc: methodDoc(operation),
    argsOptional: present.every((part) => part.optional),
    noArgs: present.length === 0,
    ...parts,
    contentTypes: contents.length > 1 ? contents.map((c) => c.mediaType) : [],
    returns: returnParts(operation),
    errors: operation.responses
      .filter((r) => !r.success)
      .map((r) => errorView(r, operation.names.responseTypes[r.status])),
  };
}

/** Path, query, headers and cookies, each when the operation has such parameters; optional when none is required. */
function parameterGroups({
  names,
  parameters,
  querystring,
}: OperationModel): Pick<MethodView, "path" | "query" | "headers" | "cookies"> {
  const group = (type: string | undefined, list: readonly { required: boolean }[]): GroupView | false =>
    type === undefined ? false : { type, optional: !list.some((p) => p.required) };
  return {
    path: group(names.pathParamsType, parameters.path),
    query: group(names.queryType, querystring === undefined ? parameters.query : [querystring]),
    headers: group(names.headersType, parameters.header),
    cookies: group(names.cookiesType, parameters.cookie),
  };
}

function bodyView(operation: OperationModel): MethodView["body"] {
  const body = operation.requestBody;
  if (body === undefined || body.contents.length === 0) return false;
  const parts = body.contents.map((content) => bodyPart(content, operation.names.bodyType));
  return { optional: !body.required, parts: uniqueParts(parts) };
}

/** Raw-byte media types take bytes; multipart and form fields that carry files take file input. */
function bodyPart(content: BodyContentModel, bodyType: string | undefined): TypePart {
  // a sequence of items: any iterable or async iterable of them, streamed
  if (content.sequence !== undefined && content.itemSchemaPointer !== undefined && bodyType !== undefined)
    return generated(bodyType, []);
  if (content.kind === "binary") return builtin("RawBody");
  if (content.schemaPointer === undefined || bodyType === undefined)
    return builtin(content.kind === "text" ? "string" : "unknown");
  return generated(bodyType, content.binaryFields);
}

/**
 * The success body: the generated response type when every success content is JSON with a schema
 * (or there is none); else per content what the client returns: JSON as its type, bytes as a
 * Blob, other media types as text, no content as undefined. With no 2xx, `default` counts.
 */
function returnParts(operation: OperationModel): TypePart[] {
  const success = operation.responses.filter((r) => r.success);
  const chosen = success.length > 0 ? success : operation.responses.filter((r) => r.status === "default");
  if (chosen.length === 0) return [builtin("unknown")];
  if (chosen.every((r) => r.contents.every((c) => c.kind === "json" && c.schemaPointer !== undefined)))
    return [generated(operation.names.responseType)];
  return uniqueParts(
    chosen.flatMap((response) => responseParts(response, operation.names.responseTypes[response.status])),
  );
}

function responseParts(response: ResponseModel, typeName: string | undefined): TypePart[] {
  if (response.contents.length === 0) return [builtin("undefined")];
  return response.contents.map((content) => {
    // a sequence of items: the status's type, an async iterable of them
    if (content.sequence !== undefined && content.itemSchemaPointer !== undefined && typeName !== undefined)
      return generated(typeName);
    if (content.kind === "binary") return builtin("Blob");
    if (content.kind !== "json") return builtin("string");
    return content.schemaPointer !== undefined && typeName !== undefined ? generated(typeName) : builtin("unknown");
  });
}

/** The body of an error answer as the client reads it: JSON parsed (typed when it has a schema), other media types as text, none as undefined. */
function errorView(response: ResponseModel, typeName: string | undefined): ErrorView {
  const status = response.status;
  if (response.contents.length === 0) return { status, builtin: "undefined" };
  if (response.contents.every((c) => c.kind === "json" && c.schemaPointer !== undefined) && typeName !== undefined)
    return { status, type: typeName };
  return { status, builtin: response.contents.every((c) => c.kind !== "json") ? "string" : "unknown" };
}

function uniqueParts(parts: readonly TypePart[]): TypePart[] {
  const seen = new Map<string, TypePart>();
  for (const part of parts) seen.set(`${part.prefix}${part.name}<${part.files.join(",")}>`, part);
  const unique = [...seen.values()];
  return unique.some((part) => part.prefix === "" && part.name === "unknown") ? [builtin("unknown")] : unique;
}

/** Summary, description, then the method and path; `@deprecated` when the spec says so. */
function methodDoc(operation: OperationModel): string {
  const lines = [operation.summary, operation.description, `\`${operation.httpMethod} ${operation.path}\``];
  const text = lines
    .filter((line): line is string => line !== undefined && line.trim() !== "")
    .map((line) => line.trim())
    .join("\n\n");
  return operation.deprecated ? `${text}\n\n@deprecated` : text;
}
