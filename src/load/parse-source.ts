import { readFile } from "node:fs/promises";
import SwaggerParser from "@apidevtools/swagger-parser";
import { createRequire } from "node:module";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";

export type ParsedSource = { ok: true; text: string; document: unknown } | { ok: false; diagnostics: Diagnostic[] };

/**
 * Reads and parses the document with swagger-parser's own (fast) parsers. When that fails, the
 * text is parsed again with `yaml` to report every syntax error with its line and column.
 */
export async function parseSource(file: string): Promise<ParsedSource> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "does not exist" : `cannot be read (${(error as Error).message})`;
    return { ok: false, diagnostics: [createDiagnostic("SPEC_NOT_FOUND", `the spec file ${reason}`, { file, pointer: "" })] };
  }
  try {
    return { ok: true, text, document: await SwaggerParser.parse(file) };
  } catch (error) {
    return { ok: false, diagnostics: syntaxDiagnostics(file, text, error as Error) };
  }
}

function syntaxDiagnostics(file: string, text: string, error: Error): Diagnostic[] {
  const { parseDocument } = createRequire(import.meta.url)("yaml") as typeof import("yaml");
  const yamlErrors = parseDocument(text, { prettyErrors: false }).errors;
  if (yamlErrors.length === 0) {
    const message = error.message.replace(/^Error parsing [^:]*: /, "").split("\n")[0] ?? error.message;
    return [createDiagnostic("SPEC_SYNTAX", message, { file, pointer: "" })];
  }
  return yamlErrors.map((yamlError) => {
    const [start] = yamlError.linePos ?? [];
    const message = yamlError.message.split("\n")[0] ?? yamlError.message;
    return createDiagnostic("SPEC_SYNTAX", message, { file, pointer: "", line: start?.line, column: start?.col });
  });
}
