import { type Code, code, ident, joinCode, str } from "./code.js";
import type { InstancePath, NodeCtx } from "./context.js";
import { childLocation, type SchemaLocation } from "./location.js";

/** Where an error points, when not at the current node's keyword. */
export interface FailTarget {
  /** instance path of the error (default: the node's instance) */
  readonly path?: InstancePath;
  /** schema location of the keyword (default: `<node>/<keyword>`) */
  readonly at?: SchemaLocation;
}

/** `{ name: value, ... }` for error params; names are fixed by the compiler. */
export function params(entries: Readonly<Record<string, Code>>): Code {
  const fields = Object.keys(entries).map((name) => code`${ident(name)}: ${entries[name] as Code}`);
  return fields.length === 0 ? code`{}` : code`{ ${joinCode(fields, code`, `)} }`;
}

/**
 * A statement that records an error and stops (first-error mode) or continues (allErrors).
 * Without an error sink (`e === null`) nothing is built, not even the params.
 */
export function failWith(ctx: NodeCtx, keyword: string, errorParams: Code, message: Code, target: FailTarget = {}): Code {
  const module = ctx.fn.module;
  const fail = module.helper("fail");
  const path = (target.path ?? ctx.path).render(() => module.helper("escape"));
  const schemaPath = str(module.registry.schemaPath(target.at ?? childLocation(ctx.at, keyword)));
  const { okVar } = ctx.scope;
  ctx.fn.uses(true, true);
  return code`{ ${okVar} = false; if (e === null || !${fail}(e, a, ${path}, ${schemaPath}, ${str(keyword)}, ${errorParams}, ${message})) ${ctx.scope.exit()}; }`;
}

/** A statement for a failure whose errors a called function already recorded. */
export function failed(ctx: NodeCtx): Code {
  ctx.fn.uses(false, true);
  return code`{ ${ctx.scope.okVar} = false; if (!a) ${ctx.scope.exit()}; }`;
}
