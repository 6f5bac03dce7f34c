import { isNullable } from "../../schema/dialect.js";
import { Block, type Code, code, joinCode, str } from "../code/code.js";
import { compileArrayKeywords } from "./array.js";
import { type ObjectNodeCtx, readerOf } from "./context.js";
import { failWith, params } from "./fail.js";
import { compileNumberKeywords } from "./number.js";
import { compileObjectKeywords } from "./object.js";
import { compileStringKeywords } from "./string.js";

/** The messages of the keywords compiled here, written at generation time (see wording.ts). */
const messages = {
  type: (types: readonly string[]) => `must be ${types.join(" or ")}`,
} as const;

const TYPE_NAMES = ["string", "number", "integer", "boolean", "null", "array", "object"];

type Family = "string" | "number" | "object" | "array";
const FAMILIES: readonly Family[] = ["string", "number", "object", "array"];

/** `type` (plus OpenAPI `nullable`) and the keywords that only apply to one JSON type. */
export function compileTyped(ctx: ObjectNodeCtx, out: Block): void {
  const types = readTypes(ctx);
  const blocks = new Map<Family, Block>();
  for (const family of FAMILIES) {
    if (types !== undefined && !types.some((type) => familyOf(type) === family)) continue;
    const block = compileFamily(ctx, family);
    if (!block.empty) blocks.set(family, block);
  }
  if (types === undefined) emitGuarded(ctx, blocks, out);
  else if (types.length === 1) emitSingle(ctx, types[0] as string, blocks, out);
  else emitMultiple(ctx, types, blocks, out);
}

/** The instance types the node allows, or undefined when `type` is absent. */
export function readTypes(ctx: ObjectNodeCtx): string[] | undefined {
  const raw = ctx.schema["type"];
  if (raw === undefined) return undefined;
  const reader = readerOf(ctx);
  const list =
    typeof raw === "string"
      ? [raw]
      : Array.isArray(raw)
        ? raw
        : reader.fail("type", "type must be a type name or an array of type names");
  for (const [index, type] of list.entries()) {
    if (typeof type !== "string" || !TYPE_NAMES.includes(type))
      reader.fail("type", unknownType(type), typeof raw === "string" ? undefined : index);
  }
  const types = [...new Set(list as string[])];
  if (isNullable(ctx.fn.module.registry.rules, ctx.schema) && !types.includes("null")) types.push("null");
  return types.includes("number") ? types.filter((type) => type !== "integer") : types;
}

/**
 * Why a `type` entry is not a type name. A null value is not the name "null": YAML reads an
 * unquoted `null` (or `~`, or nothing) as no value, so the message says to quote it.
 */
function unknownType(type: unknown): string {
  const names = TYPE_NAMES.join(", ");
  if (type === null)
    return `unknown type null: this is a null value, not the type name "null" (YAML reads an unquoted null, ~ or an empty item as no value); write the name as a string, quoted in YAML: "null". The type names are ${names}`;
  return `unknown type ${JSON.stringify(type)}; use one of ${names}`;
}

function familyOf(type: string): Family | undefined {
  if (type === "integer") return "number";
  return (FAMILIES as readonly string[]).includes(type) ? (type as Family) : undefined;
}

function compileFamily(ctx: ObjectNodeCtx, family: Family): Block {
  const block = new Block();
  if (family === "string") compileStringKeywords(ctx, block);
  else if (family === "number") compileNumberKeywords(ctx, block);
  else if (family === "object") compileObjectKeywords(ctx, block);
  else compileArrayKeywords(ctx, block);
  return block;
}

function emitGuarded(ctx: ObjectNodeCtx, blocks: ReadonlyMap<Family, Block>, out: Block): void {
  for (const [family, block] of blocks) {
    out.open(code`if (${familyGuard(family, ctx.data)})`);
    out.append(block);
    out.close();
  }
}

function emitSingle(ctx: ObjectNodeCtx, type: string, blocks: ReadonlyMap<Family, Block>, out: Block): void {
  const family = familyOf(type);
  const block = family === undefined ? undefined : blocks.get(family);
  const fail = typeFailure(ctx, [type]);
  if (block === undefined) {
    out.line(code`if (${notType(type, ctx.data)}) ${fail}`);
    return;
  }
  out.line(code`if (${notType(type, ctx.data)}) ${fail}`);
  out.open(code`else`);
  out.append(block);
  out.close();
}

function emitMultiple(
  ctx: ObjectNodeCtx,
  types: readonly string[],
  blocks: ReadonlyMap<Family, Block>,
  out: Block,
): void {
  const allowed = joinCode(
    types.map((type) => isType(type, ctx.data)),
    code` || `,
  );
  out.line(code`if (!(${allowed})) ${typeFailure(ctx, types)}`);
  emitGuarded(ctx, blocks, out);
}

function typeFailure(ctx: ObjectNodeCtx, types: readonly string[]): Code {
  return failWith(ctx, "type", params({ type: str(types.join(",")) }), messages.type(types));
}

function isType(type: string, d: Code): Code {
  switch (type) {
    case "string":
      return code`typeof ${d} === "string"`;
    case "number":
      return code`(typeof ${d} === "number" && Number.isFinite(${d}))`;
    case "integer":
      return code`Number.isInteger(${d})`;
    case "boolean":
      return code`typeof ${d} === "boolean"`;
    case "null":
      return code`${d} === null`;
    case "array":
      return code`Array.isArray(${d})`;
    default:
      return code`(typeof ${d} === "object" && ${d} !== null && !Array.isArray(${d}))`;
  }
}

/** The negated test, written so that TypeScript narrows `d` in the else branch. */
function notType(type: string, d: Code): Code {
  switch (type) {
    case "string":
      return code`typeof ${d} !== "string"`;
    case "number":
      return code`typeof ${d} !== "number" || !Number.isFinite(${d})`;
    case "integer":
      return code`typeof ${d} !== "number" || !Number.isInteger(${d})`;
    case "boolean":
      return code`typeof ${d} !== "boolean"`;
    case "null":
      return code`${d} !== null`;
    case "array":
      return code`!Array.isArray(${d})`;
    default:
      return code`typeof ${d} !== "object" || ${d} === null || Array.isArray(${d})`;
  }
}

function familyGuard(family: Family, d: Code): Code {
  switch (family) {
    case "string":
      return code`typeof ${d} === "string"`;
    case "number":
      return code`typeof ${d} === "number"`;
    case "array":
      return code`Array.isArray(${d})`;
    case "object":
      return code`typeof ${d} === "object" && ${d} !== null && !Array.isArray(${d})`;
  }
}
