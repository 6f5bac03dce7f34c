import * as helpers from "../../runtime/validators/helpers/index.js";
import type { ValidationError } from "../../runtime/validators/types.js";

/** A generated validator, as loaded at generation time. */
export type LoadedValidator = (
  value: unknown,
  options?: { allErrors?: boolean },
) => { valid: boolean; errors?: readonly ValidationError[] };

/** The helpers generated code calls ("$"-named), as the compiler's JavaScript expects them bound. */
const HELPERS = Object.entries(helpers).filter(([name]) => name.startsWith("$"));

/**
 * The validators the compiler just produced, loaded from their JavaScript (a module body whose
 * exports are `export function name`, and `export const` for the Standard Schema objects) with
 * the runtime's helper functions bound to the names it calls them by: what the mock's data is
 * checked with, so the mock has no validator of its own.
 */
export function loadValidators(javascript: string): ReadonlyMap<string, LoadedValidator> {
  const names: string[] = [];
  const body = javascript
    .replace(/^export function ([A-Za-z_$][\w$]*)/gm, (_match, name: string) => {
      names.push(name);
      return `function ${name}`;
    })
    .replace(/^export const /gm, "const ");
  const load = new Function(
    ...HELPERS.map(([name]) => name),
    `"use strict";\n${body}\nreturn { ${names.join(", ")} };`,
  );
  const exports = load(...HELPERS.map(([, value]) => value)) as Record<string, LoadedValidator>;
  return new Map(Object.entries(exports));
}
