import { type Block, code, num, str } from "../code/code.js";
import { childLocation } from "../registry/location.js";
import { type ObjectNodeCtx, readerOf } from "./context.js";
import { failWith, params } from "./fail.js";
import { stringFormatHelper } from "./formats.js";
import type { KeywordReader } from "./read.js";
import { count, formatMessage } from "./wording.js";

/** The messages of the keywords compiled here, written at generation time (see wording.ts). */
const messages = {
  format: formatMessage,
  maxLength: (limit: number) => `must be at most ${count(limit, "character", "characters")}`,
  minLength: (limit: number) => `must be at least ${count(limit, "character", "characters")}`,
  pattern: (pattern: string) => `must match pattern ${JSON.stringify(pattern)}`,
} as const;

/** minLength / maxLength (Unicode code points), pattern (searched, `u` flag), string formats. */
export function compileStringKeywords(ctx: ObjectNodeCtx, out: Block): void {
  const reader = readerOf(ctx);
  compileLengths(ctx, out, reader);
  compilePattern(ctx, out, reader);
  compileFormat(ctx, out, reader);
}

/**
 * Counting code points is needed only when the UTF-16 length is ambiguous: each code point is 1
 * or 2 units, so n units are between n/2 and n code points.
 */
function compileLengths(ctx: ObjectNodeCtx, out: Block, reader: KeywordReader): void {
  const d = ctx.data;
  const max = reader.count("maxLength");
  if (max !== undefined) {
    const fail = failWith(ctx, "maxLength", params({ limit: num(max) }), messages.maxLength(max));
    out.line(code`if (${ctx.fn.module.helper("tooLong")}(${d}, ${num(max)})) ${fail}`);
  }
  const min = reader.count("minLength");
  if (min === undefined || min === 0) return;
  const fail = failWith(ctx, "minLength", params({ limit: num(min) }), messages.minLength(min));
  const test =
    min === 1
      ? code`${d}.length === 0`
      : code`${d}.length < ${num(min * 2)} && (${d}.length < ${num(min)} || ${ctx.fn.module.helper("cpLen")}(${d}) < ${num(min)})`;
  out.line(code`if (${test}) ${fail}`);
}

function compilePattern(ctx: ObjectNodeCtx, out: Block, reader: KeywordReader): void {
  const pattern = reader.string("pattern");
  if (pattern === undefined) return;
  const regex = ctx.fn.module.regex(pattern, childLocation(ctx.at, "pattern"));
  const fail = failWith(ctx, "pattern", params({ pattern: str(pattern) }), messages.pattern(pattern));
  out.line(code`if (!${regex}.test(${ctx.data})) ${fail}`);
}

function compileFormat(ctx: ObjectNodeCtx, out: Block, reader: KeywordReader): void {
  const format = reader.string("format");
  const module = ctx.fn.module;
  const helper = format === undefined || module.formats !== "assert" ? undefined : stringFormatHelper(format);
  if (format === undefined || helper === undefined) return;
  const fail = failWith(ctx, "format", params({ format: str(format) }), messages.format(format));
  out.line(code`if (!${module.helper(helper)}(${ctx.data})) ${fail}`);
}
