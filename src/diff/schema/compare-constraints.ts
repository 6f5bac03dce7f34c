import { boundKeywords, keywordEntry, keywordsWhere } from "../../schema/vocabulary.js";
import type { Finding } from "../findings/finding.js";
import { sameJson } from "../findings/stable-json.js";
import { comparePatterns } from "./pattern-inclusion.js";
import { plainFinding, type SchemaChange, type SchemaContext, schemaFinding } from "./schema-context.js";
import { bothAccept, type JsonType, type Keyword, type Shape } from "./shape.js";

/**
 * The keywords each JSON type's constraints live in; a constraint counts where both sides accept
 * its type (an integer is a number, so `multipleOf` counts on `type: integer` too). A numeric
 * bound (minimum, exclusiveMinimum) is compared with its other form as one bound, and a keyword
 * that works with another (minContains) beside that one (compare-subschemas.ts).
 */
const CONSTRAINTS: readonly (readonly [JsonType, readonly string[]])[] = (
  ["string", "number", "array", "object"] as const
).map((type) => [
  type,
  keywordsWhere(
    (entry) =>
      entry.instance === type &&
      (entry.restriction === true || (entry.bound !== undefined && type !== "number")) &&
      entry.with === undefined,
  ),
]);

const LOWER: ReadonlySet<string> = boundKeywords("lower");

/** The value of each keyword that restricts nothing, being what it is when left out. */
const DEFAULTS: ReadonlyMap<string, unknown> = new Map<string, unknown>(
  keywordsWhere((entry) => entry.neutral !== undefined).map((keyword) => [keyword, keywordEntry(keyword)?.neutral]),
);

/** How a constraint's change moves the values it accepts: fewer, more, or some of each (or it cannot be told). */
type Effect = "constraint-tightened" | "constraint-loosened" | "constraint-changed";

/** A numeric bound in one form: `exclusiveMinimum: 5` is (5, exclusive). */
interface Bound {
  readonly value: number;
  readonly exclusive: boolean;
  readonly keyword: Keyword;
}

/** Bounds, patterns, multipleOf, uniqueItems, dependentRequired and default, each change reported on its own. */
export function compareConstraints(ctx: SchemaContext, base: Shape, head: Shape): Finding[] {
  if (base.never || head.never) return [];
  const numeric = bothAccept(base, head, "number") || bothAccept(base, head, "integer");
  const keywords = CONSTRAINTS.filter(
    ([type]) => bothAccept(base, head, type) || (type === "number" && numeric),
  ).flatMap(([, names]) => names);
  return [
    ...keywords.flatMap((name) => keywordChange(ctx, name, base, head)),
    ...(numeric ? [...boundChange(ctx, "minimum", base, head), ...boundChange(ctx, "maximum", base, head)] : []),
    ...(bothAccept(base, head, "object") ? dependentRequiredChanges(ctx, base, head) : []),
    ...defaultChange(ctx, base, head),
  ];
}

/** A change of one keyword: `minContains` and `maxContains` are compared this way too, where both sides have a `contains`. */
export function keywordChange(ctx: SchemaContext, name: string, base: Shape, head: Shape): Finding[] {
  const [before, after] = [base.keywords.get(name), head.keywords.get(name)];
  const [was, is] = [restriction(name, before?.value), restriction(name, after?.value)];
  if (sameJson(was, is)) return [];
  const effect = effectOf(name, was, is);
  if (effect === undefined) return [];
  const change = describe(name, before, after, head);
  const undecided =
    effect === "constraint-changed"
      ? `; whether the new ${name} accepts every value the old one did is not worked out`
      : "";
  return [schemaFinding(ctx, effect, { ...change, what: `${change.what}${undecided}` })];
}

/**
 * What a keyword's value restricts: nothing (undefined) for its default (`minItems: 0`,
 * `uniqueItems: false`, `minContains: 1`), or a pattern every string matches.
 */
function restriction(name: string, value: unknown): unknown {
  if (DEFAULTS.has(name) && DEFAULTS.get(name) === value) return undefined;
  if (name === "pattern" && matchesEverything(value)) return undefined;
  return value;
}

/**
 * Whether every string matches a pattern (which is searched for, not anchored): one that matches
 * the empty string without an anchor, a word boundary or a lookaround matches at the start of any
 * string. Another pattern may match everything too; it is then read as restricting.
 */
