import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ts from "typescript";
import { repoRoot } from "./paths.js";

/** Every .ts file under a folder. */
export function listTypeScript(root: string): string[] {
  return readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/**
 * Declaration files (TypeScript's libs, @types/node, fastify's types) parsed once per process and
 * shared by every program made here, as an editor's language service shares them: a parsed and
 * bound declaration file does not depend on the program, and parsing them is most of what a
 * small program costs.
 */
const declarations = new Map<string, ts.SourceFile>();

/**
 * A compiler host that keeps declaration files between programs, and parses JSDoc comments as
 * `tsc` does: in TypeScript files only those that can bear on a type error (`@see`, `@link`), where
 * the API's own host parses every comment (about a tenth of typechecking a generated `types.ts`
 * with a comment on each member), for the same diagnostics.
 */
export function sharingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError, shouldCreate) => {
    if (!name.endsWith(".d.ts")) return getSourceFile(name, language, onError, shouldCreate);
    const key = `${name}\0${JSON.stringify(language)}`;
    const known = declarations.get(key);
    if (known !== undefined) return known;
    const file = getSourceFile(name, language, onError, shouldCreate);
    if (file !== undefined) declarations.set(key, file);
    return file;
  };
  return host;
}

const runtimeRoot = join(repoRoot, "runtime");

/** The runtime's files, by their path under runtime/ ("/"-separated), with their text. */
let runtimeTexts: ReadonlyMap<string, string> | undefined;
function runtimeFiles(): ReadonlyMap<string, string> {
  runtimeTexts ??= new Map(
    listTypeScript(runtimeRoot).map((file) => [
      relative(runtimeRoot, file).split(sep).join("/"),
      readFileSync(file, "utf8"),
    ]),
  );
  return runtimeTexts;
}

/** A generated file's text without its header, which names the spec it came from. */
function withoutHeader(content: string): string {
  return content.replace(/^(\/\/ .*\n)+\n/, "");
}

/**
 * The runtime file a generated file is a copy of (the same text under its header, at the same
 * path under its output folder as under runtime/), if any. The runtime stands alone (it imports
 * only its own files), so a copy means what the original means: a program over several outputs
 * reads the original once instead of each copy, and `typecheck` leaves its bodies to
 * `npm run typecheck`. A copy that differs is checked as itself.
 */
export function runtimeOriginal(file: string): string | undefined {
  const parts = file.split(sep);
  let text: string | undefined;
  for (let start = parts.length - 1; start > 0; start--) {
    const path = parts.slice(start).join("/");
    const original = runtimeFiles().get(path);
    if (original === undefined) continue;
    text ??= withoutHeader(readFileSync(file, "utf8"));
    if (text === original) return join(runtimeRoot, path);
  }
  return undefined;
}

/** A compiler host that shares declaration files, and takes a runtime copy for its original (`runtimeOriginal`). */
function runtimeSharingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = sharingHost(options);
  const originals = new Map<string, string | undefined>();
  const originalOf = (file: string): string | undefined => {
    if (!originals.has(file)) originals.set(file, runtimeOriginal(file));
    return originals.get(file);
  };
  const cache = ts.createModuleResolutionCache(host.getCurrentDirectory(), (name) => name, options);
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, settings, containingSourceFile) =>
    literals.map((literal) => {
      const mode = ts.getModeForUsageLocation(containingSourceFile, literal, settings);
      const resolved = ts.resolveModuleName(literal.text, containingFile, settings, host, cache, redirected, mode);
      const module = resolved.resolvedModule;
      const original =
        module === undefined || module.isExternalLibraryImport ? undefined : originalOf(module.resolvedFileName);
      return original === undefined || module === undefined
        ? resolved
        : { resolvedModule: { ...module, resolvedFileName: original } };
    });
  return host;
}

/** The program of `typecheck`: files compiled as the package's consumers compile them (strict, NodeNext). */
export function consumerProgram(files: readonly string[]): ts.Program {
  const options: ts.CompilerOptions = {
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    types: ["node"],
  };
  // a runtime copy is read as its original, once (runtimeOriginal)
  const roots = [...new Set(files.map((file) => runtimeOriginal(file) ?? file))];
  return ts.createProgram(roots, options, runtimeSharingHost(options));
}

/** Typechecks files as the package's consumers compile them (strict, NodeNext); returns the errors as text. */
export function typecheck(files: readonly string[]): string[] {
  const program = consumerProgram(files);
  // the runtime's own files are typechecked where they live (npm run typecheck, stricter settings);
  // here their declarations are read, as the outputs use them, but their bodies are not checked again
  const checked = program
    .getSourceFiles()
    .filter((file) => !file.isDeclarationFile && !file.fileName.startsWith(`${runtimeRoot}${sep}`));
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...checked.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ];
  return diagnostics.map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    if (diagnostic.file === undefined || diagnostic.start === undefined) return text;
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${diagnostic.file.fileName}:${line + 1}:${character + 1} ${text}`;
  });
}
