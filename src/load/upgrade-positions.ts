/**
 * Where a place of a Swagger 2.0 document upgraded to OpenAPI 3.0 was written in the 2.0 document:
 * the upgrade moves objects (`definitions` to `components/schemas`, a body parameter to
 * `requestBody`, a response's `schema` under `content`, a parameter's type into its `schema`), so
 * a diagnostic about the upgraded document is placed by its pointer read back into the 2.0 one.
 * A pointer is rewritten along those moves, then cut back to the deepest place the 2.0 document
 * has (a place the upgrade made up, such as a media type key, is reported at what it came from).
 */
import { appendPointer, pointerSegments, resolvePointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";

type Segments = readonly string[];

/** The 2.0 document's pointer of a pointer into its upgraded form. */
export function originalPointer(pointer: string, original: unknown): string {
  const segments = pointerSegments(pointer);
  const mapped = mapSegments(segments, original);
  return deepestPresent(original, mapped);
}

function mapSegments(segments: Segments, original: unknown): Segments {
  const [first, kind, name, ...rest] = segments;
  if (first === "components" && name !== undefined) return mapComponent(kind, name, rest);
  if (first === "servers") return isRecord(original) && original.host !== undefined ? ["host"] : ["basePath"];
  if (first === "paths" && kind !== undefined && name !== undefined) return mapPathItem(kind, name, rest, original);
  return segments;
}

function mapComponent(kind: string | undefined, name: string, rest: Segments): Segments {
  switch (kind) {
    case "schemas":
      return ["definitions", name, ...rest];
    case "parameters":
      return ["parameters", name, ...parameterRest(rest)];
    case "requestBodies":
      return ["parameters", name, ...bodyRest(rest)];
    case "responses":
      return ["responses", name, ...responseRest(rest)];
    case "securitySchemes":
      return ["securityDefinitions", name, ...(rest[0] === "flows" ? rest.slice(2) : rest)];
    default:
      return [];
  }
}

/** A place in a path item: its own parameters, or an operation's parameters, body or responses. */
function mapPathItem(path: string, member: string, rest: Segments, original: unknown): Segments {
  const item = ["paths", path];
  if (member === "parameters") return [...item, ...mapParameter(original, item, rest)];
  const operation = [...item, member];
  const [part, ...inner] = rest;
  if (part === "parameters") return [...operation, ...mapParameter(original, operation, inner)];
  if (part === "requestBody") return mapBody(original, item, operation, inner);
  if (part === "responses" && inner[0] !== undefined)
    return [...operation, "responses", inner[0], ...responseRest(inner.slice(1))];
  return [...operation, ...rest];
}

/** The upgrade drops body and formData parameters from a list: the n-th one left is the n-th other in 2.0. */
function mapParameter(original: unknown, owner: Segments, rest: Segments): Segments {
  const [index, ...inner] = rest;
  const list = parametersOf(original, owner);
  const others = list.flatMap((parameter, at) => (isBodyLike(original, parameter) ? [] : [at]));
  const at = others[Number(index)];
  return at === undefined ? ["parameters"] : ["parameters", String(at), ...parameterRest(inner)];
}

/** A request body is the operation's (or its path item's) body parameter, or a formData one by property. */
function mapBody(original: unknown, item: Segments, operation: Segments, rest: Segments): Segments {
  for (const owner of [operation, item]) {
    const list = parametersOf(original, owner);
    const [, , schema, properties, property, ...inner] = rest;
    const body = list.findIndex((parameter) => inOf(original, parameter) === "body");
    if (body !== -1) return [...owner, "parameters", String(body), ...bodyRest(rest)];
    if (schema === "schema" && properties === "properties" && property !== undefined) {
      const field = list.findIndex((parameter) => isRecord(parameter) && parameter.name === property);
      if (field !== -1) return [...owner, "parameters", String(field), ...parameterRest(inner)];
    }
    const form = list.findIndex((parameter) => inOf(original, parameter) === "formData");
    if (form !== -1) return [...owner, "parameters", String(form)];
  }
  return operation;
}

/** In 2.0 a parameter other than a body has its type, format and items on itself, not in a schema. */
function parameterRest(rest: Segments): Segments {
  return rest[0] === "schema" ? rest.slice(1) : rest;
}

/** A body parameter's schema is under `content/<media type>/schema` once upgraded. */
function bodyRest(rest: Segments): Segments {
  return rest[0] === "content" ? (rest[2] === "schema" ? rest.slice(2) : []) : rest;
}

/** A response's schema and examples, under `content/<media type>` once upgraded; a header's type, in its schema. */
function responseRest(rest: Segments): Segments {
  const [part, key, member, ...inner] = rest;
  if (part === "content") {
    if (member === "schema") return ["schema", ...inner];
    if (member === "examples" || member === "example") return ["examples", ...(key === undefined ? [] : [key])];
    return [];
  }
  if (part === "headers" && key !== undefined) return ["headers", key, ...parameterRest(rest.slice(2))];
  return rest;
}

function parametersOf(original: unknown, owner: Segments): readonly unknown[] {
  const list = resolvePointer(original, appendPointer("#", ...owner, "parameters"));
  return Array.isArray(list) ? list : [];
}

/** A parameter's `in`, through a `$ref` to the document's `parameters`. */
function inOf(original: unknown, parameter: unknown): unknown {
  if (!isRecord(parameter)) return undefined;
  const ref = parameter.$ref;
  const target = typeof ref === "string" && ref.startsWith("#/") ? resolvePointer(original, ref) : parameter;
  return isRecord(target) ? target.in : undefined;
}

function isBodyLike(original: unknown, parameter: unknown): boolean {
  const where = inOf(original, parameter);
  return where === "body" || where === "formData";
}

/** The longest prefix of `segments` that names a place of the document. */
function deepestPresent(document: unknown, segments: Segments): string {
  for (let length = segments.length; length > 0; length--) {
    const pointer = appendPointer("#", ...segments.slice(0, length));
    if (resolvePointer(document, pointer) !== undefined) return pointer;
  }
  return "#";
}
