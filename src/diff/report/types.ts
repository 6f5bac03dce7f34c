/**
 * The breaking-change report: what `spec:diff` finds between two versions of a spec. Plain,
 * JSON-serialisable data; the json output prints it as it is.
 */
import type { RuleId } from "./rules.js";

/** How bad a change is for the people who use the API or the package. */
export type ChangeSeverity = "breaking" | "warning" | "info";

/**
 * Where a change bites: the request side (parameters, bodies), the response side, the
 * operation or document as a whole, or the generated package's TypeScript surface.
 */
export type ChangeDirection = "request" | "response" | "operation" | "package";

/** The smallest version bump a change (or a set of changes) needs. */
export type SemverBump = "major" | "minor" | "patch" | "none";

/** A 1-based place in a spec file; `file` is the name the side was given ("git:HEAD:spec/openapi.yaml"). */
export interface ChangeLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** One difference between the two documents, classified by a rule of the catalogue. */
export interface Change {
  readonly rule: RuleId;
  readonly severity: ChangeSeverity;
  readonly direction: ChangeDirection;
  /** the operationId of the operation concerned (the new one when it changed) */
  readonly operation?: string;
  /** JSON pointer of the change: in the new document, or in the old one for what was removed */
  readonly pointer: string;
  readonly location?: ChangeLocation;
  readonly before?: unknown;
  readonly after?: unknown;
  readonly message: string;
  /** present when an entry of the accepted-changes file covers the change */
  readonly accepted?: { readonly reason: string };
}

/** The report: the advised bump and every change, breaking ones first. */
export interface DiffReport {
  readonly semver: SemverBump;
  readonly changes: readonly Change[];
}
