import type { Finding } from "./finding.js";

/** Rules about a place of the document rather than a use of it: one finding per place. */
const PLACE_RULES: ReadonlySet<string> = new Set([
  "documentation-changed",
  "example-changed",
  "deprecation-changed",
  "unclassified",
  "package-validator-changed",
]);

/** How many operations a merged finding names before it only counts the rest. */
const NAMED_OPERATIONS = 5;

/** Findings that are the same change, and the operations they were found through. */
interface Group {
  readonly finding: Finding;
  readonly operations: string[];
}

/**
 * Findings without repeats. A change inside a component (or a shared parameter or response) is
 * one finding, whatever number of operations reach it: it keeps its operation when only one
 * does, and otherwise names them in its message. Other findings repeat only per operation.
 */
export function dedupeFindings(findings: readonly Finding[]): Finding[] {
  const groups = new Map<string, Group>();
  for (const finding of findings) {
    const key = groupKey(finding);
    const group = groups.get(key) ?? { finding, operations: [] };
    if (finding.operation !== undefined && !group.operations.includes(finding.operation))
      group.operations.push(finding.operation);
    groups.set(key, group);
  }
  return [...groups.values()].map(mergeGroup);
}

function groupKey(finding: Finding): string {
  const place = `${finding.rule} ${finding.direction ?? ""} ${finding.pointer}`;
  if (PLACE_RULES.has(finding.rule)) return place;
  const shared = finding.pointer.startsWith("#/components/") || finding.rule === "package-type-changed";
  return shared ? `${place} ${finding.message}` : `${place} ${finding.operation ?? ""} ${finding.message}`;
}

function mergeGroup({ finding, operations }: Group): Finding {
  return withOperations(finding, operations);
}

/** A finding for the operations that reach it: its operation when one does, else their names in its message. */
export function withOperations(finding: Finding, operations: readonly string[]): Finding {
  if (operations.length === 1) return { ...finding, operation: operations[0] as string };
  if (operations.length === 0) return finding;
  const { operation: _operation, ...rest } = finding;
  const named = operations.slice(0, NAMED_OPERATIONS).join(", ");
  const more = operations.length > NAMED_OPERATIONS ? ` and ${operations.length - NAMED_OPERATIONS} more` : "";
  return { ...rest, message: `${finding.message} (reached from ${operations.length} operations: ${named}${more})` };
}
