import { isRecord } from "../../json-value.js";
import type { Finding } from "../findings/finding.js";
import { schemaDigest } from "./canonical.js";
import { compareBranchings } from "./compare-branches.js";
import { compareConditionals } from "./compare-conditionals.js";
import { compareConstraints } from "./compare-constraints.js";
import { compareExtras } from "./compare-extras.js";
import { compareItems } from "./compare-items.js";
import { compareObjects } from "./compare-object.js";
import { compareSubschemas } from "./compare-subschemas.js";
import { compareTypes } from "./compare-types.js";
import { shapeOf } from "./normalize.js";
import { readingKey, type SchemaContext } from "./schema-context.js";
import { type Branching, holdsNoStructure, type SchemaParts, type Shape } from "./shape.js";
import { recordReach } from "./shared-comparisons.js";

/**
 * Compares two schemas by meaning, direction-aware: each difference becomes a finding whose
 * rule the context's place decides (a tightening breaks requests, a loosening breaks responses).
 * Two components are compared once per direction and place, whatever operations reach them
 * (which also ends recursion): their findings stay in `ctx.shared`, found through the pairs each
 * place reaches; an inline pair is compared once per operation and its findings returned. A pair
 * with the same fingerprint (meaning and documentation) has nothing to report.
 */
export function compareSchemas(ctx: SchemaContext, base: SchemaParts, head: SchemaParts): Finding[] {
  const [before, after] = [identity(base), identity(head)];
  const key = `${readingKey(ctx)} ${before.id} ${after.id}`;
  if (before.ref && after.ref) return compareShared(ctx, key, base, head);
  if (ctx.seen.has(key)) return [];
  ctx.seen.add(key);
  return compareNow(ctx, base, head);
}

/** Two components: compared once for all, their findings kept with the pair rather than returned. */
function compareShared(ctx: SchemaContext, key: string, base: SchemaParts, head: SchemaParts): Finding[] {
  recordReach(ctx.shared, ctx.within, key);
  if (ctx.shared.own.has(key)) return [];
  ctx.shared.own.set(key, undefined);
  ctx.shared.own.set(key, compareNow({ ...ctx, within: key }, base, head));
  return [];
}

function compareNow(ctx: SchemaContext, base: SchemaParts, head: SchemaParts): Finding[] {
  if (schemaDigest(ctx.base, base, "fingerprint") === schemaDigest(ctx.head, head, "fingerprint")) return [];
  const [before, after] = alignBranchings(shapeOf(ctx.base, base), shapeOf(ctx.head, head));
  const owner = after.component === undefined ? undefined : ctx.typeNameOf(after.component);
  const here = owner === undefined ? ctx : { ...ctx, owner, ownerPath: "", inComponent: true };
  return [
    ...compareTypes(here, before, after),
    ...compareConstraints(here, before, after),
    ...compareObjects(here, before, after, compareSchemas),
    ...compareItems(here, before, after, compareSchemas),
    ...compareSubschemas(here, before, after, compareSchemas),
    ...compareConditionals(here, before, after, compareSchemas),
    ...compareBranchings(here, before, after, compareSchemas),
    ...compareExtras(here, before, after),
  ];
}

/** A schema that is only a $ref is the component it names, wherever it is used; any other is its place. */
function identity(parts: SchemaParts): { id: string; ref: boolean } {
  const [first] = parts;
  const ref =
    parts.length === 1 &&
    isRecord(first?.value) &&
    Object.keys(first.value).length === 1 &&
    typeof first.value.$ref === "string"
      ? first.value.$ref
      : undefined;
  return ref !== undefined ? { id: ref, ref: true } : { id: parts.map((part) => part.pointer).join("+"), ref: false };
}

/**
 * `{type: string}` against `{oneOf: [{type: string}, {type: integer}]}`: the side without a
 * branching is read as a oneOf (anyOf) of one branch, so the change shows as a branch added.
 * Only when the other side is that branching and nothing else.
 */
function alignBranchings(base: Shape, head: Shape): [Shape, Shape] {
  const [onlyBase, onlyHead] = [onlyBranching(base), onlyBranching(head)];
  if (base.branchings.length === 0 && onlyHead !== undefined) return [asBranch(base, onlyHead.keyword), head];
  if (head.branchings.length === 0 && onlyBase !== undefined) return [base, asBranch(head, onlyBase.keyword)];
  return [base, head];
}

/** The branching, when the level is one oneOf/anyOf (and perhaps a discriminator) and nothing else. */
function onlyBranching(shape: Shape): Branching | undefined {
  const [branching] = shape.branchings;
  const bare =
    shape.branchings.length === 1 &&
    !shape.never &&
    shape.types === undefined &&
    shape.enumValues === undefined &&
    holdsNoStructure(shape) &&
    shape.keywords.size === 0 &&
    [...shape.other.keys()].every((key) => key === "discriminator");
  return bare ? branching : undefined;
}

/** A level made into a branching of one branch: the level itself. */
function asBranch(shape: Shape, keyword: "oneOf" | "anyOf"): Shape {
  const branching: Branching = { keyword, pointer: shape.pointer, branches: [shape.parts] };
  return {
    ...shape,
    types: undefined,
    enumValues: undefined,
    properties: new Map(),
    required: new Set(),
    additional: "open",
    indexSignature: false,
    items: undefined,
    prefixItems: [],
    subschemas: new Map(),
    conditionals: [],
    dependentRequired: new Map(),
    keywords: new Map(),
    branchings: [branching],
    docs: new Map(),
    other: new Map(),
  };
}
