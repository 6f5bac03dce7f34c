import { type Code, code, ident, isLiteral, joinCode, str } from "../code/code.js";
import { childLocation, type SchemaLocation } from "../registry/location.js";
import type { InstancePath, NodeCtx } from "./context.js";

/** Where an error points, when not at the current node's keyword. */
export interface FailTarget {
  /** instance path of the error (default: the node's instance) */
  readonly path?: InstancePath;
  /** schema location of the keyword (default: `<node>/<keyword>`) */
  readonly at?: SchemaLocation;
}

/**
 * Params objects whose every value is a literal. Each is written where its error is reported (a
 * module-level constant per object would be a name and a declaration more in every page that
 * bundles the validator: written in place, gzip finds the repeated ones), and is built only when
 * a check fails.
 */
const CONSTANT_PARAMS = new WeakSet<Code>();

/** `{ name: value, ... }` for error params; names are fixed by the compiler. */
export function params(entries: Readonly<Record<string, Code>>): Code {
  const values = Object.values(entries);
  const fields = Object.keys(entries).map((name) => code`${ident(name)}: ${entries[name] as Code}`);
  const result = fields.length === 0 ? code`{}` : code`{ ${joinCode(fields, code`, `)} }`;
  if (values.every(isLiteral)) CONSTANT_PARAMS.add(result);
  return result;
}

/**
 * A statement that records an error and stops (first-error mode) or continues (allErrors).
 * Without an error sink (`e === null`) nothing is built but literal params: where the path, the
 * params or the message would be built at run time, the sink is tested before they are; where
 * all of them are literals, `$fail` tests it (the check has failed: its params object is built). The message is stored with the instance path in front
 * ("/name must be ..."), which `$fail` puts there when it records the error (the site gives the
 * message alone: a page's validator then holds each path once, not twice); `$prefix` puts a
 * caller's path in front of both.
 */
export function failWith(
  ctx: NodeCtx,
  keyword: string,
  errorParams: Code,
  message: string | Code,
  target: FailTarget = {},
): Code {
  const module = ctx.fn.module;
  const fail = module.helper("fail");
  const instancePath = target.path ?? ctx.path;
  const path = instancePath.render(() => module.helper("escape"));
  const schemaPath = ctx.fn.schemaPathCode(module.registry.schemaPath(target.at ?? childLocation(ctx.at, keyword)));
  const { okVar } = ctx.scope;
  ctx.fn.uses(true, true);
  const text = typeof message === "string" ? str(message) : message;
  const constant = instancePath.isStatic && typeof message === "string" && CONSTANT_PARAMS.has(errorParams);
  const rest = schemaPath.rest === undefined ? code`` : code`, ${restCode(schemaPath.rest, instancePath, keyword)}`;
  const call = code`${fail}(e, a, ${str(keyword)}, ${errorParams}, ${text}, ${path}, ${schemaPath.path}${rest})`;
  return constant
    ? code`{ ${okVar} = false; if (!${call}) ${ctx.scope.exit()}; }`
    : code`{ ${okVar} = false; if (e === null || !${call}) ${ctx.scope.exit()}; }`;
}

/**
 * The rest of an error's schema path after its function's own: `1` where it is the keyword of the
 * declared property the instance path names ("/properties/name/type" for "/name"), which `$fail`
 * writes from the two (each property's name is then in the validator once less); else the text.
 */
function restCode(rest: Code, instancePath: InstancePath, keyword: string): Code {
  const text = instancePath.staticText;
  const derived = text !== undefined && text.lastIndexOf("/") === 0 ? str(`/properties${text}/${keyword}`) : undefined;
  return derived !== undefined && derived.toString() === rest.toString() ? code`1` : rest;
}

/** A statement for a failure whose errors a called function already recorded. */
export function failed(ctx: NodeCtx): Code {
  ctx.fn.uses(false, true);
  return code`{ ${ctx.scope.okVar} = false; if (!a) ${ctx.scope.exit()}; }`;
}
