import type {
  BodyContentModel,
  OperationModel,
  PartEncodingModel,
  PartsModel,
  QuerystringModel,
  ResponseModel,
  SchemaModel,
  WebhookModel,
} from "../../model/types.js";
import { hoistedKey } from "./types-document.js";

/** One exported alias: `export type <name> = <type>;` with its JSDoc. */
export interface TypeAlias {
  readonly name: string;
  readonly type: string;
  readonly docs: string;
}

const quote = (value: string): string => JSON.stringify(value);

/** The alias of every component schema: `Venue = components["schemas"]["Venue"]`. */
export function componentAliases(schemas: readonly SchemaModel[]): TypeAlias[] {
  return schemas.map((schema) => {
    const raw = `components["schemas"][${quote(schema.name)}]`;
    return {
      name: schema.typeName,
      type: schema.hasReadWrite ? `Unmarked<${raw}>` : raw,
      docs: `The \`${schema.name}\` schema (${schema.pointer}).`,
    };
  });
}

/**
 * Per operation: path parameters, query, headers, request body and each response. A webhook's or
 * callback's are read from its Path Item under `webhooks` (where callbacks are typed too).
 */
export function operationAliases(
  operation: OperationModel | WebhookModel,
  schemas: ReadonlyMap<string, SchemaModel>,
  componentNames: ReadonlySet<string>,
): TypeAlias[] {
  const { names } = operation;
  const hook = "typesKey" in operation ? operation : undefined;
  const item = hook === undefined ? `paths[${quote(operation.path)}]` : `webhooks[${quote(hook.typesKey)}]`;
  // an OpenAPI 3.2 additional operation is typed under its Path Item's `additionalOperations`
  const member = operation.additional ? `["additionalOperations"]` : "";
  const base = `${item}${member}[${quote(operation.method)}]`;
  const label =
    hook === undefined
      ? `\`${operation.id}\` (${operation.httpMethod} ${operation.path})`
      : `the ${hook.kind} \`${operation.id}\` (${operation.httpMethod} ${hook.kind === "webhook" ? hook.name : `${hook.owner} ${hook.name}`})`;
  const aliases: TypeAlias[] = [];
  const add = (name: string | undefined, type: string, docs: string): void => {
    if (name !== undefined && !componentNames.has(name)) aliases.push({ name, type, docs });
  };
  add(names.pathParamsType, `${base}["parameters"]["path"]`, `Path parameters of ${label}.`);
  const querystring = operation.querystring;
  if (querystring === undefined)
    add(names.queryType, `NonNullable<${base}["parameters"]["query"]>`, `Query parameters of ${label}.`);
  else
    add(
      names.queryType,
      querystringType(querystring, schemas),
      `The query string of ${label} (\`${querystring.name}\`, ${querystring.mediaType}).`,
    );
  add(names.headersType, `NonNullable<${base}["parameters"]["header"]>`, `Header parameters of ${label}.`);
  add(names.cookiesType, `NonNullable<${base}["parameters"]["cookie"]>`, `Cookie parameters of ${label}.`);
  const body =
    operation.requestBody?.contents.filter((c) => c.schemaPointer !== undefined || c.itemSchemaPointer !== undefined) ??
    [];
  if (body.length > 0) {
    const bodyBase = `NonNullable<${base}["requestBody"]>["content"]`;
    add(
      names.bodyType,
      union(body.map((c) => contentType(c, bodyBase, "Writable", schemas))),
      `Request body of ${label}.`,
    );
  }
  for (const response of operation.responses) {
    const name = names.responseTypes[response.status];
    const contents = response.contents.filter(
      (c) => c.schemaPointer !== undefined || c.itemSchemaPointer !== undefined,
    );
    const responseBase = `${base}["responses"][${statusKey(response.status)}]["content"]`;
    add(
      name,
      union(contents.map((c) => contentType(c, responseBase, "Readable", schemas))),
      `Response ${response.status} of ${label}.`,
    );
  }
  add(names.responseType, successUnion(operation.responses, names.responseTypes), `Success response body of ${label}.`);
  return aliases;
}

