import { createDiagnostic, type Diagnostic, GenerationFailed } from "../diagnostics/diagnostic.js";
import type { GeneratedFile } from "../emit/emitter.js";
import { loadTypeScript } from "../emit/typescript-once.js";
import { headerLines } from "./header.js";

/**
 * The one finalize pass: the header on every TypeScript file, and one whitespace normalisation
 * (LF line ends, no trailing blanks, at most one blank line in a row, one final newline).
 */
export function finalizeFiles(files: readonly GeneratedFile[], specPath: string): GeneratedFile[] {
  const header = headerLines(specPath)
    .map((line) => `// ${line}`)
    .join("\n");
  return files
    .map(
      (file): GeneratedFile => ({
        path: file.path,
        content: normalize(file.path.endsWith(".ts") ? `${header}\n\n${file.content}` : file.content),
      }),
    )
    .sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * Files whose code is built through a printer (openapi-typescript and the alias printer for the
 * types, the code builder of the schema compiler for the validators, the literal printer for the
 * JSON Schemas), and so is syntactically valid by construction.
 */
const PRINTED = new Set(["types.ts", "validators/index.ts", "json-schemas.ts"]);

/**
 * The syntax gate: parses every TypeScript file that templates rendered (neither printed nor
 * `copied` from the runtime, which is typechecked where it lives), so that a defect of a template
 * is reported by file, line and column instead of written to disk. The pipeline runs it on the
 * output of templates given with `--templates DIR`; the built-in templates' output is typechecked
 * by the golden tests, which run it too.
 */
export function checkTemplateSyntax(files: readonly GeneratedFile[], copied: ReadonlySet<string>): void {
  const rendered = files.filter(
    (file) => file.path.endsWith(".ts") && !PRINTED.has(file.path) && !copied.has(file.path),
  );
  const problems = syntaxErrors(rendered);
  if (problems.length > 0) throw new GenerationFailed(problems);
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

/** The errors of the files that do not parse (parsed together, not typechecked), through the compiler's public API. */
function syntaxErrors(files: readonly GeneratedFile[]): Diagnostic[] {
  if (files.length === 0) return [];
  const ts = loadTypeScript();
  const sources = new Map(
    files.map((file) => [
      file.path,
      ts.createSourceFile(file.path, file.content, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS),
    ]),
  );
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
  const program = ts.createProgram({
    rootNames: [...sources.keys()],
    options: { noLib: true, noResolve: true, types: [] },
    host,
  });
  return [...sources.values()].flatMap((source) => {
    const found = program.getSyntacticDiagnostics(source);
    return found.slice(0, 5).map((diagnostic) => {
      const { line, character } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, " ");
      return createDiagnostic(
        "TEMPLATE_FAILED",
        `generated ${source.fileName}:${line + 1}:${character + 1} is not valid TypeScript: ${text}`,
      );
    });
  });
}
