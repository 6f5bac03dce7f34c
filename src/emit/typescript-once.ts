import { closeSync, openSync, readSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, join } from "node:path";
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

/**
 * ts-morph on the same TypeScript instance as openapi-typescript. ts-morph ships its own copy of
 * the compiler (9 MB of JavaScript); loading both costs about 0.35 s and 100 MB per run. When the
 * two copies have the same major.minor version, the copy ts-morph would load is answered from the
 * module cache with the compiler already in memory.
 */
export function loadTsMorph(): typeof TsMorph {
  const ts = loadTypeScript();
  const bundled = join(dirname(require.resolve("@ts-morph/common")), "typescript.js");
  if (require.cache[bundled] === undefined && bundledVersion(bundled) === ts.versionMajorMinor) {
    const shared = new Module(bundled);
    shared.filename = bundled;
    shared.loaded = true;
    shared.exports = ts;
    require.cache[bundled] = shared;
  }
  return require("ts-morph") as typeof TsMorph;
}

/** Reads `versionMajorMinor = "5.9"` from the bundled compiler without loading it. */
function bundledVersion(file: string): string | undefined {
  const head = Buffer.alloc(200_000);
  let descriptor: number | undefined;
  try {
    descriptor = openSync(file, "r");
    const read = readSync(descriptor, head, 0, head.length, 0);
    return /versionMajorMinor = "(\d+\.\d+)"/.exec(head.toString("utf8", 0, read))?.[1];
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}
