import { createDiagnostic, type Diagnostic, GenerationFailed } from "../diagnostics/diagnostic.js";
import type { GeneratedFile } from "../emit/emitter.js";
import { loadTypeScript } from "../emit/typescript-once.js";
import { headerLines } from "./header.js";

/**
 * Files whose code is built through a printer (openapi-typescript and the alias printer for the
 * types, the code builder of the schema compiler for the validators, the literal printer for the
 * JSON Schemas), and so is syntactically valid by construction; the syntax gate is for what
 * templates render.
 */
const PRINTED = new Set(["types.ts", "validators/index.ts", "json-schemas.ts"]);

/**
 * The one finalize pass: the header on every TypeScript file, one whitespace normalisation
 * (LF line ends, no trailing blanks, at most one blank line in a row, one final newline), and a
 * syntax gate that parses each templated or compiled file, so a template defect is reported by
 * name instead of written to disk. `copied` files (the runtime, typechecked at its source) skip the gate.
 * With `gate: false` (a lane in a worker thread) the files that need the gate keep, as `gate`,
 * the text it is to parse, for `gateSyntax` on the thread that has the compiler loaded.
 */
export function finalizeFiles(files: readonly GeneratedFile[], specPath: string, copied: ReadonlySet<string> = new Set(), options: { gate?: boolean } = {}): GeneratedFile[] {
  const header = headerLines(specPath)
    .map((line) => `// ${line}`)
    .join("\n");
  const finalized = files
    .map((file): GeneratedFile => {
      const content = normalize(file.path.endsWith(".ts") ? `${header}\n\n${file.content}` : file.content);
      const gated = file.path.endsWith(".ts") && !PRINTED.has(file.path) && !copied.has(file.path);
      return gated ? { path: file.path, content, gate: file.gate ?? content } : { path: file.path, content };
    })
    .sort((a, b) => a.path.localeCompare(b.path));
  return options.gate === false ? finalized : gateSyntax(finalized);
}

/**
 * The syntax gate over the files that carry a `gate` text; returns them without it. A file whose
 * gate text (its template's code, data literals left empty) fails to parse is parsed again as
 * written, which gives the positions reported, and which passes it if the full text parses.
 */
export function gateSyntax(files: readonly GeneratedFile[]): GeneratedFile[] {
  const pending = files.filter((file) => file.gate !== undefined);
  const suspects = new Set(syntaxErrors(pending.map((file) => ({ path: file.path, content: file.gate as string }))).map((found) => found.path));
  if (suspects.size > 0) {
    const problems = syntaxErrors(pending.filter((file) => suspects.has(file.path))).flatMap((found) => found.diagnostics);
    if (problems.length > 0) throw new GenerationFailed(problems);
  }
  return files.map((file) => (file.gate === undefined ? file : { path: file.path, content: file.content }));
}

/** Already normalised text (the usual case for printer and compiler output) is checked, not rebuilt. */
function isNormalized(text: string): boolean {
  return text.endsWith("\n") && !text.endsWith("\n\n") && !text.startsWith("\n") && !/[ \t]\n|\r|\n\n\n/.test(text);
}

function normalize(text: string): string {
  if (isNormalized(text)) return text;
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const kept: string[] = [];
  for (const line of lines) {
    const trimmed = line.trimEnd();
    if (trimmed === "" && (kept.length === 0 || kept[kept.length - 1] === "")) continue;
    kept.push(trimmed);
  }
  while (kept.length > 0 && kept[kept.length - 1] === "") kept.pop();
  return `${kept.join("\n")}\n`;
}

/** The files that do not parse (parsed together, not typechecked), through the compiler's public API, with their errors. */
function syntaxErrors(files: readonly GeneratedFile[]): { path: string; diagnostics: Diagnostic[] }[] {
  if (files.length === 0) return [];
  const ts = loadTypeScript();
  const sources = new Map(files.map((file) => [file.path, ts.createSourceFile(file.path, file.content, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)]));
  const host: import("typescript").CompilerHost = {
    getSourceFile: (name) => sources.get(name),
    getDefaultLibFileName: () => "lib.d.ts",
    writeFile: () => undefined,
    getCurrentDirectory: () => "",
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    fileExists: (name) => sources.has(name),
    readFile: () => undefined,
  };
  const program = ts.createProgram({ rootNames: [...sources.keys()], options: { noLib: true, noResolve: true, types: [] }, host });
  return [...sources.values()].flatMap((source) => {
    const found = program.getSyntacticDiagnostics(source);
    if (found.length === 0) return [];
    const diagnostics = found.slice(0, 5).map((diagnostic) => {
      const { line, character } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, " ");
      return createDiagnostic("TEMPLATE_FAILED", `generated ${source.fileName}:${line + 1}:${character + 1} is not valid TypeScript: ${text}`);
    });
    return [{ path: source.fileName, diagnostics }];
  });
}
