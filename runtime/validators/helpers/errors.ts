/**
 * Collecting errors: a validator receives an error sink (the result object, or null when only the
 * verdict is wanted), pushes errors with paths relative to its own data (the message starts with
 * that path), and the caller prefixes the path of the child it validated, in both, when the call
 * fails.
 */
import type { ValidationError } from "../types.js";
import type { $Errors, $Sink } from "./module.js";

/**
 * Records an error. The message is given without the instance path, which is put in front here
 * (and a space); the schema path may come in two parts, the validator function's own and the
 * rest, joined here (so that nothing is built without a sink); a rest of `1` is the keyword of
 * the declared property the instance path names ("/properties/name/type" for "/name").
 */
export function $fail(e: $Errors, a: boolean, keyword: string, params: Readonly<Record<string, unknown>>, message: string, instancePath: string, schemaPath: string, schemaRest?: string | 1): boolean {
  if (e === null) return false;
  const rest = schemaRest === 1 ? "/properties" + instancePath + "/" + keyword : schemaRest;
  const error: ValidationError = {
    instancePath,
    schemaPath: rest === undefined ? schemaPath : schemaPath + rest,
    keyword,
    params,
    message: instancePath === "" ? message : instancePath + " " + message,
  };
  if (e.errors === undefined) e.errors = [error];
  else e.errors.push(error);
  return a;
}

export function $mark(e: $Errors): number {
  return e?.errors?.length ?? 0;
}

export function $prefix(e: $Errors, n: number, path: string): void {
  for (const x of e?.errors?.slice(n) ?? []) {
    x.message = (x.instancePath === "" ? path + " " : path) + x.message;
    x.instancePath = path + x.instancePath;
  }
}

export function $escape(key: string | number): string {
  const s = String(key);
  return s.indexOf("~") < 0 && s.indexOf("/") < 0 ? s : s.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** How deep the functions of a schema that may recur call each other (each checks it first). */
export const $MAX_DEPTH = 1000;

export function $deep(e: $Errors, schemaPath: string): boolean {
  if (e !== null) $fail(e, false, "maxDepth", { limit: $MAX_DEPTH }, "must not be nested more than " + $MAX_DEPTH + " levels deep", "", schemaPath);
  return false;
}

export function $invalid(r: $Sink): { valid: false; errors: ValidationError[] } {
  r.valid = false;
  r.value = undefined;
  r.errors ??= [];
  return r as { valid: false; errors: ValidationError[] };
}
