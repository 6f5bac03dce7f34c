import type {
  PartEncoding,
  Route,
  RouteContent,
  RouteEncoders,
  RouteParameter,
  RouteSecurityScheme,
} from "../../../runtime/route-types.js";
import type { ApiModel, BodyContentModel, OperationModel, ParameterModel } from "../../model/types.js";
import { CodeRef } from "../literal.js";

/**
 * The route-table entry of one operation as plain data: the runtime's `Route`, with each validator
 * a reference into the validators module (printed as code by the table's printer).
 */
export type RouteView = Omit<Route, "validators" | "encoders"> & {
  readonly validators: ValidatorsView;
  readonly encoders?: { readonly [field in keyof RouteEncoders]?: CodeRef };
};

/** The generated validators of a route, as references into the validators module. */
export interface ValidatorsView {
  readonly pathParams?: CodeRef;
  readonly query?: CodeRef;
  readonly headers?: CodeRef;
  readonly cookies?: CodeRef;
  readonly body: Readonly<Record<string, CodeRef>>;
  readonly bodyItems?: Readonly<Record<string, CodeRef>>;
  readonly bodySequences?: Readonly<Record<string, CodeRef>>;
  readonly responses: Readonly<Record<string, CodeRef>>;
  readonly items?: Readonly<Record<string, Readonly<Record<string, CodeRef>>>>;
  readonly itemData?: Readonly<Record<string, Readonly<Record<string, CodeRef>>>>;
  readonly sequences?: Readonly<Record<string, Readonly<Record<string, CodeRef>>>>;
}

/** The query styles whose object values the server reads by property name or as `k1,v1,k2,v2`. */
const OBJECT_STYLES = new Set(["form", "spaceDelimited", "pipeDelimited"]);

export function buildRouteView(operation: OperationModel, model: ApiModel): RouteView {
  const parameter = (p: ParameterModel): RouteParameter => ({
    name: p.name,
    required: p.required,
    style: p.style,
    explode: p.explode,
    array: p.isArray,
  });
  const queryParameter = (p: ParameterModel): RouteParameter => {
    const properties = OBJECT_STYLES.has(p.style) ? p.objectProperties : undefined;
    return properties === undefined ? parameter(p) : { ...parameter(p), properties };
  };
  // label, matrix and cookie values of an object are read by their `k,v` pairs
  const objectParameter = (p: ParameterModel): RouteParameter =>
    p.objectProperties === undefined ? parameter(p) : { ...parameter(p), properties: p.objectProperties };
  const content = (c: BodyContentModel): RouteContent => ({
    mediaType: c.mediaType,
    kind: c.kind,
    ...(c.binaryFields.length > 0 ? { binaryFields: c.binaryFields } : {}),
    ...(c.sequence !== undefined && c.itemSchemaPointer !== undefined ? { sequence: c.sequence } : {}),
    ...partsView(c),
  });
  const body = operation.requestBody;
  const responses = Object.fromEntries(operation.responses.map((r) => [r.status, r.contents.map(content)]));
  return {
    operationId: operation.id,
    method: operation.httpMethod,
    path: operation.path,
    pathParams: operation.parameters.path.map((p) => p.name),
    ...pathStyles(operation.parameters.path.filter((p) => p.style !== "simple").map(objectParameter)),
    query: operation.parameters.query.map(queryParameter),
    ...querystringView(operation),
    headers: operation.parameters.header.map(parameter),
    ...(operation.parameters.cookie.length > 0 ? { cookies: operation.parameters.cookie.map(objectParameter) } : {}),
    ...(body !== undefined
      ? { body: { required: body.required, pointer: body.pointer, contents: body.contents.map(content) } }
      : {}),
    responses,
    ...acceptView(responses),
    security: operation.security.map((requirement) => requirement.schemes.flatMap((s) => schemeView(s.name, model))),
    validators: validatorsView(operation),
    ...encodersView(operation, model),
  };
}

/**
 * The client's Accept header: every media type the answers declare, once each, in the order of
 * the responses as a route lists them. Absent when no answer has content.
 */
function acceptView(responses: Readonly<Record<string, readonly RouteContent[]>>): { accept?: string } {
  const types = new Set(Object.values(responses).flatMap((contents) => contents.map((c) => c.mediaType)));
  return types.size === 0 ? {} : { accept: [...types].join(", ") };
}

/**
 * The client's encoders a route names, each with the module that exports it (under client/):
 * the route of each operation that needs one names it, so a page bundles only those its
 * operations need.
 */
const ENCODERS = {
  parameters: { name: "parameterEncoder", module: "parameters" },
  path: { name: "pathEncoder", module: "path-parameters" },
  query: { name: "queryEncoder", module: "query" },
  deepObjectQuery: { name: "deepObjectQueryEncoder", module: "deep-object" },
  querystring: { name: "querystringEncoder", module: "querystring" },
  headers: { name: "headerEncoder", module: "headers" },
  body: { name: "bodyEncoder", module: "body" },
  bodyWithoutForms: { name: "bodyEncoderWithoutForms", module: "body" },
  multipart: { name: "multipartBodyEncoder", module: "body" },
  itemBody: { name: "itemBodyEncoder", module: "item-bodies" },
  styles: { name: "styleEncoder", module: "styles" },
  auth: { name: "authEncoder", module: "auth" },
  answers: { name: "answerReader", module: "answers" },
  stream: { name: "streamAnswers", module: "stream-answers" },
  itemBodyCalls: { name: "itemBodyCalls", module: "streamed-calls" },
} as const;

