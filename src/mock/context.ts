/**
 * What the mock's sample builder (./sample.ts) and its per-type builders (./typed.ts) share: a
 * built value, the context the builders call back into for subschemas, and instance paths.
 */
import { escapePointerSegment } from "../json-pointer.js";
import type { Choices } from "./choices.js";
import type { SchemaSource } from "./schema.js";

/** A built value (wrapped, as null and false are values too). */
export interface Sample {
  readonly value: unknown;
}

/** Builds samples of subschemas: what the per-type builders call back into. */
export interface SampleContext {
  readonly source: SchemaSource;
  readonly choices: Choices;
  /**
   * a sample of a subschema at an instance path, one level deeper; undefined when none can be
   * built. Variant 0 is the plainest; others differ from it where the schema leaves room (the
   * items of a `uniqueItems` array).
   */
  sample(schema: unknown, path: string, depth: number, variant?: number): Sample | undefined;
  /** near the top: optional properties and one array item may be included; deeper: only what is required */
  full(depth: number): boolean;
}

/** The instance path of a child: "/a" + "b" → "/a/b". */
export function childPath(path: string, key: string | number): string {
  return `${path}/${escapePointerSegment(key)}`;
}
