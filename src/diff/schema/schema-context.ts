import type { Finding } from "../findings/finding.js";
import { classifyKind, negateKind, type SchemaChangeKind, type SchemaPlace } from "./kinds.js";
import type { SchemaDoc } from "./shape.js";
import type { SharedComparisons } from "./shared-comparisons.js";

/** Where a schema comparison stands, and what it needs to name and classify what it finds. */
export interface SchemaContext {
  readonly base: SchemaDoc;
  readonly head: SchemaDoc;
  readonly direction: "request" | "response";
  /** a parameter's own schema, or (below it, and for bodies and headers) a request or response schema */
  readonly place: SchemaPlace;
  /** how the report names the root: "request body (application/json)", "query parameter `q`" */
  readonly label: string;
  /** the property path below the root: "", "venue.name", "tags[]" */
  readonly path: string;
  /** the exported type the schema belongs to, for the package report */
  readonly owner?: string;
  /** the property path below the owner type */
  readonly ownerPath: string;
  /** the exported type name of a component of the new document */
  readonly typeNameOf: (component: string) => string | undefined;
  /** whether the schema is inside a component, whose exported type `owner` names the place */
  readonly inComponent: boolean;
  /** pairs of inline schemas already compared for this operation */
  readonly seen: Set<string>;
  /** the comparisons of component pairs, shared by every operation */
  readonly shared: SharedComparisons;
  /** the place whose comparison this is: an operation, or the component pair being compared */
  readonly within: string;
  /** inside `not` (inside an odd number of them): the value must not match the schema here */
  readonly negated?: boolean;
  /** inside a subschema the generated types leave out (not, if/then/else, contains, ...): no type changes */
  readonly untyped?: boolean;
  /** the value is always there (a required parameter or property), so its default never applies */
  readonly present?: boolean;
}

/** What a comparison found at one place, before its rule is looked up. */
export interface SchemaChange {
  readonly pointer: string;
  /** the place in the new document to show, when `pointer` is in the old one */
  readonly at?: string;
  readonly before?: unknown;
  readonly after?: unknown;
  /** what happened, e.g. "maxLength lowered from 100 to 50" */
  readonly what: string;
  /** false when the change leaves the generated types as they were */
  readonly typed?: boolean;
}

/** A finding for a kind of change at the context's place. */
export function schemaFinding(ctx: SchemaContext, kind: SchemaChangeKind, change: SchemaChange): Finding {
  const read = ctx.negated === true ? negateKind(kind) : kind;
  const { rule, typeBreak } = classifyKind(ctx.place, read);
  const what =
    read === kind
      ? change.what
      : `${change.what} inside \`not\`, so ${NEGATED_EFFECT[read] ?? "the values it refuses changed"}`;
  return {
    rule,
    pointer: change.pointer,
    ...(change.at !== undefined && change.at !== change.pointer ? { at: change.at } : {}),
    ...(change.before !== undefined ? { before: change.before } : {}),
    ...(change.after !== undefined ? { after: change.after } : {}),
    message: `${placeName(ctx)}: ${what}`,
    ...(typeBreak !== undefined && change.typed !== false && ctx.untyped !== true ? { typeBreak } : {}),
    ...(ctx.owner !== undefined
      ? { owner: ctx.owner, ownerDetail: `${ctx.ownerPath === "" ? "" : `property \`${ctx.ownerPath}\`: `}${what}` }
      : {}),
  };
}

/** What a change inside `not` does to the level, by the kind it is read as. */
const NEGATED_EFFECT: Readonly<Partial<Record<SchemaChangeKind, string>>> = {
  "constraint-loosened": "more values are valid",
  "constraint-tightened": "fewer values are valid",
  "constraint-changed": "other values are valid",
};

/**
 * "request body (application/json), property `venue.name`"; inside a component, the exported
 * type: "type `Venue`, property `name`", the same from whichever operation it is reached.
 */
export function placeName(ctx: SchemaContext): string {
  if (ctx.inComponent && ctx.owner !== undefined)
    return `type \`${ctx.owner}\`${ctx.ownerPath === "" ? "" : `, property \`${ctx.ownerPath}\``}`;
  return ctx.path === "" ? ctx.label : `${ctx.label}, property \`${ctx.path}\``;
}

/** The context one step down: into a property (`present` when it is required), the items, additional properties or a branch. */
export function descend(ctx: SchemaContext, step: string, present = false): SchemaContext {
  const join = (path: string): string => (path === "" || step.startsWith("[") ? `${path}${step}` : `${path}.${step}`);
  return {
    ...ctx,
    path: join(ctx.path),
    ownerPath: join(ctx.ownerPath),
    place: ctx.place === "parameter" ? "request" : ctx.place,
    present,
  };
}

/** The context inside a branch of a oneOf/anyOf: same place, named after the branch. */
export function intoBranch(ctx: SchemaContext, keyword: string, index: number): SchemaContext {
  const suffix = ` (${keyword} #${index + 1})`;
  return { ...ctx, path: `${ctx.path}${suffix}`.trim(), ownerPath: `${ctx.ownerPath}${suffix}`.trim() };
}

/**
 * The context inside a subschema that applies to the same value ("not", "then", "contains"):
 * named after it, read the other way round inside `not`, and without type changes where the
 * generated types leave the subschema out.
 */
export function intoSubschema(
  ctx: SchemaContext,
  label: string,
  reading: { readonly negate?: boolean; readonly typed?: boolean } = {},
): SchemaContext {
  const suffix = ` (${label})`;
  const negated = reading.negate === true ? ctx.negated !== true : ctx.negated === true;
  const untyped = ctx.untyped === true || reading.typed !== true;
  return {
    ...ctx,
    path: `${ctx.path}${suffix}`.trim(),
    ownerPath: `${ctx.ownerPath}${suffix}`.trim(),
    negated,
    untyped,
    present: false,
  };
}

/** How a context reads what it compares, as a key: the same schemas read differently are compared again. */
export function readingKey(ctx: SchemaContext): string {
  return `${ctx.direction} ${ctx.place}${ctx.negated === true ? " negated" : ""}${ctx.untyped === true ? " untyped" : ""}${ctx.present === true ? " present" : ""}`;
}

/** Shows a list of enum values (canonical JSON) as the report prints them: "a", "b". */
export function listValues(values: readonly string[]): string {
  return values.join(", ");
}

/** A change no rule classifies, or one that only documents: reported at the context's place and direction. */
export function plainFinding(
  ctx: SchemaContext,
  rule: "unclassified" | "documentation-changed" | "example-changed" | "deprecation-changed",
  change: SchemaChange,
): Finding {
  return {
    rule,
    direction: ctx.direction,
    pointer: change.pointer,
    ...(change.at !== undefined && change.at !== change.pointer ? { at: change.at } : {}),
    ...(change.before !== undefined ? { before: change.before } : {}),
    ...(change.after !== undefined ? { after: change.after } : {}),
    message: `${placeName(ctx)}: ${change.what}`,
  };
}
