import { isRecord, type JsonObject } from "../../json-value.js";
import type { Block } from "../codegen/code.js";
import { childLocation, type SchemaLocation } from "../registry/location.js";
import type { ObjectNodeCtx } from "./context.js";
import { failWith, params } from "./fail.js";
import { messages } from "./messages.js";

/**
 * readOnly in a request, writeOnly in a response: the value must not be there at all.
 * Returns true when the node was compiled as a failure (nothing else needs checking).
 */
export function compileForbidden(ctx: ObjectNodeCtx, out: Block): boolean {
  const keyword = forbiddenKeyword(ctx.direction);
  if (keyword === undefined || ctx.schema[keyword] !== true) return false;
  out.line(failWith(ctx, keyword, params({}), messages[keyword]));
  return true;
}

function forbiddenKeyword(direction: string): "readOnly" | "writeOnly" | undefined {
  if (direction === "request") return "readOnly";
  if (direction === "response") return "writeOnly";
  return undefined;
}

/**
 * OpenAPI: a required property that is readOnly is only required in responses, and a
 * writeOnly one only in requests. Drops such names for the node's direction.
 */
export function requiredForDirection(ctx: ObjectNodeCtx, required: readonly string[]): string[] {
  const keyword = forbiddenKeyword(ctx.direction);
  const properties = ctx.schema["properties"];
  if (keyword === undefined || !isRecord(properties)) return [...required];
  return required.filter((name) => {
    if (!Object.hasOwn(properties, name)) return true;
    return !isMarked(ctx, properties[name], childLocation(ctx.at, "properties", name), keyword);
  });
}

/** The property schema is readOnly/writeOnly itself, through `$ref`s, or in one of its allOf parts. */
function isMarked(ctx: ObjectNodeCtx, schema: unknown, at: SchemaLocation, keyword: string, depth = 0): boolean {
  if (!isRecord(schema) || depth > 16) return false;
  const node: JsonObject = schema;
  if (node[keyword] === true) return true;
  const registry = ctx.fn.module.registry;
  const ref = node["$ref"];
  if (typeof ref === "string") {
    const target = registry.resolveRef(ref, registry.baseWithin(node, registry.baseOf(at)), childLocation(at, "$ref"));
    if (isMarked(ctx, registry.schemaAt(target), target, keyword, depth + 1)) return true;
  }
  const parts = Array.isArray(node["allOf"]) ? node["allOf"] : [];
  return parts.some((part, index) => isMarked(ctx, part, childLocation(at, "allOf", index), keyword, depth + 1));
}
