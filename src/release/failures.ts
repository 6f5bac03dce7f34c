import type { DiagnosticCode } from "../diagnostics/catalog.js";
import { createDiagnostic, GenerationFailed } from "../diagnostics/diagnostic.js";

/** The release's failures: each a diagnostic of the catalog (what went wrong, and the hint how to fix it). */
export type ReleaseCode = Extract<DiagnosticCode, `RELEASE_${string}`>;

/** A release stopped by one problem, reported as the generator reports its own (code, message, hint). */
export function releaseFailure(code: ReleaseCode, message: string, file?: string): GenerationFailed {
  return new GenerationFailed([
    createDiagnostic(code, message, file === undefined ? undefined : { file, pointer: "" }),
  ]);
}
