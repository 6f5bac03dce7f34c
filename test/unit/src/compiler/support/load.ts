import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { loadValidators } from "../../../../../src/mock/validators.js";
import { TEMP_ROOT_VARIABLE } from "../../../../support/paths.js";
import { stripTypes } from "./strip-types.js";

/** The shape every generated validator function has. */
export type Validate = (
  value: unknown,
  options?: { allErrors?: boolean },
) => {
  valid: boolean;
  value?: unknown;
  errors?: {
    instancePath: string;
    schemaPath: string;
    keyword: string;
    params: Record<string, unknown>;
    message: string;
  }[];
};

// in the run's folder of temporary folders, which the run removes (a worker that is ended rather
// than exits does not remove it itself)
const directory = mkdtempSync(join(process.env[TEMP_ROOT_VARIABLE] || tmpdir(), "compiler-test-modules-"));
const cleanUp = (): void => rmSync(directory, { recursive: true, force: true });
afterAll(cleanUp);
process.on("exit", cleanUp);
let counter = 0;

const load = createRequire(import.meta.url);

/**
 * Strips the types of generated TypeScript and loads it from a temporary file. It is loaded
 * through Node's own `require` (Node 20 loads an ES module that way only as CommonJS, so the
 * `export` keywords are rewritten to `exports.` assignments), which keeps large generated
 * modules out of the test runner's transform pipeline.
 */
export async function loadModule(source: string): Promise<Record<string, unknown>> {
  const js = toCommonJs(stripTypes(source));
  mkdirSync(directory, { recursive: true });
  const file = join(directory, `module-${process.pid}-${counter++}.cjs`);
  writeFileSync(file, js);
  return Promise.resolve(load(file) as Record<string, unknown>);
}

/**
 * Loads the compiler's JavaScript output (no types to strip, so large modules load quickly) as the
 * generator does, with the runtime's helpers bound; the JavaScript output agrees with the
 * TypeScript one (test/unit/src/compiler/index.javascript.test.ts).
 */
export function loadJavaScript(js: string): Record<string, unknown> {
  return Object.fromEntries(loadValidators(js));
}

/** Generated modules export only `export function name`, `export const name` and `export default name;` at line starts. */
function toCommonJs(js: string): string {
  const names: string[] = [];
  const body = js
    .replace(/^export (function|const) ([A-Za-z_$][\w$]*)/gm, (_match, kind: string, name: string) => {
      names.push(name);
      return `${kind} ${name}`;
    })
    .replace(/^export default ([A-Za-z_$][\w$]*);$/gm, (_match, name: string) => `exports.default = ${name};`);
  return `${body}\n${names.map((name) => `exports.${name} = ${name};`).join("\n")}\n`;
}
/** A named export of a loaded module, as a validator. */
export function validatorOf(module: Record<string, unknown>, name: string): Validate {
  const value = module[name];
  if (typeof value !== "function") throw new Error(`module has no function ${name}`);
  return value as Validate;
}
