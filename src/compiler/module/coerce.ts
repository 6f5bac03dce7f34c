import { isRecord, type JsonObject } from "../../json-value.js";
import { isNullable } from "../../schema/dialect.js";
import { followRefs } from "../../schema/refs.js";
import { type Code, code, joinCode, str, tsOnly } from "../code/code.js";
import { childLocation, type SchemaLocation } from "../registry/location.js";
import type { ModuleState } from "./module-state.js";

const FLAGS: Readonly<Record<string, number>> = { integer: 1, number: 2, boolean: 4, null: 8, string: 16 };

/** Nested objects (deepObject query parameters, bracketed form fields) are followed this deep. */
const MAX_DEPTH = 8;

/**
 * How string values become typed values, as data: type flags for a scalar, `[1, items]` for an
 * array (a single value becomes a one-item array), `[0, properties, rest]` for an object. `0`
 * means "leave as is". Run by the `$coercePlan` runtime helper.
 */
type Plan = number | [1, Plan] | [0, Record<string, Plan>, Plan];

/**
 * For parameter objects and form bodies, whose values arrive as strings: the conversion of
 * `value` as the schemas say ("7" → 7 for an integer, also inside nested objects and arrays),
 * copying only what changed. Returns undefined when nothing can need a conversion.
 */
export function emitCoercer(module: ModuleState, location: SchemaLocation): Coercer | undefined {
  const plan = planFor(module, follow(module, module.registry.schemaAt(location), location), 0);
  if (plan === 0) return undefined;
  return { code: conversion(module, plan), integers: integersOnly(plan) };
}

/**
 * A conversion (an expression of `value`, a call of a helper), and whether it converts only
 * integers, by property name (`$invalidIntegerText` explains its failures).
 */
export interface Coercer {
  readonly code: Code;
  readonly integers: boolean;
}

/** Whether a plan is of scalars by property name whose every flag is 1 (integers). */
function integersOnly(plan: Plan): boolean {
  return flatFlags(plan)?.every((flag) => flag === 1) === true;
}

/** The flags of a plan of scalars by property name; else undefined. */
function flatFlags(plan: Plan): number[] | undefined {
  if (typeof plan === "number" || plan[0] !== 0 || plan[2] !== 0) return undefined;
  const flags = Object.values(plan[1]);
  return flags.every((flag) => typeof flag === "number") ? flags : undefined;
}

/**
 * The call converting `value` by a plan: a plan of integers by property name (path and header
 * parameters, most query parameters) by `$integerProps`, given the names, so that such a validator
 * brings no other conversion nor a plan; another plan of scalars by property name by
 * `$coerceProps`; any other by `$coercePlan`.
 */
function conversion(module: ModuleState, plan: Plan): Code {
  if (typeof plan !== "number" && integersOnly(plan)) {
    const names = joinCode(Object.keys(plan[1]).map(str), code`, `);
    return code`${module.helper("integerProps")}(value, [${names}])`;
  }
  if (typeof plan !== "number" && flatFlags(plan) !== undefined) {
    const constant = module.jsonConstant("plan", plan[1], tsOnly` as Readonly<Record<string, number>>`);
    return code`${module.helper("coerceProps")}(value, ${constant})`;
  }
  return code`${module.helper("coercePlan")}(value, ${module.jsonConstant("plan", plan, tsOnly` as $Plan`)})`;
}

function planFor(module: ModuleState, resolved: Resolved | undefined, depth: number): Plan {
  if (resolved === undefined || depth > MAX_DEPTH) return 0;
  const { schema, location } = resolved;
  const flags = typeFlags(module, schema);
  if (hasType(schema, "array")) {
    const items = planFor(module, follow(module, schema["items"], childLocation(location, "items")), depth + 1);
    return [1, items];
  }
  if (hasType(schema, "object") || (schema["type"] === undefined && isRecord(schema["properties"])))
    return objectPlan(module, resolved, depth);
  if ((flags & 16) !== 0) return 0;
  return flags & 15;
}

function objectPlan(module: ModuleState, { schema, location }: Resolved, depth: number): Plan {
  const properties = isRecord(schema["properties"]) ? schema["properties"] : {};
  const plans: Record<string, Plan> = {};
  for (const property of Object.keys(properties)) {
    const plan = planFor(
      module,
      follow(module, properties[property], childLocation(location, "properties", property)),
      depth + 1,
    );
    if (plan !== 0) plans[property] = plan;
  }
  const rest = isRecord(schema["additionalProperties"])
    ? planFor(
        module,
        follow(module, schema["additionalProperties"], childLocation(location, "additionalProperties")),
        depth + 1,
      )
    : 0;
  return Object.keys(plans).length === 0 && rest === 0 ? 0 : [0, plans, rest];
}

function hasType(schema: JsonObject, type: string): boolean {
  const raw = schema["type"];
  return raw === type || (Array.isArray(raw) && raw.includes(type));
}

interface Resolved {
  readonly schema: JsonObject;
  readonly location: SchemaLocation;
}

/** A schema (found at `start`), following a chain of `$ref`s from it. */
function follow(module: ModuleState, found: unknown, start: SchemaLocation): Resolved | undefined {
  const located = followRefs(module.registry.tree, found, start);
  return located === undefined || typeof located.node["$ref"] === "string"
    ? undefined
    : { schema: located.node, location: located.location };
}

function typeFlags(module: ModuleState, schema: JsonObject): number {
  const raw = schema["type"];
  const types = typeof raw === "string" ? [raw] : Array.isArray(raw) ? raw : [];
  let flags = 0;
  for (const type of types) flags |= typeof type === "string" ? (FLAGS[type] ?? 0) : 0;
  if (isNullable(module.registry.rules, schema)) flags |= FLAGS["null"] ?? 0;
  return flags;
}
