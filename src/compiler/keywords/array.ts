import { Block, type Code, code, num, tsOnly } from "../code/code.js";
import { compileBranch } from "./branch.js";
import { childChecks, readsData } from "./child.js";
import { type ObjectNodeCtx, onChild, readerOf } from "./context.js";
import { failWith, params } from "./fail.js";
import type { KeywordReader } from "./read.js";
import { count } from "./wording.js";

/** The messages of the keywords compiled here, written at generation time (see wording.ts). */
const messages = {
  contains: (min: number) => `must contain at least ${count(min, "item", "items")} matching the "contains" schema`,
  maxContains: (max: number) => `must contain at most ${count(max, "item", "items")} matching the "contains" schema`,
  maxItems: (limit: number) => `must have at most ${count(limit, "item", "items")}`,
  minItems: (limit: number) => `must have at least ${count(limit, "item", "items")}`,
} as const;

/** The messages whose wording needs values known only at run time. */
const runtimeMessages = {
  uniqueItems: (pair: Code) =>
    code`"must not have duplicate items (items " + ${pair}[0] + " and " + ${pair}[1] + " are equal)"`,
} as const;

/** minItems, maxItems, prefixItems, items, contains (+min/maxContains), uniqueItems. */
export function compileArrayKeywords(ctx: ObjectNodeCtx, out: Block): void {
  const reader = readerOf(ctx);
  if (Array.isArray(ctx.schema["items"])) {
    reader.fail(
      "items",
      "items must be a single schema in JSON Schema 2020-12; use prefixItems for per-position schemas",
    );
  }
  const checks = new Block();
  const arr = ctx.fn.fresh("arr");
  compileLimits(ctx, checks, arr, reader);
  const prefix = compilePrefixItems(ctx, checks, arr, reader);
  compileItems(ctx, checks, arr, prefix, reader);
  compileContains(ctx, checks, arr, reader);
  if (reader.boolean("uniqueItems") === true) compileUnique(ctx, checks, arr);
  if (checks.empty) return;
  out.line(code`const ${arr} = ${ctx.data}${tsOnly` as unknown[]`};`);
  out.append(checks);
}

function compileLimits(ctx: ObjectNodeCtx, out: Block, arr: Code, reader: KeywordReader): void {
  const min = reader.count("minItems");
  if (min !== undefined && min > 0) {
    const fail = failWith(ctx, "minItems", params({ limit: num(min) }), messages.minItems(min));
    out.line(code`if (${arr}.length < ${num(min)}) ${fail}`);
  }
  const max = reader.count("maxItems");
  if (max !== undefined) {
    const fail = failWith(ctx, "maxItems", params({ limit: num(max) }), messages.maxItems(max));
    out.line(code`if (${arr}.length > ${num(max)}) ${fail}`);
  }
}

function compilePrefixItems(ctx: ObjectNodeCtx, out: Block, arr: Code, reader: KeywordReader): number {
  const schemas = reader.schemaArray("prefixItems");
  if (schemas === undefined) return 0;
  schemas.forEach((_, index) => {
    const checks = childChecks(ctx, ["prefixItems", index], ctx.path.child(index), code`${arr}[${num(index)}]`);
    if (checks.empty) return;
    out.open(code`if (${arr}.length > ${num(index)})`);
    out.append(checks);
    out.close();
  });
  if (ctx.evaluated !== null) {
    out.line(code`${ctx.evaluated}.n = Math.max(${ctx.evaluated}.n, Math.min(${arr}.length, ${num(schemas.length)}));`);
  }
  return schemas.length;
}

function compileItems(ctx: ObjectNodeCtx, out: Block, arr: Code, prefix: number, reader: KeywordReader): void {
  const items = reader.schemaValue("items");
  if (items === undefined) return;
  if (ctx.evaluated !== null) out.line(code`${ctx.evaluated}.all = true;`);
  if (items === false) {
    const fail = failWith(ctx, "items", params({ limit: num(prefix) }), messages.maxItems(prefix));
    out.line(code`if (${arr}.length > ${num(prefix)}) ${fail}`);
    return;
  }
  const i = ctx.fn.fresh("i");
  const checks = childChecks(ctx, ["items"], ctx.path.dynamic("index", i), code`${arr}[${i}]`);
  if (checks.empty) return;
  out.open(code`for (let ${i} = ${num(prefix)}; ${i} < ${arr}.length; ${i}++)`);
  out.append(checks);
  out.close();
}

function compileContains(ctx: ObjectNodeCtx, out: Block, arr: Code, reader: KeywordReader): void {
  if (reader.schemaValue("contains") === undefined) return;
  const min = reader.count("minContains") ?? 1;
  const max = reader.count("maxContains");
  if (min === 0 && max === undefined && ctx.evaluated === null) return;
  const count = ctx.fn.fresh("c");
  out.line(code`let ${count} = 0;`);
  emitContainsLoop(ctx, out, arr, count, max === undefined ? min : undefined);
  if (min > 0) {
    const fail = failWith(ctx, "contains", params({ minContains: num(min) }), messages.contains(min));
    out.line(code`if (${count} < ${num(min)}) ${fail}`);
  }
  if (max !== undefined) {
    const fail = failWith(ctx, "maxContains", params({ maxContains: num(max) }), messages.maxContains(max));
    out.line(code`if (${count} > ${num(max)}) ${fail}`);
  }
}

/** Counts matching items; stops at `stopAt` matches unless every match must be recorded. */
function emitContainsLoop(ctx: ObjectNodeCtx, out: Block, arr: Code, count: Code, stopAt: number | undefined): void {
  const i = ctx.fn.fresh("i");
  const value = ctx.fn.fresh("v");
  out.open(code`for (let ${i} = 0; ${i} < ${arr}.length; ${i}++)`);
  if (readsData(ctx.schema["contains"], ctx.direction)) out.line(code`const ${value} = ${arr}[${i}];`);
  const ok = compileBranch(onChild(ctx, ["contains"], value, ctx.path.dynamic("index", i)), out, true);
  out.open(code`if (${ok})`);
  out.line(code`${count}++;`);
  if (ctx.evaluated !== null) out.line(code`${ctx.evaluated}.k.add(${i});`);
  else if (stopAt !== undefined) out.line(code`if (${count} >= ${num(stopAt)}) break;`);
  out.close();
  out.close();
}

function compileUnique(ctx: ObjectNodeCtx, out: Block, arr: Code): void {
  const dup = ctx.fn.fresh("u");
  out.line(code`const ${dup} = ${ctx.fn.module.helper("duplicate")}(${arr});`);
  const errorParams = params({ i: code`${dup}[0]`, j: code`${dup}[1]` });
  out.line(code`if (${dup} !== null) ${failWith(ctx, "uniqueItems", errorParams, runtimeMessages.uniqueItems(dup))}`);
}
