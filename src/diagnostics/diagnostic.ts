import { catalog, type DiagnosticCode, type Severity } from "./catalog.js";

/** Where a diagnostic points: a file, a JSON pointer into it, and (when known) line and column. */
export interface SourceLocation {
  readonly file: string;
  /** RFC 6901 JSON pointer as a URI fragment ("#/paths/~1venues/post"); "" for the whole file */
  readonly pointer: string;
  readonly line?: number;
  readonly column?: number;
}

/** One problem found in the input or while generating. */
export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly message: string;
  readonly hint: string;
  readonly location?: SourceLocation;
}

/** Builds a diagnostic with the catalog's severity and hint for its code. */
export function createDiagnostic(code: DiagnosticCode, message: string, location?: SourceLocation): Diagnostic {
  const entry = catalog[code];
  return { code, severity: entry.severity, message, hint: entry.hint, ...(location ? { location } : {}) };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((diagnostic) => diagnostic.severity === "error");
}

/**
 * Thrown to stop the pipeline when a stage found errors. Carries every diagnostic collected so far,
 * so the user sees all problems at once, not only the first.
 */
export class GenerationFailed extends Error {
  constructor(readonly diagnostics: readonly Diagnostic[]) {
    super(`generation failed with ${diagnostics.filter((d) => d.severity === "error").length} error(s)`);
    this.name = "GenerationFailed";
  }
}
