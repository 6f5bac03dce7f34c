import { createRequire } from "node:module";
import type * as TypeScript from "typescript";

const require = createRequire(import.meta.url);

/**
 * A hand-written TypeScript section of a module (a runtime helper) as JavaScript, through the
 * TypeScript compiler's public `transpileModule`. The compiler is loaded only when JavaScript is
 * asked for (the generator has it loaded already); the schema-specific code needs no translation,
 * its TypeScript-only syntax being marked where it is built.
 */
export function translateSection(typescript: string): string {
  const ts = require("typescript") as typeof TypeScript;
  const options = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, removeComments: false, isolatedModules: true };
  return ts
    .transpileModule(typescript, { compilerOptions: options })
    .outputText.replace(/\nexport \{\};\s*$/, "\n")
    .trimEnd();
}
