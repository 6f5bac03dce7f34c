import { isRecord } from "../../json-value.js";
import { isNullable, ownKeywordsApply } from "../../schema/dialect.js";
import { type Block, code } from "../code/code.js";
import { SchemaCompileError } from "../registry/errors.js";
import { compileComposition } from "./compose.js";
import { type NodeCtx, objectNode } from "./context.js";
import { compileForbidden } from "./direction.js";
import { failWith, params } from "./fail.js";
import { describe } from "./read.js";
import { compileRef } from "./ref.js";
import { compileTyped } from "./typed.js";
import { closeTracking, openTracking } from "./unevaluated.js";
import { compileValues } from "./values.js";

/** The messages of the keywords compiled here, written at generation time (see wording.ts). */
const messages = {
  falseSchema: "is not allowed here (the schema is false)",
} as const;

/**
 * Emits the checks of one schema node against `ctx.data`. Order: forbidden direction,
 * `$ref`, type and type-specific keywords, enum/const, applicators, unevaluated*.
 */
export function compileNode(ctx: NodeCtx, out: Block): void {
  const { schema } = ctx;
  if (schema === true) return;
  if (schema === false) {
    out.line(failWith(ctx, "false", params({}), messages.falseSchema, { at: ctx.at }));
    return;
  }
  if (!isRecord(schema)) {
    const pointer = ctx.fn.module.registry.pointer(ctx.at);
    throw new SchemaCompileError(pointer, `a schema must be an object or a boolean, got ${describe(schema)}`);
  }
  const node = objectNode(ctx, schema);
  if (compileForbidden(node, out)) return;
  const { rules } = ctx.fn.module.registry;
  const nullable = isNullable(rules, schema);
  if (nullable) out.open(code`if (${ctx.data} !== null)`);
  const tracking = openTracking(node, out);
  compileRef(tracking.ctx, out);
  if (ownKeywordsApply(rules, schema)) {
    compileTyped(tracking.ctx, out);
    compileValues(tracking.ctx, out);
    compileComposition(tracking.ctx, out);
  }
  closeTracking(node, tracking, out);
  if (nullable) out.close();
}