/**
 * A component's own alias when the content is exactly a $ref to it; else an indexed access. A
 * sequence of items (an `itemSchema` the runtime frames) is an async iterable of its items (a
 * request's may be any iterable); a server-sent event is `{ event?, data, id?, retry? }`, its
 * `data` typed by its `contentSchema` when that is JSON.
 */
function contentType(
  content: BodyContentModel,
  base: string,
  view: "Readable" | "Writable",
  schemas: ReadonlyMap<string, SchemaModel>,
): string {
  if (content.itemSchemaPointer !== undefined && content.sequence !== undefined) {
    const item = itemType(content);
    return view === "Readable" ? `AsyncIterable<${item}>` : `AsyncIterable<${item}> | Iterable<${item}>`;
  }
  const component = content.componentRef === undefined ? undefined : schemas.get(content.componentRef);
  const raw =
    component !== undefined && !content.hasReadWrite ? component.typeName : `${base}[${quote(content.mediaType)}]`;
  return content.hasReadWrite ? `${view}<${raw}>` : raw;
}

function successUnion(responses: readonly ResponseModel[], typeNames: Readonly<Record<string, string>>): string {
  const success = responses.filter((r) => r.success);
  const chosen = success.length > 0 ? success : responses.filter((r) => r.status === "default");
  if (chosen.length === 0) return "unknown";
  return union(chosen.map((r) => typeNames[r.status] ?? "undefined"));
}

function statusKey(status: string): string {
  return /^\d+$/.test(status) ? status : quote(status);
}

function union(types: readonly string[]): string {
  const unique = [...new Set(types)];
  return unique.length === 0 ? "never" : unique.join(" | ");
}

/**
 * The type of an `in: querystring` parameter: its content's schema (a component's alias, or the
 * schema hoisted as a component by types-document.ts), `unknown` without one.
 */
function querystringType(querystring: QuerystringModel, schemas: ReadonlyMap<string, SchemaModel>): string {
  const component = querystring.componentRef === undefined ? undefined : schemas.get(querystring.componentRef);
  if (component !== undefined)
    return component.hasReadWrite ? `Writable<components["schemas"][${quote(component.name)}]>` : component.typeName;
  const pointer = querystring.schemaPointer;
  return pointer === undefined ? "unknown" : `components["schemas"][${quote(hoistedKey(pointer))}]`;
}

/** The type of one item of a sequence: its schema's (hoisted as a component by types-document.ts), or an event's. */
function itemType(content: BodyContentModel): string {
  const schema = (pointer: string): string => `components["schemas"][${quote(hoistedKey(pointer))}]`;
  if (content.sequence === "multipart" && content.parts !== undefined)
    return partsType(content.parts, schema(content.itemSchemaPointer ?? ""));
  if (content.sequence !== "sse") return schema(content.itemSchemaPointer ?? "");
  const data = content.itemDataSchemaPointer === undefined ? "string" : schema(content.itemDataSchemaPointer);
  return `{ event?: string; data: ${data}; id?: string; retry?: number }`;
}

/**
 * The item of multipart/mixed parts, by position: a `Blob` where its part carries bytes (its
 * Encoding Object's `contentType` lists only such media types, or the item schema is binary), else
 * the item schema's type; `{ headers, body }` where the Encoding Object declares headers (each a
 * string, as the part carries it). Positions alike give one alternative.
 */
function partsType(parts: PartsModel, schemaType: string): string {
  const shape = (encoding: PartEncodingModel): string => {
    const body = encoding.binary ? "Blob" : schemaType;
    const headers = encoding.headers ?? [];
    if (headers.length === 0) return body;
    const fields = headers.map(({ name, required }) => `${quote(name)}${required ? "" : "?"}: string`).join("; ");
    return `{ headers: { ${fields} }; body: ${body} }`;
  };
  return union([...parts.prefix, parts.item].map(shape));
}
