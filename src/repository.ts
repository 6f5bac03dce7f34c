import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Where the repository's own folders are, for the generator's modules that read files that are not
 * their code (the runtime's text, the templates). The root is the nearest folder above this module
 * that holds package.json: run as TypeScript this module is src/repository.ts, built it is
 * lib/src/repository.js, so no fixed number of "../" would do for both.
 */
export const REPOSITORY_ROOT = rootAbove(dirname(fileURLToPath(import.meta.url)));

/** A path of the repository, from its root ("runtime", "validators/types.ts"). */
export function repositoryPath(...segments: string[]): string {
  return join(REPOSITORY_ROOT, ...segments);
}

/** The nearest folder at or above `folder` that holds package.json. */
function rootAbove(folder: string): string {
  for (let at = folder; ; at = dirname(at)) {
    if (existsSync(join(at, "package.json"))) return at;
    if (dirname(at) === at)
      throw new Error(`no package.json in ${folder} or any folder above it: the generator runs from its repository`);
  }
}
