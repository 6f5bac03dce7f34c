import { stableStringify } from "../stable-json.js";
import { shapeOf } from "./normalize.js";
import type { Keyword, SchemaDoc, SchemaParts, Shape } from "./shape.js";

/**
 * A schema's meaning as text: its normal form all the way down, without documentation, with
 * $refs replaced by what they point at (a $ref back into a schema being written becomes a
 * marker of how far up it points). Equal text means the schemas accept the same values and
 * generate the same types, whatever their component names, key order or allOf structure.
 */
export function canonicalSchema(doc: SchemaDoc, parts: SchemaParts): string {
  return stableStringify(describe(doc, parts, []));
}

function describe(doc: SchemaDoc, parts: SchemaParts, stack: readonly string[]): unknown {
  const shape = shapeOf(doc, parts);
  const loop = shape.refs.find((ref) => stack.includes(ref));
  if (loop !== undefined) return { cycle: stack.length - stack.indexOf(loop) };
  const inner = [...stack, ...shape.refs];
  const child = (child: SchemaParts): unknown => describe(doc, child, inner);
  return {
    ...levelOf(shape),
    properties: Object.fromEntries([...shape.properties].map(([name, schema]) => [name, child(schema)])),
    additional: typeof shape.additional === "string" ? shape.additional : child(shape.additional),
    items: shape.items === undefined ? null : child(shape.items),
    branchings: shape.branchings.map((b) => ({ keyword: b.keyword, branches: b.branches.map((branch) => stableStringify(child(branch))).sort() })),
  };
}

/** The parts of one level that need no recursion. */
function levelOf(shape: Shape): Record<string, unknown> {
  return {
    never: shape.never,
    types: shape.types === undefined ? null : [...shape.types].sort(),
    nullable: shape.nullable,
    enum: shape.enumValues === undefined ? null : [...shape.enumValues].sort(),
    required: [...shape.required].sort(),
    indexSignature: shape.indexSignature,
    keywords: valuesOf(shape.keywords),
    other: valuesOf(shape.other),
    readOnly: shape.readOnly,
    writeOnly: shape.writeOnly,
    deprecated: shape.deprecated,
  };
}

function valuesOf(keywords: ReadonlyMap<string, Keyword>): Record<string, unknown> {
  return Object.fromEntries([...keywords].map(([key, keyword]) => [key, keyword.value]));
}
