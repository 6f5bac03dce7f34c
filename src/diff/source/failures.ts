import { createDiagnostic, type Diagnostic, GenerationFailed } from "../../diagnostics/diagnostic.js";

/** A DIFF_USAGE failure: the command's arguments cannot be understood. */
export function usageFailure(message: string): GenerationFailed {
  return new GenerationFailed([createDiagnostic("DIFF_USAGE", message)]);
}

/**
 * Waits for every task; when some fail with GenerationFailed, fails with all their diagnostics
 * together (both sides' problems at once, not only the first side's).
 */
export async function settleAll<T>(tasks: readonly Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(tasks);
  const diagnostics: Diagnostic[] = [];
  for (const result of results) {
    if (result.status === "fulfilled") continue;
    if (!(result.reason instanceof GenerationFailed)) throw result.reason;
    diagnostics.push(...result.reason.diagnostics);
  }
  if (diagnostics.length > 0) throw new GenerationFailed(diagnostics);
  return results.map((result) => (result as PromiseFulfilledResult<T>).value);
}
