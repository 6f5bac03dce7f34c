/**
 * Standard Schema v1 (https://standardschema.dev) for a generated module: `schemas`, one object
 * per requested key, made by the runtime's `$standard` (validators/helpers/standard-schema.ts)
 * from the entry's validate function. The validate functions are left exactly as they are.
 */

import { type Code, code, ident, isIdentifier, joinCode, NEWLINE, sourceText, str, tsOnly } from "../code/code.js";
import type { ValidatorEntry } from "./entries.js";

/**
 * The `schemas` section, or undefined when no entry asks for a Standard Schema; `helpers` is the
 * text of the runtime's validators/helpers/standard-schema.ts (its interface and `$standard`).
 */
export function emitStandardSchemas(entries: readonly ValidatorEntry[], helpers: string): Code | undefined {
  const members = schemaMembers(entries);
  if (members.length === 0) return undefined;
  const body = joinCode(members, NEWLINE);
  return code`${tsOnly`${sourceText(helpers)}

`}/**
 * Every validator as a Standard Schema v1 object, for libraries that accept one: components by
 * name (schemas.Venue), operation parts by their type's name (schemas.CreateVenueBody). Their
 * validate collects every error; it never throws.
 */
export const schemas = {
${body}
}${tsOnly` as const`};`;
}

/**
 * One `key: $standard(validateX),` line per key, each key once. The calls are marked pure, so a
 * bundler drops the object, and the validators only it names, when a page does not use it.
 */
function schemaMembers(entries: readonly ValidatorEntry[]): Code[] {
  const seen = new Set<string>();
  const members: Code[] = [];
  for (const entry of entries) {
    for (const key of entry.standardSchemaKeys ?? []) {
      if (seen.has(key)) throw new TypeError(`Standard Schema key ${JSON.stringify(key)} is used twice`);
      seen.add(key);
      members.push(
        code`  ${isIdentifier(key) ? ident(key) : str(key)}: /* @__PURE__ */ $standard(${ident(entry.name)}),`,
      );
    }
  }
  return members;
}
