import { createRequire } from "node:module";
import type * as OpenapiTypescript from "openapi-typescript";
import type * as TsMorph from "ts-morph";
import type * as TypeScript from "typescript";

const require = createRequire(import.meta.url);

/**
 * openapi-typescript, through its CommonJS build: imported as ESM, its `import ts from
 * "typescript"` makes Node scan the 9 MB compiler for named exports (about 0.2 s); required, it
 * shares the compiler loaded here.
 */
export function loadOpenapiTypescript(): typeof OpenapiTypescript {
  return require("openapi-typescript") as typeof OpenapiTypescript;
}

/** The TypeScript compiler, loaded once for the whole run (openapi-typescript uses the same one). */
export function loadTypeScript(): typeof TypeScript {
  return require("typescript") as typeof TypeScript;
}

/** ts-morph, loaded through its public entry point (it brings its own copy of the compiler). */
export function loadTsMorph(): typeof TsMorph {
  return require("ts-morph") as typeof TsMorph;
}
