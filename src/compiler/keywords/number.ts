import { exclusiveFlag } from "../../schema/dialect.js";
import { type Block, type Code, code, num, str } from "../code/code.js";
import { type ObjectNodeCtx, readerOf } from "./context.js";
import { failWith, params } from "./fail.js";
import { NUMBER_FORMATS } from "./formats.js";
import type { KeywordReader } from "./read.js";
import { formatMessage } from "./wording.js";

/** The messages of the keywords compiled here, written at generation time (see wording.ts). */
const messages = {
  format: formatMessage,
  limit: (comparison: string, limit: number) => `must be ${comparison} ${limit}`,
  multipleOf: (value: number) => `must be a multiple of ${value}`,
} as const;

/** minimum / maximum / exclusive bounds (incl. OpenAPI 3.0 booleans), multipleOf, int32/int64. */
export function compileNumberKeywords(ctx: ObjectNodeCtx, out: Block): void {
  const reader = readerOf(ctx);
  compileBound(ctx, out, reader, "minimum", "exclusiveMinimum", ">");
  compileBound(ctx, out, reader, "maximum", "exclusiveMaximum", "<");
  compileMultipleOf(ctx, out, reader);
  compileNumberFormat(ctx, out, reader);
}

function compileBound(
  ctx: ObjectNodeCtx,
  out: Block,
  reader: KeywordReader,
  inclusive: string,
  exclusive: "exclusiveMinimum" | "exclusiveMaximum",
  side: ">" | "<",
): void {
  const flag = exclusiveFlag(ctx.fn.module.registry.rules, ctx.schema, exclusive);
  const limit = reader.number(inclusive);
  if (limit !== undefined) emitBound(ctx, out, inclusive, limit, flag === true ? side : `${side}=`);
  if (flag !== undefined) return;
  const exclusiveLimit = reader.number(exclusive);
  if (exclusiveLimit !== undefined) emitBound(ctx, out, exclusive, exclusiveLimit, side);
}

function emitBound(ctx: ObjectNodeCtx, out: Block, keyword: string, limit: number, comparison: string): void {
  const violated: Record<string, string> = { ">=": "<", ">": "<=", "<=": ">", "<": ">=" };
  const operator = violated[comparison] as string;
  const fail = failWith(
    ctx,
    keyword,
    params({ comparison: str(comparison), limit: num(limit) }),
    messages.limit(comparison, limit),
  );
  out.line(code`if (${ctx.data} ${operatorCode(operator)} ${num(limit)}) ${fail}`);
}

function operatorCode(operator: string): Code {
  switch (operator) {
    case "<":
      return code`<`;
    case "<=":
      return code`<=`;
    case ">":
      return code`>`;
    default:
      return code`>=`;
  }
}

function compileMultipleOf(ctx: ObjectNodeCtx, out: Block, reader: KeywordReader): void {
  const divisor = reader.number("multipleOf");
  if (divisor === undefined) return;
  if (divisor <= 0) reader.fail("multipleOf", `multipleOf must be greater than 0, got ${divisor}`);
  const fail = failWith(ctx, "multipleOf", params({ multipleOf: num(divisor) }), messages.multipleOf(divisor));
  const { mantissa, decimals } = decimalParts(divisor);
  const test =
    decimals === 0
      ? code`${ctx.data} % ${num(divisor)} !== 0`
      : code`!${ctx.fn.module.helper("multipleOf")}(${ctx.data}, ${num(mantissa)}, ${num(decimals)})`;
  out.line(code`if (${test}) ${fail}`);
}

/** `value` = mantissa × 10^-decimals with an integer mantissa, read from its shortest decimal form. */
export function decimalParts(value: number): { mantissa: number; decimals: number } {
  const text = String(value);
  const at = text.indexOf("e");
  const significand = at < 0 ? text : text.slice(0, at);
  const exponent = at < 0 ? 0 : Number(text.slice(at + 1));
  const dot = significand.indexOf(".");
  const decimals = (dot < 0 ? 0 : significand.length - dot - 1) - exponent;
  if (decimals <= 0) return { mantissa: value, decimals: 0 };
  return { mantissa: Number(significand.replace(".", "")), decimals };
}

function compileNumberFormat(ctx: ObjectNodeCtx, out: Block, reader: KeywordReader): void {
  const format = reader.string("format");
  if (format === undefined || ctx.fn.module.formats !== "assert" || !Object.hasOwn(NUMBER_FORMATS, format)) return;
  const bits = num((NUMBER_FORMATS[format] as { bits: number }).bits);
  const d = ctx.data;
  const fail = failWith(ctx, "format", params({ format: str(format) }), messages.format(format));
  out.line(code`if (!Number.isInteger(${d}) || ${d} > 2 ** ${bits} - 1 || ${d} < -(2 ** ${bits})) ${fail}`);
}