/** An encoder a route names: the constant, and the client module (under client/) that exports it. */
export type EncoderImport = (typeof ENCODERS)[keyof typeof ENCODERS];

/** The encoders an operation's route names, by the field of `Route.encoders` each fills. */
function encodersOf(operation: OperationModel, model: ApiModel): Partial<Record<keyof RouteEncoders, EncoderImport>> {
  const { query, header } = operation.parameters;
  return {
    ...(hasParameters(operation)
      ? { parameters: scalarPathOnly(operation) ? ENCODERS.path : ENCODERS.parameters }
      : {}),
    ...(query.length > 0
      ? { query: query.some((p) => p.style === "deepObject") ? ENCODERS.deepObjectQuery : ENCODERS.query }
      : {}),
    ...(operation.querystring !== undefined ? { querystring: ENCODERS.querystring } : {}),
    ...(header.length > 0 ? { headers: ENCODERS.headers } : {}),
    ...(hasOtherBody(operation) ? { body: bodyEncoderOf(operation) } : {}),
    ...(hasStyles(operation) ? { styles: ENCODERS.styles } : {}),
    ...(hasOtherAuth(operation, model) ? { auth: ENCODERS.auth } : {}),
    ...(hasOtherAnswers(operation) ? { answers: ENCODERS.answers } : {}),
    ...streamOf(operation),
  };
}

/**
 * The stream encoder of an operation whose body or an answer of it is a sequence of items: the
 * reader of answers of items where it has some (it streams a body of items as well), else the
 * call that streams its body.
 */
function streamOf(operation: OperationModel): Partial<Record<"stream", EncoderImport>> {
  if (hasStreams(operation)) return { stream: ENCODERS.stream };
  return hasItemBody(operation) ? { stream: ENCODERS.itemBodyCalls } : {};
}

/** Whether an operation has an answer of another kind than JSON, whose body the answer reader reads. */
function hasOtherAnswers({ responses }: OperationModel): boolean {
  const streamed = (c: BodyContentModel): boolean => c.sequence !== undefined && c.itemSchemaPointer !== undefined;
  return responses.some((response) => response.contents.some((c) => c.kind !== "json" && !streamed(c)));
}

/** The client's encoders an operation needs, as its route names them: only those it needs. */
function encodersView(operation: OperationModel, model: ApiModel): Pick<RouteView, "encoders"> {
  const encoders = Object.entries(encodersOf(operation, model)).map(([field, { name }]) => [field, new CodeRef(name)]);
  return encoders.length === 0 ? {} : { encoders: Object.fromEntries(encoders) };
}

/** The encoders the routes of `operations` name, each once, in a stable order: what their module imports. */
export function encoderImports(operations: readonly OperationModel[], model: ApiModel): EncoderImport[] {
  const used = new Set(operations.flatMap((operation) => Object.values(encodersOf(operation, model))));
  return Object.values(ENCODERS).filter((encoder) => used.has(encoder));
}

/**
 * Whether an operation's body may be other than JSON: a media type of another kind, one with a
 * wildcard (sent as application/octet-stream), or several to choose from.
 */
export function hasOtherBody({ requestBody }: OperationModel): boolean {
  const contents = requestBody?.contents ?? [];
  return contents.length > 1 || contents.some((c) => c.kind !== "json" || c.mediaType.includes("*"));
}

/**
 * The body encoder of an operation whose body may be other than JSON: with forms and items only
 * where it sends them, a multipart form's alone where that is its one media type.
 */
function bodyEncoderOf(operation: OperationModel): EncoderImport {
  if (hasItemBody(operation)) return ENCODERS.itemBody;
  const contents = operation.requestBody?.contents ?? [];
  if (contents.length === 1 && contents[0]?.kind === "multipart") return ENCODERS.multipart;
  return contents.some((c) => c.kind === "form") ? ENCODERS.body : ENCODERS.bodyWithoutForms;
}

/** Whether an operation's body may be a sequence of items (streamed by the item body encoder). */
export function hasItemBody({ requestBody }: OperationModel): boolean {
  return (requestBody?.contents ?? []).some((c) => c.sequence !== undefined);
}

/** Whether an answer of an operation is a sequence of items the runtime reads (server-sent events, JSON Lines, ...). */
export function hasStreams({ names }: OperationModel): boolean {
  return Object.keys(names.itemValidators).length > 0;
}

/**
 * Whether an operation has path, query, header or cookie parameters, or a querystring (cookies
 * are written and checked by the style encoder, which the parameter encoder calls).
 */
export function hasParameters({ parameters, querystring }: OperationModel): boolean {
  const { path, query, header, cookie } = parameters;
  return path.length + query.length + header.length + cookie.length > 0 || querystring !== undefined;
}

