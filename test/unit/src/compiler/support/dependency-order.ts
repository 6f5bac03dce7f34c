import { unescapePointerSegment } from "../../../../../src/json-pointer.js";

/** The prefix of a `$ref` to a component schema of the same document. */
const COMPONENT = "#/components/schemas/";

/** The component schemas (of `names`) a schema refers to, at any depth, by name. */
function referenced(value: unknown, names: ReadonlySet<string>, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) referenced(item, names, found);
  else if (typeof value === "object" && value !== null)
    for (const [key, child] of Object.entries(value)) {
      if (key !== "$ref" || typeof child !== "string") referenced(child, names, found);
      else if (child.startsWith(COMPONENT)) {
        const name = unescapePointerSegment(decodeURIComponent(child.slice(COMPONENT.length)));
        if (names.has(name)) found.add(name);
      }
    }
  return found;
}

/**
 * `names` with every component schema after those it refers to (depth first, in the given order
 * otherwise); in a cycle of references, the first one reached comes last.
 */
export function dependencyOrder(schemas: Readonly<Record<string, unknown>>, names: readonly string[]): string[] {
  const known = new Set(names);
  const visited = new Set<string>();
  const order: string[] = [];
  const visit = (name: string): void => {
    if (visited.has(name)) return;
    visited.add(name);
    for (const dependency of referenced(schemas[name], known)) visit(dependency);
    order.push(name);
  };
  for (const name of names) visit(name);
  return order;
}
