import { isRecord } from "../../json-value.js";
import { isMarked, markerLeftOut } from "../../schema/read-write.js";
import type { Block } from "../code/code.js";
import { childLocation } from "../registry/location.js";
import type { ObjectNodeCtx } from "./context.js";
import { failWith, params } from "./fail.js";

/** The messages of the keywords compiled here, written at generation time (see wording.ts). */
const messages = {
  readOnly: "is read-only and must not be sent in a request",
  writeOnly: "is write-only and must not appear in a response",
} as const;

/**
 * readOnly in a request, writeOnly in a response: the value must not be there at all.
 * Returns true when the node was compiled as a failure (nothing else needs checking).
 */
export function compileForbidden(ctx: ObjectNodeCtx, out: Block): boolean {
  const marker = markerLeftOut(ctx.direction);
  if (marker === undefined || ctx.schema[marker] !== true) return false;
  out.line(failWith(ctx, marker, params({}), messages[marker]));
  return true;
}

/**
 * OpenAPI: a required property that is readOnly is only required in responses, and a
 * writeOnly one only in requests. Drops such names for the node's direction.
 */
export function requiredForDirection(ctx: ObjectNodeCtx, required: readonly string[]): string[] {
  const marker = markerLeftOut(ctx.direction);
  const properties = ctx.schema["properties"];
  if (marker === undefined || !isRecord(properties)) return [...required];
  const { tree } = ctx.fn.module.registry;
  return required.filter(
    (name) => !Object.hasOwn(properties, name) || !isMarked(tree, childLocation(ctx.at, "properties", name), marker),
  );
}
