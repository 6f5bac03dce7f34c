import { diffSpecs } from "./diff-specs.js";
import { type AcceptedEntry, applyAccepted } from "./report/accepted.js";
import { buildReport } from "./report/report.js";
import type { DiffReport } from "./report/types.js";
import { settleAll } from "./source/failures.js";
import { loadSide, type SpecSide, type SpecSource } from "./source/load-side.js";

/** What a comparison may be given besides the two documents. */
export interface CompareOptions {
  /** entries of the accepted-changes file */
  readonly accepted?: readonly AcceptedEntry[];
  /** the name the accepted-changes file goes by in the report */
  readonly acceptedFile?: string;
}

/** A comparison's report and the two sides it loaded. */
export interface Comparison {
  readonly report: DiffReport;
  readonly base: SpecSide;
  readonly head: SpecSide;
}

/**
 * Loads both documents (as generation does) and reports every change between them, with the
 * advised bump. Throws GenerationFailed with the diagnostics of both sides when either cannot
 * be loaded.
 */
export async function compareSpecs(
  base: SpecSource,
  head: SpecSource,
  options: CompareOptions = {},
): Promise<Comparison> {
  const [before, after] = await loadBoth(base, head);
  return { report: reportOn(before, after, options), base: before, head: after };
}

/** The report for two loaded sides. */
export function reportOn(base: SpecSide, head: SpecSide, options: CompareOptions = {}): DiffReport {
  const changes = diffSpecs(base, head);
  const aliases = operationAliases(base, head);
  return buildReport(
    applyAccepted(changes, options.accepted ?? [], options.acceptedFile ?? "accepted changes", aliases),
  );
}

async function loadBoth(base: SpecSource, head: SpecSource): Promise<[SpecSide, SpecSide]> {
  const [before, after] = await settleAll([loadSide(base), loadSide(head)]);
  return [before as SpecSide, after as SpecSide];
}

/** The names an operation goes by in the accepted-changes file: its operationId and "METHOD /path". */
function operationAliases(base: SpecSide, head: SpecSide): (operation: string) => string[] {
  return (id) => {
    const operation = head.model.operations.find((o) => o.id === id) ?? base.model.operations.find((o) => o.id === id);
    return operation === undefined ? [id] : [id, `${operation.httpMethod} ${operation.path}`];
  };
}
