import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";
import type * as OpenapiTypescript from "openapi-typescript";
import type * as TypeScript from "typescript";

const require = createRequire(import.meta.url);

/** The parts of openapi-typescript the types emitter uses. */
export type OpenapiTypescriptParts = Pick<
  typeof OpenapiTypescript,
  "astToString" | "transformSchema" | "resolveRef" | "scanDiscriminators"
>;

/**
 * openapi-typescript, through its CommonJS build: imported as ESM, its `import ts from
 * "typescript"` makes Node scan the 9 MB compiler for named exports (about 0.2 s). Its entry
 * point also loads the whole of Redocly's openapi-core for `openapiTS()`'s bundling and lint, which
 * the types emitter does not use (about 0.25 s more), so the four functions it does use are taken
 * from the modules that define them, which the package exports (`./*`); should a later version
 * move them, the entry point is used instead.
 */
export function loadOpenapiTypescript(): OpenapiTypescriptParts {
  try {
    const transformSchema = require("openapi-typescript/dist/transform/index.cjs") as unknown;
    const { astToString } = require("openapi-typescript/dist/lib/ts.cjs") as Partial<OpenapiTypescriptParts>;
    const { resolveRef, scanDiscriminators } =
      require("openapi-typescript/dist/lib/utils.cjs") as Partial<OpenapiTypescriptParts>;
    const parts = { transformSchema, astToString, resolveRef, scanDiscriminators };
    if (Object.values(parts).every((part) => typeof part === "function")) return parts as OpenapiTypescriptParts;
  } catch {
    // a layout this version does not have: the entry point below
  }
  return require("openapi-typescript") as typeof OpenapiTypescript;
}

let compiler: typeof TypeScript | undefined;

/**
 * The TypeScript compiler for the generator's own use (the syntax gate of `--templates` output),
 * loaded once per thread with V8's code cache: compiling the 9 MB compiler takes
 * about 0.25 s, reading it from the cache about a fifth of that. The cache lives in
 * node_modules/.cache/, per TypeScript and Node version; V8 refuses a cache that does not fit
 * (the compiler is then compiled as usual and the cache written again), and a cache that cannot
 * be written is only a slower start. This is a private instance: openapi-typescript loads its own
 * through `require`, as usual.
 */
export function loadTypeScript(): typeof TypeScript {
  if (compiler === undefined) {
    const { version } = require("typescript/package.json") as { version: string };
    const cacheDir = join(
      dirname(require.resolve("typescript/package.json")),
      "..",
      ".cache",
      "workforce-scheduling-api",
    );
    compiler = loadWithCodeCache(
      require.resolve("typescript"),
      join(cacheDir, `typescript-${version}-node-${process.version}-${process.arch}.v8`),
    );
  }
  return compiler;
}

/** Runs the CommonJS module `file` (the compiler) with V8's code cache kept in `cacheFile`. */
export function loadWithCodeCache(file: string, cacheFile: string): typeof TypeScript {
  const cached = readOrUndefined(cacheFile);
  // the CommonJS module wrapper, as Node's own loader writes it
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${readFileSync(file, "utf8")}\n});`;
  const script = new Script(wrapped, { filename: file, ...(cached === undefined ? {} : { cachedData: cached }) });
  const module = { exports: {} as typeof TypeScript };
  (script.runInThisContext() as (...args: unknown[]) => void).call(
    module.exports,
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
  );
  const ts = module.exports;
  if (cached === undefined || script.cachedDataRejected === true) {
    // what the generator runs is compiled first, so the cache holds it too
    ts.transpileModule(ts.createSourceFile("warm.ts", "export const a: number = 1;", ts.ScriptTarget.Latest).text, {
      compilerOptions: {},
    });
    writeQuietly(cacheFile, script.createCachedData());
  }
  return ts;
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function writeQuietly(file: string, data: Buffer): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, data);
    renameSync(partial, file);
  } catch {
    // a read-only install: every run compiles the compiler
  }
}
