import { type Block, type Code, code, joinCode, json } from "../code/code.js";
import { type ObjectNodeCtx, readerOf } from "./context.js";
import { failWith, params } from "./fail.js";
import { listValues } from "./wording.js";

/** The messages of the keywords compiled here, written at generation time (see wording.ts). */
const messages = {
  const: (value: unknown) => `must be equal to constant ${listValues([value])}`,
  enum: (values: readonly unknown[]) => `must be equal to one of: ${listValues(values)}`,
} as const;

const MAX_INLINE_VALUES = 8;

/** enum and const, by deep JSON equality. */
export function compileValues(ctx: ObjectNodeCtx, out: Block): void {
  const reader = readerOf(ctx);
  if (reader.has("enum")) {
    const values = ctx.schema["enum"];
    if (!Array.isArray(values)) return reader.fail("enum", "enum must be an array of allowed values");
    const fail = failWith(ctx, "enum", params({ allowedValues: valueCode(ctx, values) }), messages.enum(values));
    out.line(code`if (!(${matchesAny(ctx, values)})) ${fail}`);
  }
  if (reader.has("const")) {
    const value = ctx.schema["const"];
    const fail = failWith(ctx, "const", params({ allowedValue: valueCode(ctx, value) }), messages.const(value));
    out.line(code`if (!(${equals(ctx, value)})) ${fail}`);
  }
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value !== "object";
}

function matchesAny(ctx: ObjectNodeCtx, values: readonly unknown[]): Code {
  if (values.length === 0) return code`false`;
  const primitives = values.filter(isPrimitive);
  const tests: Code[] = [];
  if (primitives.length > MAX_INLINE_VALUES) {
    const set = ctx.fn.module.constant(
      `set:${JSON.stringify(primitives)}`,
      "set",
      code`${ctx.fn.module.helper("setOf")}([${joinCode(primitives.map(json), code`, `)}])`,
    );
    tests.push(code`${set}.has(${ctx.data})`);
  } else {
    tests.push(...primitives.map((value) => code`${ctx.data} === ${json(value)}`));
  }
  tests.push(...values.filter((value) => !isPrimitive(value)).map((value) => equals(ctx, value)));
  return joinCode(tests, code` || `);
}

function equals(ctx: ObjectNodeCtx, value: unknown): Code {
  if (isPrimitive(value)) return code`${ctx.data} === ${json(value)}`;
  return code`${ctx.fn.module.helper("equal")}(${ctx.data}, ${valueCode(ctx, value)})`;
}

/** A schema value as an expression; objects and arrays are hoisted constants. */
function valueCode(ctx: ObjectNodeCtx, value: unknown): Code {
  if (isPrimitive(value)) return json(value);
  return ctx.fn.module.jsonConstant("value", value);
}
