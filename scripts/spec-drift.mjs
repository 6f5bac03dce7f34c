/**
 * Whether `generated/` was written from the spec as it is now. The generator writes the spec it
 * read as `generated/openapi.json` (with an `x-generated` note), so the two are compared as data,
 * not by their files' times, which a checkout, a copy or an editor's save changes without changing
 * the contract. Reading the spec takes about 0.1 s, so it is read only when its file is newer than
 * generated/openapi.json (as after any edit or checkout of it). `npm start` (./run-bundled.mjs)
 * warns when they differ: the sandbox would serve the contract as it was, and `npm run generate`
 * brings it up to date.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";

/** The warning to print when `root`'s spec/openapi.yaml differs from its generated/openapi.json; undefined when they agree or either is not there. */
export function specDrift(root) {
  const specFile = join(root, "spec", "openapi.yaml");
  const generatedFile = join(root, "generated", "openapi.json");
  if (!existsSync(specFile) || !existsSync(generatedFile)) return undefined;
  if (statSync(specFile).mtimeMs <= statSync(generatedFile).mtimeMs) return undefined;
  const { parse } = createRequire(import.meta.url)("yaml");
  let spec;
  try {
    spec = parse(readFileSync(specFile, "utf8"));
  } catch (error) {
    return `warning: spec/openapi.yaml does not parse (${error.message.split("\n")[0]}), so generated/ holds the contract as it last was: fix it, then run npm run generate`;
  }
  const { "x-generated": _note, ...generated } = JSON.parse(readFileSync(generatedFile, "utf8"));
  if (isDeepStrictEqual(spec, generated)) return undefined;
  return "warning: spec/openapi.yaml has changed since generated/ was written, so this serves the contract as it was: run npm run generate, then start again";
}
