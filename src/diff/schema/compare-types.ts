import type { Finding } from "../findings/finding.js";
import type { SchemaChangeKind } from "./kinds.js";
import { ENCODINGS } from "./merge-keyword.js";
import { listValues, type SchemaContext, schemaFinding } from "./schema-context.js";
import { coversTypes, type JsonType, type Shape } from "./shape.js";

/** Types, nullability, format (and content encoding) and enum values of one level. */
export function compareTypes(ctx: SchemaContext, base: Shape, head: Shape): Finding[] {
  return [
    ...typeChange(ctx, base, head),
    ...nullableChange(ctx, base, head),
    ...ENCODINGS.flatMap((name) => encodingChange(ctx, name, base, head)),
    ...enumChanges(ctx, base, head),
  ];
}

function typeChange(ctx: SchemaContext, base: Shape, head: Shape): Finding[] {
  const before = accepted(base);
  const after = accepted(head);
  if (sameTypes(before, after)) return [];
  const kind: SchemaChangeKind = coversTypes(after, before)
    ? "type-widened"
    : coversTypes(before, after)
      ? "type-narrowed"
      : "type-changed";
  const what = kind === "type-widened" ? "type widened" : kind === "type-narrowed" ? "type narrowed" : "type changed";
  const [from, to] = [typesText(base), typesText(head)];
  return [
    schemaFinding(ctx, kind, { pointer: head.pointer, before: from, after: to, what: `${what} from ${from} to ${to}` }),
  ];
}

/** The non-null types a level accepts: none when it accepts nothing. */
function accepted(shape: Shape): ReadonlySet<JsonType> | undefined {
  return shape.never ? new Set() : shape.types;
}

function sameTypes(a: ReadonlySet<JsonType> | undefined, b: ReadonlySet<JsonType> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.size === b.size && [...a].every((type) => b.has(type));
}

/** "integer", "integer | string", "any", "nothing (false)"; null is reported on its own. */
function typesText(shape: Shape): string {
  if (shape.never) return "nothing (false)";
  if (shape.types === undefined) return "any";
  return shape.types.size === 0 ? "null" : [...shape.types].sort().join(" | ");
}

function nullableChange(ctx: SchemaContext, base: Shape, head: Shape): Finding[] {
  if (base.never || head.never || base.nullable === head.nullable) return [];
  const kind = head.nullable ? "nullable-added" : "nullable-removed";
  const what = head.nullable ? "null is now allowed" : "null is no longer allowed";
  return [
    schemaFinding(ctx, kind, {
      pointer: head.pointer,
      before: base.nullable ? "nullable" : "not nullable",
      after: head.nullable ? "nullable" : "not nullable",
      what,
    }),
  ];
}

/**
 * `format`, `contentMediaType` and `contentEncoding` say how a string is read: one added narrows
 * what is valid, one removed widens it, and one changed changes how every value is read.
 */
function encodingChange(ctx: SchemaContext, name: string, base: Shape, head: Shape): Finding[] {
  const before = base.keywords.get(name);
  const after = head.keywords.get(name);
  if (JSON.stringify(before?.value) === JSON.stringify(after?.value)) return [];
  const kind = before === undefined ? "format-narrowed" : after === undefined ? "format-widened" : "format-changed";
  const show = (value: unknown): string => (value === undefined ? "none" : JSON.stringify(value));
  const change = {
    before: before?.value,
    after: after?.value,
    what: `${name} changed from ${show(before?.value)} to ${show(after?.value)}`,
    typed: false,
  };
  return [
    schemaFinding(ctx, kind, {
      pointer: after?.pointer ?? before?.pointer ?? head.pointer,
      at: after?.pointer ?? head.pointer,
      ...change,
    }),
  ];
}

function enumChanges(ctx: SchemaContext, base: Shape, head: Shape): Finding[] {
  const [before, after] = [base.enumValues, head.enumValues];
  if (before === undefined && after === undefined) return [];
  const values = (list: readonly string[] | undefined): unknown =>
    list === undefined ? undefined : list.map((v) => JSON.parse(v) as unknown);
  const change = { pointer: head.pointer, before: values(before), after: values(after) };
  if (before === undefined)
    return [
      schemaFinding(ctx, "enum-removed", { ...change, what: `values now restricted to ${listValues(after ?? [])}` }),
    ];
  if (after === undefined)
    return [
      schemaFinding(ctx, "enum-added", { ...change, what: `values no longer restricted to ${listValues(before)}` }),
    ];
  if (before.length === 1 && after.length === 1 && before[0] !== after[0])
    return [
      schemaFinding(ctx, "const-changed", {
        ...change,
        what: `value changed from ${listValues(before)} to ${listValues(after)}`,
      }),
    ];
  const removed = before.filter((value) => !after.includes(value));
  const added = after.filter((value) => !before.includes(value));
  return [
    ...(removed.length > 0
      ? [schemaFinding(ctx, "enum-removed", { ...change, what: `enum value(s) ${listValues(removed)} removed` })]
      : []),
    ...(added.length > 0
      ? [schemaFinding(ctx, "enum-added", { ...change, what: `enum value(s) ${listValues(added)} added` })]
      : []),
  ];
}
