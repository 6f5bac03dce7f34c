import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { repositoryPath } from "../repository.js";
import type { GeneratedFile } from "./emitter.js";

/**
 * The runtime: TypeScript modules that are the same for every spec (the client's and the server's
 * engines, the route-table types, the validators' public types). They live in runtime/ as real
 * source, typechecked and unit-tested there, and are copied into the output as they are, under the
 * same relative path. The validator helpers (validators/helpers/) are not copied as files: each
 * validator module holds the text of those it calls (compiler/code/helpers.ts).
 */
export const RUNTIME_DIR = repositoryPath("runtime");

/** The runtime's files, read once per run. */
export interface RuntimeFiles {
  /** the files under a folder of the runtime ("server/runtime"), or one file ("route-types.ts") */
  take(prefix: string, except?: readonly string[]): GeneratedFile[];
  /** the path of every runtime file */
  readonly paths: ReadonlySet<string>;
}

/** Reads every `.ts` file under `dir` (tests excluded), by its path relative to it. */
export function loadRuntimeFiles(dir: string = RUNTIME_DIR): RuntimeFiles {
  const files = readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
    .map((entry) => join(entry.parentPath, entry.name))
    .map((file) => ({ path: relative(dir, file).split(sep).join("/"), content: readFileSync(file, "utf8") }))
    .sort((a, b) => a.path.localeCompare(b.path));
  return {
    paths: new Set(files.map((file) => file.path)),
    take(prefix, except = []) {
      const matching = files.filter(
        (file) => (file.path === prefix || file.path.startsWith(`${prefix}/`)) && !except.includes(file.path),
      );
      if (matching.length === 0) throw new Error(`the runtime has no file under "${prefix}" (in ${dir})`);
      return matching;
    },
  };
}
