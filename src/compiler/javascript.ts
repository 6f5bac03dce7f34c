import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { loadTypeScript } from "../emit/typescript-once.js";
import { HELPERS } from "./runtime.js";
import { STANDARD_SCHEMA_HELPERS } from "./standard-schema.js";

/** Between two sections in the one text given to the compiler: a statement it keeps as written. */
const SEPARATOR = '"\ue004";';

/** Sections translated before in this process (the helpers are the same in every module). */
const translated = new Map<string, string>();

/**
 * The helpers' JavaScript, written beside the built module when the generator is built
 * (`writeTranslatedHelpers`), so that a run of the generator need not load the TypeScript
 * compiler to translate them. Keyed by their TypeScript: a section written since is translated.
 */
const PRECOMPUTED = new URL("./translated-helpers.json", import.meta.url);
let precomputedRead = false;

function readPrecomputed(): void {
  precomputedRead = true;
  if (PRECOMPUTED.protocol !== "file:" || !existsSync(PRECOMPUTED)) return;
  try {
    const entries = JSON.parse(readFileSync(PRECOMPUTED, "utf8")) as unknown;
    if (!Array.isArray(entries)) return;
    for (const entry of entries) if (Array.isArray(entry) && typeof entry[0] === "string" && typeof entry[1] === "string") translated.set(entry[0], entry[1]);
  } catch {
    // unreadable: the sections are translated as they come
  }
}

/** Translates every helper section and writes them beside this module (run when the generator is built). */
export function writeTranslatedHelpers(file: URL = PRECOMPUTED): number {
  const sections = [...Object.values(HELPERS).map((helper) => helper.source.toString()), STANDARD_SCHEMA_HELPERS.toString()];
  const javascript = translateSections(sections);
  writeFileSync(file, `${JSON.stringify(sections.map((section, index) => [section, javascript[index]]))}\n`);
  return sections.length;
}

/**
 * Hand-written TypeScript sections of a module (runtime helpers) as JavaScript, through the
 * TypeScript compiler's public `transpileModule`: all of them in one call, each one once per
 * process. The compiler is loaded only when JavaScript is asked for (the generator has it loaded
 * already); the schema-specific code needs no translation, its TypeScript-only syntax being
 * marked where it is built.
 */
export function translateSections(sections: readonly string[]): string[] {
  if (!precomputedRead) readPrecomputed();
  const missing = [...new Set(sections.filter((section) => !translated.has(section)))];
  if (missing.length > 0) {
    const parts = transpile(missing.join(`\n${SEPARATOR}\n`)).split(`\n${SEPARATOR}\n`);
    if (parts.length !== missing.length) throw new Error(`translating ${missing.length} TypeScript sections gave ${parts.length}: a section holds the separator`);
    for (const [index, section] of missing.entries()) translated.set(section, (parts[index] as string).trimEnd());
  }
  return sections.map((section) => translated.get(section) as string);
}

function transpile(typescript: string): string {
  const ts = loadTypeScript();
  const options = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, removeComments: false, isolatedModules: true };
  return ts.transpileModule(typescript, { compilerOptions: options }).outputText.replace(/\nexport \{\};\s*$/, "\n");
}
