/**
 * The sandbox's own error answers, each a declared response of its operation: 404 for an ID in the
 * path that names no record of the caller's company (the same answer as for an unknown path, so an
 * ID of another company cannot be told from one that does not exist), and 422 for a body whose
 * references name no record of the caller's company, with an issue naming each field.
 */
import type { Problem, ValidationIssue } from "workforce-scheduling-api";

/** The 404 problem: the routing layer's own, word for word. */
export const NOT_FOUND: Problem = Object.freeze({
  type: "urn:problem-type:not-found",
  title: "Not Found",
  status: 404,
  detail: "No resource matches this path.",
});

/** The 404 answer. */
export function notFound(): { readonly status: 404; readonly body: Problem } {
  return { status: 404, body: NOT_FOUND };
}

/** One field of the body the sandbox cannot process. */
export interface Refusal {
  /** JSON pointer to the field in the body ("/venue/venue_id") */
  readonly instancePath: string;
  /** the schema of the field ("#/components/schemas/EventVenueInput/properties/venue_id") */
  readonly schemaPath: string;
  /** "reference" (names no record), "required" (must name one), "number" (not a decimal number), "storable" (text the database cannot hold) */
  readonly keyword: "reference" | "required" | "number" | "storable";
  /** what the field should name ("venue") */
  readonly resource: string;
  readonly value?: string;
  /** the text after the field's pointer ("names no venue of this company") */
  readonly says: string;
}

/** The 422 answer listing every refused field; its detail is the first, as in a 400. */
export function unprocessable(refusals: readonly Refusal[]): { readonly status: 422; readonly body: Problem } {
  const errors: ValidationIssue[] = refusals.map((refusal) => ({
    in: "body",
    instancePath: refusal.instancePath,
    schemaPath: refusal.schemaPath,
    keyword: refusal.keyword,
    params:
      refusal.value === undefined
        ? { resource: refusal.resource }
        : { resource: refusal.resource, value: refusal.value },
    message: `${refusal.instancePath} ${refusal.says}`,
  }));
  const first = errors[0];
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
  const detail = first === undefined ? "The body cannot be processed." : `body${first.message}${more}`;
  return {
    status: 422,
    body: {
      type: "urn:problem-type:unprocessable-content",
      title: "Unprocessable Content",
      status: 422,
      detail,
      errors,
    },
  };
}

/** A record number written in a string ("318"), or undefined when it is not one. */
export function recordNumber(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined || !/^(0|[1-9]\d{0,15})$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}
