import { appendPointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";
import { followRefs } from "../schema/refs.js";
import { documentTree } from "../schema/tree.js";

/** A node of the document and the pointer where it lives (after following $refs). */
export interface Located<T = Record<string, unknown>> {
  readonly node: T;
  readonly pointer: string;
}

/** Follows local $refs (a chain of them, src/schema/refs.ts) to the node they name. */
export function followRef(document: unknown, node: unknown, pointer: string): Located | undefined {
  const found = followRefs(documentTree(document), node, { value: node, pointer });
  return found === undefined ? undefined : { node: found.node, pointer: found.location.pointer ?? pointer };
}

/** The entries of an object member, each with its pointer; [] when the member is absent. */
export function entriesAt(parent: Located, key: string): [string, unknown, string][] {
  const member = parent.node[key];
  if (!isRecord(member)) return [];
  const base = appendPointer(parent.pointer, key);
  return Object.entries(member).map(([name, value]) => [name, value, appendPointer(base, name)]);
}

export function stringAt(node: Record<string, unknown>, key: string): string | undefined {
  const value = node[key];
  return typeof value === "string" ? value : undefined;
}
