import { readFileSync } from "node:fs";
import { repositoryPath } from "../../repository.js";

/** The public types of a validator module, as the runtime declares them (the one source). */
const SOURCE = repositoryPath("runtime", "validators", "types.ts");

/** The names `PUBLIC_TYPES` declares, which a module importing them re-exports. */
export const PUBLIC_TYPE_NAMES = ["ValidateOptions", "ValidationError", "ValidationResult"] as const;

/** How a module gets the public types: declared in it, or imported from a module (and re-exported). */
export type PublicTypes = "inline" | { readonly from: string };

/** The declarations of ValidationError, ValidateOptions and ValidationResult, read once per call site. */
export function publicTypesSource(): string {
  return readFileSync(SOURCE, "utf8").trimEnd();
}
