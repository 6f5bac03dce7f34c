import { appendPointer } from "../../json-pointer.js";
import { markerLeftOut } from "../../schema/read-write.js";
import type { Finding } from "../findings/finding.js";
import type { SchemaChangeKind } from "./kinds.js";
import { shapeOf } from "./normalize.js";
import { descend, type SchemaContext, schemaFinding } from "./schema-context.js";
import { bothAccept, describeTypes, type SchemaDoc, type SchemaParts, type Shape } from "./shape.js";

/** Compares two schemas in a context (the recursion of the schema comparison). */
export type CompareSchemas = (ctx: SchemaContext, base: SchemaParts, head: SchemaParts) => Finding[];

/** The properties one direction sees: readOnly ones are not sent, writeOnly ones not received. */
interface Visible {
  readonly properties: ReadonlyMap<string, { readonly parts: SchemaParts; readonly shape: Shape }>;
  readonly required: ReadonlySet<string>;
}

/** Properties added, removed, made required or optional, and additionalProperties; then each common property. */
export function compareObjects(ctx: SchemaContext, base: Shape, head: Shape, compare: CompareSchemas): Finding[] {
  if (base.never || head.never || !bothAccept(base, head, "object")) return [];
  const before = visible(ctx.base, base, ctx.direction);
  const after = visible(ctx.head, head, ctx.direction);
  const names = [...new Set([...before.properties.keys(), ...after.properties.keys()])].sort();
  return [
    ...names.flatMap((name) => compareProperty(ctx, name, { base, head, before, after }, compare)),
    ...compareAdditional(ctx, base, head, compare),
  ];
}

/**
 * The properties a level lists, and those it requires without listing them (`then: {required: [x]}`),
 * whose values the schema for other properties holds.
 */
function visible(doc: SchemaDoc, shape: Shape, direction: "request" | "response"): Visible {
  const properties = new Map<string, { parts: SchemaParts; shape: Shape }>();
  for (const [name, parts] of shape.properties) {
    const property = shapeOf(doc, parts);
    if (!property[markerLeftOut(direction)]) properties.set(name, { parts, shape: property });
  }
  for (const name of [...shape.required].filter((required) => !shape.properties.has(required))) {
    const parts =
      typeof shape.additional === "string"
        ? [{ value: shape.additional === "open", pointer: appendPointer(shape.pointer, "required") }]
        : shape.additional;
    properties.set(name, { parts, shape: shapeOf(doc, parts) });
  }
  return { properties, required: new Set([...shape.required].filter((name) => properties.has(name))) };
}

interface Sides {
  readonly base: Shape;
  readonly head: Shape;
  readonly before: Visible;
  readonly after: Visible;
}

function compareProperty(ctx: SchemaContext, name: string, sides: Sides, compare: CompareSchemas): Finding[] {
  const old = sides.before.properties.get(name);
  const now = sides.after.properties.get(name);
  const inner = descend(ctx, name, sides.after.required.has(name));
  if (now === undefined && old !== undefined) return [removedProperty(inner, name, old.shape, sides)];
  if (now === undefined || old === undefined)
    return now === undefined ? [] : [addedProperty(inner, name, now.shape, sides)];
  const [wasRequired, isRequired] = [sides.before.required.has(name), sides.after.required.has(name)];
  const requiredChange =
    wasRequired === isRequired
      ? []
      : [
          schemaFinding(inner, isRequired ? "became-required" : "became-optional", {
            pointer: now.shape.pointer,
            before: wasRequired ? "required" : "optional",
            after: isRequired ? "required" : "optional",
            what: isRequired ? "became required" : "became optional",
          }),
        ];
  return [...requiredChange, ...compare(inner, old.parts, now.parts)];
}

/** The schema other properties must match on an object that is not closed: "open" is the schema `true`. */
function schemaFor(shape: Shape): SchemaParts {
  return typeof shape.additional === "string"
    ? [{ value: true, pointer: appendPointer(shape.pointer, "additionalProperties") }]
    : shape.additional;
}

function removedProperty(ctx: SchemaContext, name: string, old: Shape, sides: Sides): Finding {
  const closed = ctx.direction === "request" && sides.head.additional === "closed";
  const kind: SchemaChangeKind = closed
    ? "property-forbidden"
    : sides.before.required.has(name)
      ? "property-removed-required"
      : "property-removed-optional";
  const what = closed ? "removed, and the object accepts no other properties" : "removed";
  return schemaFinding(ctx, kind, { pointer: old.pointer, at: sides.head.pointer, before: describeTypes(old), what });
}

/**
 * A property added. To a response object closed to other properties (`additionalProperties: false`),
 * required or not, it is a value the old contract refused: clients that check answers against it
 * (the generated client's `validateResponses`, a strict deserialiser) refuse the new answers.
 */
function addedProperty(ctx: SchemaContext, name: string, now: Shape, sides: Sides): Finding {
  const required = sides.after.required.has(name);
  const presence = required ? "required" : "optional";
  const closed = ctx.direction === "response" && sides.base.additional === "closed";
  if (closed)
    return schemaFinding(ctx, "property-added-closed", {
      pointer: now.pointer,
      after: describeTypes(now),
      what: `added (${presence}) to an object that accepted no other properties`,
    });
  return schemaFinding(ctx, required ? "property-added-required" : "property-added-optional", {
    pointer: now.pointer,
    after: describeTypes(now),
    what: `added (${presence})`,
  });
}

/**
 * additionalProperties (and unevaluatedProperties: false): open, closed, or a schema for the rest.
 * A schema given or taken away where the object was or stays open is compared with "anything" (a
 * map of strings opened to any value widens its values' type), so it weighs as the same change
 * of the schema would; closing and opening are changes of their own.
 */
function compareAdditional(ctx: SchemaContext, base: Shape, head: Shape, compare: CompareSchemas): Finding[] {
  const [before, after] = [base.additional, head.additional];
  if (before !== "closed" && after !== "closed" && (typeof before !== "string" || typeof after !== "string"))
    return compare(descend(ctx, "*"), schemaFor(base), schemaFor(head));
  if (before === after) return [];
  const show = (value: Shape["additional"]): string => (typeof value === "string" ? value : "a schema");
  const closing = after === "closed" || before === "open";
  const change = {
    pointer: head.pointer,
    before: show(before),
    after: show(after),
    typed: base.indexSignature && !head.indexSignature,
  };
  const what = `other properties: ${show(before)} → ${show(after)}`;
  return [schemaFinding(ctx, closing ? "closed" : "opened", { ...change, what, typed: closing && change.typed })];
}
