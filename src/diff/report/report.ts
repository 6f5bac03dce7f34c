/**
 * The report of a comparison: its changes in order and the bump they need (this module), their
 * types (`types.ts`), the catalogue of rules that classify them (`rules.ts`), and the changes the
 * accepted-changes file accepts (`accepted.ts`).
 */
import { rules } from "./rules.js";
import type { Change, ChangeSeverity, DiffReport, SemverBump } from "./types.js";

const BUMPS: readonly SemverBump[] = ["none", "patch", "minor", "major"];
const SEVERITIES: readonly ChangeSeverity[] = ["breaking", "warning", "info"];

/** The bump one change needs: its rule's, except that an accepted breaking change needs only a minor one. */
export function bumpOf(change: Change): SemverBump {
  const bump = rules[change.rule].semver;
  return change.accepted !== undefined && bump === "major" ? "minor" : bump;
}

/** The larger of two bumps. */
export function maxBump(a: SemverBump, b: SemverBump): SemverBump {
  return BUMPS.indexOf(a) >= BUMPS.indexOf(b) ? a : b;
}

/** Whether bump `a` is at least bump `b`. */
export function isAtLeast(a: SemverBump, b: SemverBump): boolean {
  return BUMPS.indexOf(a) >= BUMPS.indexOf(b);
}

/**
 * The report: the smallest bump the changes need (major exactly when a breaking change is not
 * accepted; none when nothing changed), and the changes with the unaccepted breaking ones first,
 * then by severity, operation and place.
 */
export function buildReport(changes: readonly Change[]): DiffReport {
  return { semver: changes.map(bumpOf).reduce(maxBump, "none"), changes: [...changes].sort(compareChanges) };
}

function compareChanges(a: Change, b: Change): number {
  return (
    rank(a) - rank(b) ||
    (a.operation ?? "").localeCompare(b.operation ?? "") ||
    a.pointer.localeCompare(b.pointer) ||
    a.rule.localeCompare(b.rule) ||
    a.message.localeCompare(b.message)
  );
}

function rank(change: Change): number {
  const severity = SEVERITIES.indexOf(change.severity);
  return change.accepted !== undefined ? SEVERITIES.length + severity : severity;
}

/** Whether a change reaches a `--fail-on` threshold (accepted changes never do). */
export function reachesThreshold(change: Change, threshold: "breaking" | "warning"): boolean {
  if (change.accepted !== undefined) return false;
  return change.severity === "breaking" || (threshold === "warning" && change.severity === "warning");
}
