import { loadTypeScript } from "../emit/typescript-once.js";

/** Between two sections in the one text given to the compiler: a statement it keeps as written. */
const SEPARATOR = '"\ue004";';

/** Sections translated before in this process (the helpers are the same in every module). */
const translated = new Map<string, string>();

/**
 * Hand-written TypeScript sections of a module (runtime helpers) as JavaScript, through the
 * TypeScript compiler's public `transpileModule`: all of them in one call, each one once per
 * process. The compiler is loaded only when JavaScript is asked for (the generator has it loaded
 * already); the schema-specific code needs no translation, its TypeScript-only syntax being
 * marked where it is built.
 */
export function translateSections(sections: readonly string[]): string[] {
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
