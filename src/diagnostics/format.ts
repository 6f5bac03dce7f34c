import { relative } from "node:path";
import type { Diagnostic } from "./diagnostic.js";

/**
 * Prints a diagnostic in the one format the generator uses:
 *   spec/openapi.yaml:42:7 error REF_UNRESOLVED $ref "#/components/schemas/Nope" does not resolve
 *     at #/paths/~1a/get/responses/200/content/application~1json/schema
 *     hint: Point the $ref at an existing location ...
 */
export function formatDiagnostic(diagnostic: Diagnostic, cwd = process.cwd()): string {
  const { location } = diagnostic;
  const place = location === undefined ? "" : `${formatPlace(location.file, location.line, location.column, cwd)} `;
  const lines = [`${place}${diagnostic.severity} ${diagnostic.code} ${diagnostic.message}`];
  if (location !== undefined && location.pointer !== "") lines.push(`  at ${location.pointer}`);
  lines.push(`  hint: ${diagnostic.hint}`);
  return lines.join("\n");
}

function formatPlace(file: string, line: number | undefined, column: number | undefined, cwd: string): string {
  const shown = relative(cwd, file) || file;
  if (line === undefined) return shown;
  return column === undefined ? `${shown}:${line}` : `${shown}:${line}:${column}`;
}

/** Diagnostics sorted for printing: by file, line, column, then code. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort((a, b) => {
    const la = a.location;
    const lb = b.location;
    return (
      (la?.file ?? "").localeCompare(lb?.file ?? "") ||
      (la?.line ?? 0) - (lb?.line ?? 0) ||
      (la?.column ?? 0) - (lb?.column ?? 0) ||
      a.code.localeCompare(b.code)
    );
  });
}
