import ts from "typescript";
import { sharingHost } from "../../../../support/typecheck.js";

const FILE = "/generated/validators.ts";

/**
 * Typechecks one generated module in memory under strict settings (also no unused locals or
 * parameters, so projects with those flags can include generated code); returns the diagnostics.
 */
export function typecheck(source: string, extraOptions: ts.CompilerOptions = {}): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noUncheckedIndexedAccess: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts"],
    types: [],
    noEmit: true,
    skipLibCheck: true,
    ...extraOptions,
  };
  const host = sharingHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (name) => name === FILE || ts.sys.fileExists(name);
  host.readFile = (name) => (name === FILE ? source : readFile(name));
  host.getSourceFile = (name, language, onError, shouldCreate) =>
    name === FILE
      ? ts.createSourceFile(name, source, language, true)
      : getSourceFile(name, language, onError, shouldCreate);
  const program = ts.createProgram([FILE], options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where =
      diagnostic.file !== undefined && diagnostic.start !== undefined
        ? `${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1}: `
        : "";
    return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  });
}
