import { isRecord } from "../../json-value.js";
import { componentSchemaName } from "../../model/schemas.js";
import { type Flattened, flattenParts } from "./flatten.js";
import { type Draft, foldNodes } from "./fold.js";
import { type Branching, type JsonType, type SchemaDoc, type SchemaParts, type Shape, tidyTypes } from "./shape.js";

/**
 * One level of a schema in its normal form. A oneOf/anyOf whose other branches are all `null`
 * becomes that one branch, nullable: `oneOf: [{type: "null"}, {$ref: V}]` reads like `V` with
 * null allowed, as `type: [string, "null"]` and OpenAPI 3.0's `nullable: true` do. `stack` holds
 * the $refs already being expanded, so a branch that refers back to its own schema stays as it is.
 */
export function shapeOf(doc: SchemaDoc, parts: SchemaParts, stack: readonly string[] = []): Shape {
  const key = stack.length === 0 ? partsKey(parts) : undefined;
  const known = key === undefined ? undefined : doc.memo.shapes.get(key);
  if (known !== undefined) return known;
  const flat = flattenParts(doc, parts);
  const shape = settleBranchings(doc, finishShape(foldNodes(flat, doc.rules), flat, parts), flat, [
    ...stack,
    ...flat.refs,
  ]);
  if (key !== undefined) doc.memo.shapes.set(key, shape);
  return shape;
}

/** Parts are known by their pointers (a `true` or `false` standing in for a missing schema by its value too). */
export function partsKey(parts: SchemaParts): string {
  return parts
    .map((part) => (typeof part.value === "boolean" ? `${String(part.value)}@${part.pointer}` : part.pointer))
    .join(" ");
}

/** Settles each branching in turn; merging a lone branch in settles the rest on the merged level. */
function settleBranchings(doc: SchemaDoc, shape: Shape, flat: Flattened, stack: readonly string[]): Shape {
  let current = shape;
  for (const branching of shape.branchings) {
    const settled = settleBranching(doc, current, branching, stack);
    if (settled !== "inline") current = settled;
    else return inlineBranch(doc, current, flat, branching, stack);
  }
  return current;
}

/** A draft made into a Shape: null taken out of the types and enum values into `nullable`. */
function finishShape(draft: Draft, flat: Flattened, parts: SchemaParts): Shape {
  const enumNull = draft.enumValues === undefined || draft.enumValues.includes("null");
  const typeNull = draft.types === undefined || draft.types.has("null");
  const nullable = draft.nullableKeyword || (typeNull && enumNull);
  const types =
    draft.types === undefined ? undefined : tidyTypes([...draft.types].filter((t): t is JsonType => t !== "null"));
  const enumValues = draft.enumValues?.filter((value) => value !== "null");
  const empty = (types !== undefined && types.size === 0) || (enumValues !== undefined && enumValues.length === 0);
  const first = parts[0];
  const component = componentOfParts(parts);
  return {
    pointer: first?.pointer ?? "#",
    parts,
    ...(component !== undefined ? { component } : {}),
    refs: flat.refs,
    never: flat.never || (empty && !nullable),
    ...(types !== undefined ? { types } : {}),
    nullable: nullable && !flat.never,
    ...(enumValues !== undefined ? { enumValues } : {}),
    properties: draft.properties,
    required: draft.required,
    additional: draft.additional,
    indexSignature: draft.indexSignature,
    ...(draft.items !== undefined ? { items: draft.items } : {}),
    prefixItems: draft.prefixItems,
    subschemas: draft.subschemas,
    conditionals: draft.conditionals,
    dependentRequired: draft.dependentRequired,
    keywords: draft.keywords,
    branchings: draft.branchings,
    readOnly: draft.readOnly,
    writeOnly: draft.writeOnly,
    deprecated: draft.deprecated,
    docs: draft.docs,
    other: draft.other,
  };
}

/** Takes the null branches out of one branching, or says that a single branch is left to merge in. */
function settleBranching(
  doc: SchemaDoc,
  shape: Shape,
  branching: Branching,
  stack: readonly string[],
): Shape | "inline" {
  const recursive = (branch: SchemaParts): boolean => flattenParts(doc, branch).refs.some((ref) => stack.includes(ref));
  if (branching.branches.some(recursive)) return shape;
  const shapes = branching.branches.map((branch) => shapeOf(doc, branch, stack));
  const others = branching.branches.filter((_, index) => !isNullOnly(shapes[index] as Shape));
  const hasNull = others.length < branching.branches.length;
  if (hasNull && others.length === 1) return "inline";
  const rest = shape.branchings.filter((b) => b.pointer !== branching.pointer);
  const nullable = shape.nullable && (hasNull || shapes.some((s) => s.nullable));
  if (others.length === 0) return { ...shape, types: new Set(), nullable, branchings: rest };
  return { ...shape, nullable, branchings: [...rest, { ...branching, branches: others }] };
}

function isNullOnly(shape: Shape): boolean {
  return (
    shape.nullable &&
    ((shape.types !== undefined && shape.types.size === 0) ||
      (shape.enumValues !== undefined && shape.enumValues.length === 0))
  );
}

/** The level with its lone non-null branch merged in (every keyword of both applies); null stays allowed if the level allowed it. */
function inlineBranch(
  doc: SchemaDoc,
  shape: Shape,
  flat: Flattened,
  branching: Branching,
  stack: readonly string[],
): Shape {
  const branch = branching.branches.find((parts) => !isNullOnly(shapeOf(doc, parts, stack))) ?? [];
  const inner = flattenParts(doc, branch);
  const merged: Flattened = {
    nodes: [...flat.nodes, ...inner.nodes],
    never: flat.never || inner.never,
    refs: [...flat.refs, ...inner.refs],
  };
  const draft = foldNodes(merged, doc.rules);
  const at = draft.branchings.findIndex((b) => b.pointer === branching.pointer);
  if (at >= 0) draft.branchings.splice(at, 1);
  const component = componentOfParts(branch);
  const inlined = { ...finishShape(draft, merged, shape.parts), ...(component !== undefined ? { component } : {}) };
  const settled = settleBranchings(doc, inlined, merged, [...stack, ...inner.refs]);
  return { ...settled, nullable: shape.nullable, never: settled.never && !shape.nullable };
}

/** The component key when the parts are one $ref to "#/components/schemas/<key>". */
function componentOfParts(parts: SchemaParts): string | undefined {
  const [first] = parts;
  return parts.length === 1 && isRecord(first?.value) ? componentSchemaName(first.value.$ref) : undefined;
}
