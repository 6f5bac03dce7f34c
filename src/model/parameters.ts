import { appendPointer, resolvePointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";
import { followRef, type Located, stringAt } from "./document-nodes.js";
import type { ParameterLocation, ParameterModel, ParametersByLocation } from "./types.js";

const LOCATIONS: readonly ParameterLocation[] = ["path", "query", "header", "cookie"];
const DEFAULT_STYLE: Record<ParameterLocation, string> = {
  path: "simple",
  query: "form",
  header: "simple",
  cookie: "form",
};

/**
 * The operation's parameters by location: path-level ones first, overridden by operation-level
 * ones with the same name and location (as OpenAPI says), each list sorted by name.
 */
export function buildParameters(document: unknown, pathItem: Located, operation: Located): ParametersByLocation {
  const merged = new Map<string, ParameterModel>();
  for (const owner of [pathItem, operation]) {
    for (const parameter of listParameters(document, owner)) merged.set(`${parameter.in} ${parameter.name}`, parameter);
  }
  const all = [...merged.values()];
  const pick = (location: ParameterLocation): ParameterModel[] =>
    all.filter((p) => p.in === location).sort((a, b) => a.name.localeCompare(b.name));
  return { path: pick("path"), query: pick("query"), header: pick("header"), cookie: pick("cookie") };
}

function listParameters(document: unknown, owner: Located): ParameterModel[] {
  const list = owner.node.parameters;
  if (!Array.isArray(list)) return [];
  const base = appendPointer(owner.pointer, "parameters");
  return list.flatMap((entry, index) => {
    const located = followRef(document, entry, appendPointer(base, index));
    return located === undefined ? [] : toParameter(document, located);
  });
}

function toParameter(document: unknown, { node, pointer }: Located): ParameterModel[] {
  const name = stringAt(node, "name");
  const location = stringAt(node, "in") as ParameterLocation | undefined;
  if (name === undefined || location === undefined || !LOCATIONS.includes(location)) return [];
  const style = stringAt(node, "style") ?? (isRecord(node.content) ? "content" : DEFAULT_STYLE[location]);
  const description = stringAt(node, "description");
  const schemaPointer = parameterSchemaPointer(node, pointer);
  const schema =
    schemaPointer === undefined
      ? undefined
      : followRef(document, resolvePointer(document, schemaPointer), schemaPointer)?.node;
  const isArray = schema !== undefined && isArraySchema(schema);
  const objectProperties = schema !== undefined && !isArray ? objectSchemaProperties(schema) : undefined;
  const scalar = node.schema !== undefined && schema !== undefined && isScalarSchema(schema);
  return [
    {
      name,
      in: location,
      required: location === "path" || node.required === true,
      pointer,
      ...(schemaPointer !== undefined ? { schemaPointer } : {}),
      style,
      explode: typeof node.explode === "boolean" ? node.explode : style === "form",
      isArray,
      ...(objectProperties !== undefined ? { objectProperties } : {}),
      ...(scalar ? { scalar: true as const } : {}),
      ...(description !== undefined ? { description } : {}),
      deprecated: node.deprecated === true,
    },
  ];
}

function parameterSchemaPointer(node: Record<string, unknown>, pointer: string): string | undefined {
  if (node.schema !== undefined) return appendPointer(pointer, "schema");
  if (!isRecord(node.content)) return undefined;
  const [mediaType] = Object.keys(node.content);
  const media = mediaType === undefined ? undefined : node.content[mediaType];
  return isRecord(media) && media.schema !== undefined
    ? appendPointer(pointer, "content", mediaType as string, "schema")
    : undefined;
}

/** Whether a parameter schema (after $refs) is, or may be, an array. */
function isArraySchema(schema: Record<string, unknown>): boolean {
  const type = schema.type;
  return (
    type === "array" ||
    (Array.isArray(type) && type.includes("array")) ||
    (type === undefined && schema.items !== undefined)
  );
}

/** The types whose values a parameter writes as one text. */
const SCALAR_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);

/**
 * Whether a parameter schema (after $refs) can only be a scalar: its `type` names scalar types
 * alone (`null` with them), so no list or object is valid.
 */
function isScalarSchema(schema: Record<string, unknown>): boolean {
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  return (
    types.length > 0 &&
    types.every((type) => typeof type === "string" && SCALAR_TYPES.has(type)) &&
    types.some((type) => type !== "null")
  );
}

/** The property names of a parameter schema (after $refs) that is, or may be, an object; else undefined. */
function objectSchemaProperties(schema: Record<string, unknown>): string[] | undefined {
  const type = schema.type;
  const object =
    type === "object" ||
    (Array.isArray(type) && type.includes("object")) ||
    (type === undefined && (schema.properties !== undefined || schema.additionalProperties !== undefined));
  if (!object) return undefined;
  return isRecord(schema.properties) ? Object.keys(schema.properties) : [];
}
