import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import SwaggerParser from "@apidevtools/swagger-parser";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";

export type ParsedSource = { ok: true; text: string; document: unknown } | { ok: false; diagnostics: Diagnostic[] };

/**
 * Reads and parses the document with swagger-parser's own (fast) parsers. When that fails, the
 * text is parsed again with `yaml` to report every syntax error with its line and column. With
 * `given`, the text is not read from `file`: `file` only names it (e.g. a spec taken from git).
 */
export async function parseSource(file: string, given?: string): Promise<ParsedSource> {
  let text: string;
  try {
    text = given ?? (await readFile(file, "utf8"));
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === "ENOENT"
        ? "does not exist"
        : `cannot be read (${(error as Error).message})`;
    return {
      ok: false,
      diagnostics: [createDiagnostic("SPEC_NOT_FOUND", `the spec file ${reason}`, { file, pointer: "" })],
    };
  }
  try {
    return {
      ok: true,
      text,
      document: await SwaggerParser.parse(file, given === undefined ? {} : readFromMemory(file, given)),
    };
  } catch (error) {
    return reparse(file, text, error as Error);
  }
}

/** swagger-parser options that read `file` from the given text, with the same parsers as from disk. */
function readFromMemory(file: string, text: string): SwaggerParser.Options {
  const memory = { order: 1, canRead: (source: { url: string }) => source.url === file, read: () => text };
  return { resolve: { memory } } as SwaggerParser.Options;
}

/**
 * swagger-parser refuses both unparsable text and documents of a version it does not know. The
 * text is parsed again with `yaml`: its errors carry positions; without errors, the document goes
 * on, and the version check says what is wrong with it.
 */
function reparse(file: string, text: string, error: Error): ParsedSource {
  const { parseDocument } = createRequire(import.meta.url)("yaml") as typeof import("yaml");
  const parsed = parseDocument(text);
  if (parsed.errors.length > 0) return { ok: false, diagnostics: syntaxDiagnostics(file, parsed.errors) };
  const document: unknown = parsed.toJS();
  if (document !== null && typeof document === "object") return { ok: true, text, document };
  if (document === null || document === undefined) {
    return {
      ok: false,
      diagnostics: [createDiagnostic("SPEC_NOT_OPENAPI", "the file is empty", { file, pointer: "" })],
    };
  }
  const message = error.message.replace(/^Error parsing [^:]*: /, "").split("\n")[0] ?? error.message;
  return { ok: false, diagnostics: [createDiagnostic("SPEC_SYNTAX", message, { file, pointer: "" })] };
}

function syntaxDiagnostics(file: string, yamlErrors: readonly import("yaml").YAMLError[]): Diagnostic[] {
  return yamlErrors.map((yamlError) => {
    const [start] = yamlError.linePos ?? [];
    const message = (yamlError.message.split("\n")[0] ?? yamlError.message).replace(/ at line \d+, column \d+:?$/, "");
    return createDiagnostic("SPEC_SYNTAX", message, { file, pointer: "", line: start?.line, column: start?.col });
  });
}
