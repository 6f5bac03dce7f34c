import { appendPointer, resolvePointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";

/** A node of the document and the pointer where it lives (after following $refs). */
export interface Located<T = Record<string, unknown>> {
  readonly node: T;
  readonly pointer: string;
}

/** Follows local $refs (a chain of them) to the node they name. Loops end at the last new node. */
export function followRef(document: unknown, node: unknown, pointer: string): Located | undefined {
  let current: unknown = node;
  let at = pointer;
  const seen = new Set<string>();
  while (isRecord(current) && typeof current.$ref === "string" && current.$ref.startsWith("#") && !seen.has(current.$ref)) {
    seen.add(current.$ref);
    at = current.$ref;
    current = resolvePointer(document, current.$ref);
  }
  return isRecord(current) ? { node: current, pointer: at } : undefined;
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
