import type { Finding } from "./finding.js";

/** Rules about a place of the document rather than a use of it: reported once per place. */
const PLACE_RULES = new Set(["documentation-changed", "example-changed", "deprecation-changed", "unclassified", "package-validator-changed"]);

/** Rules whose message says all there is, whatever operation the change was found through. */
const MESSAGE_RULES = new Set(["package-type-changed"]);

/**
 * Findings without repeats. A component's description changed is one finding, not one per
 * operation that uses the component (the operation is dropped when several share it); any other
 * finding is repeated only for different operations.
 */
export function dedupeFindings(findings: readonly Finding[]): Finding[] {
  const kept = new Map<string, Finding>();
  for (const finding of findings) {
    const place = PLACE_RULES.has(finding.rule);
    const operation = MESSAGE_RULES.has(finding.rule) ? "" : (finding.operation ?? "");
    const key = place ? `${finding.rule} ${finding.direction ?? ""} ${finding.pointer}` : `${finding.rule} ${operation} ${finding.pointer} ${finding.message}`;
    const first = kept.get(key);
    if (first === undefined) kept.set(key, finding);
    else if (first.operation !== finding.operation) kept.set(key, withoutOperation(first));
  }
  return [...kept.values()];
}

function withoutOperation(finding: Finding): Finding {
  const { operation: _operation, ...rest } = finding;
  return rest;
}
