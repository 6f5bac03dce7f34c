import type { ValidationError } from "../../runtime/validators/types.js";

/** A generated validator, as loaded at generation time. */
export type LoadedValidator = (value: unknown, options?: { allErrors?: boolean }) => { valid: boolean; errors?: readonly ValidationError[] };

/**
 * The validators the compiler just produced, loaded from their JavaScript (an ES module whose
 * exports are `export function name`, and `export const` for the Standard Schema objects): what
 * the mock's data is checked with, so the mock has no validator of its own.
 */
export function loadValidators(javascript: string): ReadonlyMap<string, LoadedValidator> {
  const names: string[] = [];
  const body = javascript
    .replace(/^export function ([A-Za-z_$][\w$]*)/gm, (_match, name: string) => {
      names.push(name);
      return `function ${name}`;
    })
    .replace(/^export const /gm, "const ");
  const exports = new Function(`"use strict";\n${body}\nreturn { ${names.join(", ")} };`)() as Record<string, LoadedValidator>;
  return new Map(Object.entries(exports));
}
