import { readdirSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

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

/** A compiler host that keeps declaration files between programs. */
export function sharingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
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

/** Typechecks files as the package's consumers compile them (strict, NodeNext); returns the errors as text. */
export function typecheck(files: readonly string[]): string[] {
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
  const program = ts.createProgram([...files], options, sharingHost(options));
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    if (diagnostic.file === undefined || diagnostic.start === undefined) return text;
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${diagnostic.file.fileName}:${line + 1}:${character + 1} ${text}`;
  });
}
