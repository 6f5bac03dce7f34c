import { isRecord } from "../../json-value.js";
import { Block, type Code, code } from "../code/code.js";
import { compileSubschema, type Direction, type InstancePath, type ObjectNodeCtx, onChild } from "./context.js";

/**
 * The checks of the subschema at `tokens` applied to a child value read by `source` (a
 * property value, an array item), with the value's declaration; empty when there is nothing
 * to check.
 */
export function childChecks(
  ctx: ObjectNodeCtx,
  tokens: readonly (string | number)[],
  path: InstancePath,
  source: Code,
): Block {
  const value = ctx.fn.fresh("v");
  const checks = new Block();
  compileSubschema(onChild(ctx, tokens, value, path), checks);
  const block = new Block();
  if (checks.empty) return block;
  if (readsData(subschema(ctx, tokens), ctx.direction)) block.line(code`const ${value} = ${source};`);
  block.append(checks);
  return block;
}

/** Whether the checks of `schema` read the value (a false or forbidden schema only reports). */
export function readsData(schema: unknown, direction: Direction): boolean {
  if (schema === false) return false;
  if (!isRecord(schema)) return true;
  return !(
    (direction === "request" && schema["readOnly"] === true) ||
    (direction === "response" && schema["writeOnly"] === true)
  );
}

function subschema(ctx: ObjectNodeCtx, tokens: readonly (string | number)[]): unknown {
  let node: unknown = ctx.schema;
  for (const token of tokens)
    node = isRecord(node) || Array.isArray(node) ? (node as Record<string, unknown>)[String(token)] : undefined;
  return node;
}
