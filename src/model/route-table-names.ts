import { readFileSync } from "node:fs";
import { repositoryPath } from "../repository.js";

/** The runtime module the route table re-exports whole (`export type * from "./route-types.js"`). */
export const ROUTE_TYPES_FILE = repositoryPath("runtime", "route-types.ts");

/** A top-level declaration that exports one name: `export interface Route`, `export type Validator = ...`. */
const EXPORTED_DECLARATION =
  /^export\s+(?:declare\s+)?(?:interface|type|const|let|var|function\*?|class|enum|abstract\s+class)\s+([A-Za-z_$][A-Za-z0-9_$]*)/gm;

/**
 * The names a module's text exports by declaration. The route types declare each export so (no
 * `export { ... }` list, no re-export): test/unit/src/model/names.reserved.test.ts holds the list to what the
 * TypeScript compiler sees exported.
 */
export function exportedDeclarations(text: string): string[] {
  return [...text.matchAll(EXPORTED_DECLARATION)].map((match) => match[1] as string);
}

/**
 * The names the route table's types module exports, read from the runtime's own file: routes.ts
 * re-exports them at the package root beside every schema's type, so a schema cannot take one.
 */
export function routeTypeNames(): string[] {
  return exportedDeclarations(readFileSync(ROUTE_TYPES_FILE, "utf8"));
}