/**
 * Whether an operation's only parameters are path parameters of style simple whose schemas are
 * scalars: its route names the path encoder, which writes nothing else.
 */
function scalarPathOnly({ parameters, querystring }: OperationModel): boolean {
  const { path, query, header, cookie } = parameters;
  return (
    query.length + header.length + cookie.length === 0 &&
    querystring === undefined &&
    path.every((p) => p.style === "simple" && p.scalar === true)
  );
}

/** The route's `in: querystring` parameter, when the operation has one. */
function querystringView({ querystring }: OperationModel): Pick<RouteView, "querystring"> {
  if (querystring === undefined) return {};
  const { name, required, mediaType, kind } = querystring;
  return { querystring: { name, required, mediaType, kind } };
}

/** Whether an operation has label or matrix path parameters, or cookie parameters. */
export function hasStyles({ parameters }: OperationModel): boolean {
  return parameters.cookie.length > 0 || parameters.path.some((p) => p.style !== "simple");
}

/**
 * Whether an operation's security names a scheme other than an API key in a header (which the
 * engine places itself): bearer, basic, oauth2, openIdConnect, or an API key in the query or a cookie.
 */
export function hasOtherAuth(operation: OperationModel, model: ApiModel): boolean {
  return operation.security.some((requirement) =>
    requirement.schemes.some(({ name }) =>
      schemeView(name, model).some((scheme) => scheme.type !== "apiKey" || scheme.in !== "header"),
    ),
  );
}

/** Path parameters of style label or matrix, listed only when there are any. */
function pathStyles(styled: readonly RouteParameter[]): { pathStyles?: readonly RouteParameter[] } {
  return styled.length > 0 ? { pathStyles: styled } : {};
}

function validatorsView({ names }: OperationModel): ValidatorsView {
  const ref = (name: string): CodeRef => new CodeRef(`V.${name}`);
  const refs = (byKey: Readonly<Record<string, string>>): Record<string, CodeRef> =>
    Object.fromEntries(Object.entries(byKey).map(([key, name]) => [key, ref(name)]));
  return {
    ...(names.pathParamsValidator !== undefined ? { pathParams: ref(names.pathParamsValidator) } : {}),
    ...(names.queryValidator !== undefined ? { query: ref(names.queryValidator) } : {}),
    ...(names.headersValidator !== undefined ? { headers: ref(names.headersValidator) } : {}),
    ...(names.cookiesValidator !== undefined ? { cookies: ref(names.cookiesValidator) } : {}),
    body: refs(names.bodyValidators),
    ...(Object.keys(names.bodyItemValidators).length > 0 ? { bodyItems: refs(names.bodyItemValidators) } : {}),
    ...(Object.keys(names.bodySequenceValidators).length > 0
      ? { bodySequences: refs(names.bodySequenceValidators) }
      : {}),
    responses: refs(names.responseValidators),
    ...nested("items", names.itemValidators, refs),
    ...nested("itemData", names.itemDataValidators, refs),
    ...nested("sequences", names.sequenceValidators, refs),
  };
}

function schemeView(name: string, model: ApiModel): RouteSecurityScheme[] {
  const scheme = model.securitySchemes.find((s) => s.name === name);
  if (scheme === undefined) return [];
  return [
    {
      scheme: name,
      type: scheme.type,
      ...(scheme.in !== undefined ? { in: scheme.in } : {}),
      ...(scheme.parameterName !== undefined ? { name: scheme.parameterName } : {}),
      ...(scheme.scheme !== undefined ? { httpScheme: scheme.scheme } : {}),
    },
  ];
}

/** Validators by status, then media type, under `key`; absent when there are none. */
function nested<K extends string>(
  key: K,
  byStatus: Readonly<Record<string, Readonly<Record<string, string>>>>,
  refs: (byKey: Readonly<Record<string, string>>) => Record<string, CodeRef>,
): Partial<Record<K, Record<string, Record<string, CodeRef>>>> {
  const entries = Object.entries(byStatus);
  if (entries.length === 0) return {};
  return { [key]: Object.fromEntries(entries.map(([status, byType]) => [status, refs(byType)])) } as Partial<
    Record<K, Record<string, Record<string, CodeRef>>>
  >;
}

/** The encodings of multipart/mixed parts by position, when the media type declares any. */
function partsView(content: BodyContentModel): Pick<RouteContent, "parts"> {
  const parts = content.parts;
  if (parts === undefined) return {};
  const view = ({ contentType, headers }: PartEncoding): PartEncoding => ({
    ...(contentType !== undefined ? { contentType } : {}),
    ...(headers !== undefined ? { headers } : {}),
  });
  const item = view(parts.item);
  const declared = (encoding: PartEncoding): boolean => Object.keys(encoding).length > 0;
  const prefix = parts.prefix.map(view);
  if (!prefix.some(declared) && !declared(item)) return {};
  return { parts: { ...(prefix.length > 0 ? { prefix } : {}), ...(declared(item) ? { item } : {}) } };
}