function matchesEverything(pattern: unknown): boolean {
  if (typeof pattern !== "string" || /[\^$]|\\[bB]|\(\?[=!<]/.test(pattern)) return false;
  try {
    return new RegExp(pattern, "u").test("");
  } catch {
    return false;
  }
}

/**
 * Whether the new restriction accepts less than the old one, more, or neither (two patterns whose
 * inclusion pattern-inclusion.ts does not work out); undefined when it accepts the same (two
 * spellings of one pattern).
 */
function effectOf(name: string, before: unknown, after: unknown): Effect | undefined {
  if (after === undefined) return "constraint-loosened";
  if (before === undefined) return "constraint-tightened";
  if (name === "pattern" && typeof before === "string" && typeof after === "string") {
    const inclusion = comparePatterns(before, after);
    if (inclusion === "same") return undefined;
    return inclusion === "fewer"
      ? "constraint-tightened"
      : inclusion === "more"
        ? "constraint-loosened"
        : "constraint-changed";
  }
  if (typeof before !== "number" || typeof after !== "number") return "constraint-changed";
  if (name === "multipleOf")
    return isMultiple(after, before)
      ? "constraint-tightened"
      : isMultiple(before, after)
        ? "constraint-loosened"
        : "constraint-changed";
  return (LOWER.has(name) ? after > before : after < before) ? "constraint-tightened" : "constraint-loosened";
}

/** Whether `value` is a whole multiple of `step` (so every multiple of `value` is one of `step`). */
function isMultiple(value: number, step: number): boolean {
  const ratio = value / step;
  return Math.abs(ratio - Math.round(ratio)) < 1e-9;
}

function describe(name: string, before: Keyword | undefined, after: Keyword | undefined, head: Shape): SchemaChange {
  const show = (keyword: Keyword | undefined): string =>
    keyword === undefined ? "none" : JSON.stringify(keyword.value);
  const what =
    before === undefined
      ? `${name} ${show(after)} added`
      : after === undefined
        ? `${name} ${show(before)} removed`
        : `${name} changed from ${show(before)} to ${show(after)}`;
  return {
    pointer: after?.pointer ?? before?.pointer ?? head.pointer,
    at: after?.pointer ?? head.pointer,
    before: before?.value,
    after: after?.value,
    what,
  };
}

/** minimum and exclusiveMinimum (maximum and exclusiveMaximum) read as one bound. */
function boundChange(ctx: SchemaContext, side: "minimum" | "maximum", base: Shape, head: Shape): Finding[] {
  const before = boundOf(base, side);
  const after = boundOf(head, side);
  if (before?.value === after?.value && before?.exclusive === after?.exclusive) return [];
  const upper = side === "maximum";
  const tighter =
    after !== undefined &&
    (before === undefined ||
      (upper ? after.value < before.value : after.value > before.value) ||
      (after.value === before.value && after.exclusive));
  return [
    schemaFinding(
      ctx,
      tighter ? "constraint-tightened" : "constraint-loosened",
      describe(side, before?.keyword, after?.keyword, head),
    ),
  ];
}

function boundOf(shape: Shape, side: "minimum" | "maximum"): Bound | undefined {
  const exclusiveName = side === "minimum" ? "exclusiveMinimum" : "exclusiveMaximum";
  const inclusive = shape.keywords.get(side);
  const exclusive = shape.keywords.get(exclusiveName);
  const bounds = [
    ...(typeof inclusive?.value === "number" ? [{ value: inclusive.value, exclusive: false, keyword: inclusive }] : []),
    ...(typeof exclusive?.value === "number"
      ? [
          {
            value: exclusive.value,
            exclusive: true,
            keyword: { ...exclusive, value: `${side === "minimum" ? ">" : "<"} ${exclusive.value}` },
          },
        ]
      : []),
  ];
  const stricter = (a: Bound, b: Bound): Bound =>
    a.value === b.value ? (a.exclusive ? a : b) : (side === "minimum") === a.value > b.value ? a : b;
  return bounds.reduce<Bound | undefined>(
    (best, bound) => (best === undefined ? bound : stricter(best, bound)),
    undefined,
  );
}

/** dependentRequired: each property now required beside another one tightens, each no longer required loosens. */
function dependentRequiredChanges(ctx: SchemaContext, base: Shape, head: Shape): Finding[] {
  const names = [...new Set([...base.dependentRequired.keys(), ...head.dependentRequired.keys()])].sort();
  return names.flatMap((name) => {
    const [was, is] = [
      base.dependentRequired.get(name) ?? new Set<string>(),
      head.dependentRequired.get(name) ?? new Set<string>(),
    ];
    const added = [...is]
      .filter((dependent) => !was.has(dependent))
      .map((dependent) => dependentChange(ctx, head, [name, dependent], true));
    return [
      ...added,
      ...[...was]
        .filter((dependent) => !is.has(dependent))
        .map((dependent) => dependentChange(ctx, head, [name, dependent], false)),
    ];
  });
}

function dependentChange(
  ctx: SchemaContext,
  head: Shape,
  [name, dependent]: readonly [string, string],
  added: boolean,
): Finding {
  const what = `dependentRequired: \`${dependent}\` ${added ? "now" : "no longer"} required when \`${name}\` is present`;
  const pair = `${name} → ${dependent}`;
  return schemaFinding(ctx, added ? "constraint-tightened" : "constraint-loosened", {
    pointer: head.pointer,
    ...(added ? { after: pair } : { before: pair }),
    what,
    typed: false,
  });
}

/**
 * A default is what the receiver takes for a value that is left out: changed or dropped, it changes
 * what existing messages mean; added, it states what was not said before. A value that is always
 * there never takes its default, so there the default only documents.
 */
function defaultChange(ctx: SchemaContext, base: Shape, head: Shape): Finding[] {
  const before = base.keywords.get("default");
  const after = head.keywords.get("default");
  if (sameJson(before?.value, after?.value)) return [];
  const change = { ...describe("default", before, after, head), typed: false };
  if (ctx.present === true)
    return [
      plainFinding(ctx, "documentation-changed", {
        ...change,
        what: `${change.what} (the value is required, so the default never applies)`,
      }),
    ];
  return [schemaFinding(ctx, before === undefined ? "default-added" : "default-changed", change)];
}
