import { appendPointer, resolvePointer } from "../../json-pointer.js";
import { isRecord } from "../../json-value.js";
import { ownKeywordsApply } from "../../schema/dialect.js";
import type { SchemaDoc, SchemaNode, SchemaParts } from "./shape.js";

/** The object schemas that apply at one level, once $refs are followed and allOf spread. */
export interface Flattened {
  /** object schemas, in document order (their $ref and allOf are already taken apart) */
  readonly nodes: readonly SchemaNode<Record<string, unknown>>[];
  /** some part is `false` */
  readonly never: boolean;
  /** the targets of the $refs followed */
  readonly refs: readonly string[];
}

/**
 * Follows $refs and spreads allOf members until only plain object schemas remain. `true` adds
 * nothing, `false` makes the whole level accept nothing. OpenAPI 3.0 ignores a $ref's siblings
 * (`ownKeywordsApply`).
 */
export function flattenParts(doc: SchemaDoc, parts: SchemaParts): Flattened {
  const nodes: SchemaNode<Record<string, unknown>>[] = [];
  const refs: string[] = [];
  let never = false;
  const pending = [...parts].reverse();
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, pointer } = next;
    if (value === false) never = true;
    if (!isRecord(value)) continue;
    const ref = localRef(value);
    if (ref !== undefined && !refs.includes(ref)) {
      refs.push(ref);
      pending.push({ value: resolvePointer(doc.document, ref), pointer: ref });
    }
    if (ref !== undefined && !ownKeywordsApply(doc.rules, value)) continue;
    pending.push(...allOfMembers(value, pointer).reverse());
    nodes.push({ value, pointer });
  }
  return { nodes, never, refs };
}

function localRef(value: Record<string, unknown>): string | undefined {
  return typeof value.$ref === "string" && value.$ref.startsWith("#") ? value.$ref : undefined;
}

function allOfMembers(value: Record<string, unknown>, pointer: string): SchemaNode[] {
  if (!Array.isArray(value.allOf)) return [];
  return value.allOf.map((member: unknown, index) => ({
    value: member,
    pointer: appendPointer(pointer, "allOf", index),
  }));
}
