import { isRecord } from "../../json-value.js";
import { type Block, code } from "../code/code.js";
import { childLocation, type SchemaLocation } from "../registry/location.js";
import { fragmentPointer, resolveUri, splitFragment } from "../registry/uri.js";
import type { NodeCtx, ObjectNodeCtx } from "./context.js";
import { failed } from "./fail.js";

/** `$ref` and `$dynamicRef`: a call to the target's function. */
export function compileRef(ctx: ObjectNodeCtx, out: Block): void {
  for (const keyword of ["$ref", "$dynamicRef"]) {
    const ref = ctx.schema[keyword];
    if (typeof ref !== "string") continue;
    const target = ctx.fn.module.registry.resolveRef(ref, ctx.inner, childLocation(ctx.at, keyword));
    emitCall(ctx, out, keyword === "$dynamicRef" ? dynamicTarget(ctx, ref, target) : target);
  }
}

/**
 * Where a `$dynamicRef` leads: when its first target declares the `$dynamicAnchor` its fragment
 * names, the outermost resource in the dynamic scope binding that name; otherwise (a pointer, an
 * `$anchor`, no matching `$dynamicAnchor`) the first target, as for `$ref`.
 */
function dynamicTarget(ctx: ObjectNodeCtx, ref: string, initial: SchemaLocation): SchemaLocation {
  const registry = ctx.fn.module.registry;
  const fragment = splitFragment(resolveUri(ref, ctx.inner) ?? ref)[1];
  if (fragment === "" || fragmentPointer(fragment) !== undefined) return initial;
  const schema = registry.schemaAt(initial);
  if (!isRecord(schema) || schema["$dynamicAnchor"] !== fragment) return initial;
  return ctx.dynamic.lookup(fragment) ?? initial;
}

/** Calls the function for `target` on the node's data; errors get the node's path prepended. */
export function emitCall(ctx: NodeCtx, out: Block, target: SchemaLocation): void {
  const module = ctx.fn.module;
  const name = module.request(target, ctx.direction, ctx.evaluated !== null, ctx.dynamic);
  ctx.fn.uses(true, true);
  const call =
    ctx.evaluated === null
      ? code`${name}(${ctx.data}, e, a, depth + 1)`
      : code`${name}(${ctx.data}, e, a, depth + 1, ${ctx.evaluated})`;
  if (ctx.path.isRoot) {
    out.line(code`if (!${call}) ${failed(ctx)}`);
    return;
  }
  const start = ctx.fn.fresh("s");
  const path = ctx.path.render(() => module.helper("escape"));
  out.line(code`const ${start} = ${module.helper("mark")}(e);`);
  out.line(code`if (!${call}) { ${module.helper("prefix")}(e, ${start}, ${path}); ${failed(ctx)} }`);
}
