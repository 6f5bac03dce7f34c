import { appendPointer } from "../../json-pointer.js";
import { isRecord } from "../../json-value.js";
import type { Finding } from "../findings/finding.js";
import { sameJson } from "../findings/stable-json.js";
import type { DiffSides } from "../operations/operation-context.js";

/** Component sections whose entries reach the API only through a $ref (schemas and security schemes are compared on their own). */
const SECTIONS = ["parameters", "responses", "requestBodies", "headers", "examples", "links", "callbacks", "pathItems"];

/**
 * Components of those sections that nothing refers to on either side: what uses a component is
 * compared where it is used, so only these would otherwise go unseen. Examples are documentation;
 * anything else is left to a human.
 */
export function compareUnusedComponents(sides: DiffSides): Finding[] {
  const [base, head] = [sides.base.loaded.document, sides.head.loaded.document];
  const referenced = new Set([...collectRefs(base), ...collectRefs(head)]);
  return SECTIONS.flatMap((section) => {
    const before = entriesOf(base, section);
    const after = entriesOf(head, section);
    const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return names.flatMap((name) => {
      const pointer = appendPointer("#/components", section, name);
      if (referenced.has(pointer) || sameJson(before[name], after[name])) return [];
      const change = before[name] === undefined ? "added" : after[name] === undefined ? "removed" : "changed";
      const rule = section === "examples" ? "example-changed" : "unclassified";
      return [
        {
          rule,
          pointer,
          at: name in after ? pointer : "#/components",
          message: `component ${section}/${name} ${change}; nothing refers to it`,
        } satisfies Finding,
      ];
    });
  });
}

function entriesOf(document: Record<string, unknown>, section: string): Record<string, unknown> {
  const components = isRecord(document.components) ? document.components : {};
  const entries = components[section];
  return isRecord(entries) ? entries : {};
}

/** Every local $ref of a document. */
function collectRefs(document: unknown): Set<string> {
  const refs = new Set<string>();
  const stack: unknown[] = [document];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (Array.isArray(node)) stack.push(...node);
    if (!isRecord(node)) continue;
    if (typeof node.$ref === "string") refs.add(node.$ref);
    stack.push(...Object.values(node));
  }
  return refs;
}
