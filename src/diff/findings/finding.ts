/**
 * What the comparisons find: a finding (this module), the keys no rule covers (`residual.ts`,
 * `keyword-change.ts`), JSON compared key order aside (`stable-json.ts`), and the findings made into
 * the report's changes, without repeats (`dedupe.ts`) and placed in the file (`place-changes.ts`).
 */

import type { RuleId } from "../report/rules.js";
import type { ChangeDirection } from "../report/types.js";

/**
 * Whose code, written against the generated package, a type change can stop compiling: the
 * callers (client code, which sends request types and reads response types) or the server's
 * `Handlers` (which read request types and return response types).
 */
export type TypeBreak = "callers" | "handlers";

/** A change as a comparison finds it, before it is placed in the file and accepted or not. */
export interface Finding {
  readonly rule: RuleId;
  /** JSON pointer of the change: in the new document, or in the old one for what was removed */
  readonly pointer: string;
  /** where to show the change in the new document, when that is not `pointer` */
  readonly at?: string;
  /** when not the rule's own direction (e.g. an unclassified change inside a request body) */
  readonly direction?: ChangeDirection;
  readonly operation?: string;
  readonly before?: unknown;
  readonly after?: unknown;
  readonly message: string;
  /** the generated types change so that this side's code may stop compiling */
  readonly typeBreak?: TypeBreak;
  /** the exported type the change is in ("Venue", "CreateVenueBody") */
  readonly owner?: string;
  /** what changed, relative to `owner`: "property `venue_id`: became required" */
  readonly ownerDetail?: string;
}
