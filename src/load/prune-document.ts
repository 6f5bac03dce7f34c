/**
 * What the operation filters (./operation-filter.ts) leave of a document, made whole: the
 * operations still to take out of Path Items given by `$ref` (each such Path Item is then written
 * in place without them), every reference into what was taken out replaced by a copy of what it
 * named, and the components nothing left refers to taken out, so that what only the unwanted
 * operations use is not generated (nor checked, nor compiled) either.
 */
import { documentRefs } from "../compiler/index.js";
import { appendPointer, escapePointerSegment, pointerSegments, resolvePointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";
import type { OpenApiVersion } from "../schema/dialect.js";
import type { PendingRemoval } from "./operation-filter.js";
import { removeOperation, resolvePathItem } from "./path-items.js";

/** How many rounds of copying references into removed parts are made before giving up (a circle). */
const ROUNDS = 32;

/** Takes the pending operations out (Path Items written in place), mends the references into them, prunes the components. */
export function finishSelection(
  document: Record<string, unknown>,
  pending: readonly PendingRemoval[],
  version: OpenApiVersion,
): void {
  const before = structuredClone(document);
  for (const removal of pending) removeFromPathItem(document, removal);
  copyDangling(document, before);
  pruneComponents(document, version);
}

function removeFromPathItem(document: Record<string, unknown>, { map, key, operations }: PendingRemoval): void {
  const entries = document[map];
  if (!isRecord(entries)) return;
  const item = entries[key];
  const resolved = resolvePathItem(document, item);
  if (!isRecord(item) || resolved === undefined) return;
  const siblings = Object.fromEntries(Object.entries(item).filter(([name]) => name !== "$ref"));
  const copy: Record<string, unknown> = { ...structuredClone(resolved), ...siblings };
  for (const at of operations) removeOperation(copy, at);
  entries[key] = copy;
}

/**
 * Replaces each local `$ref` that leads into a part taken out (it resolves in `original`, no longer
 * in `document`) by a copy of what it named, the keywords beside it kept; again for what the copies
 * hold, a bounded number of rounds.
 */
export function copyDangling(document: Record<string, unknown>, original: unknown): void {
  for (let round = 0; round < ROUNDS; round++) {
    let copied = false;
    walkReferences(document, "", (holder, ref) => {
      if (!ref.startsWith("#/") || resolvePointer(document, ref) !== undefined) return false;
      const target = resolvePointer(original, ref);
      if (target === undefined) return false;
      const siblings = Object.entries(holder).filter(([name]) => name !== "$ref");
      delete holder.$ref;
      Object.assign(holder, isRecord(target) ? structuredClone(target) : {}, Object.fromEntries(siblings));
      copied = true;
      // what the copy holds is read in the next round: a part that refers to itself is copied once a round
      return true;
    });
    if (!copied) return;
  }
}

/**
 * Takes out every component (but security schemes, which requirements name without `$ref`) that
 * nothing outside the components refers to, directly or through other components: `$ref`s read as
 * the schema compiler reads them (against `$id`s in 3.1), and discriminator mappings.
 */
function pruneComponents(document: Record<string, unknown>, version: OpenApiVersion): void {
  const components = document.components;
  if (!isRecord(components)) return;
  const reached = reachedComponents(document, version);
  for (const [kind, entries] of Object.entries(components)) {
    if (kind === "securitySchemes" || !isRecord(entries)) continue;
    const names = Object.keys(entries);
    for (const name of names) if (!reached.has(componentKey(kind, name))) delete entries[name];
    if (names.length > 0 && Object.keys(entries).length === 0) delete components[kind];
  }
}

function componentKey(kind: string, name: string): string {
  return `/components/${escapePointerSegment(kind)}/${escapePointerSegment(name)}`;
}

/** The components (as "/components/<kind>/<name>") that the document outside its components reaches. */
function reachedComponents(document: Record<string, unknown>, version: OpenApiVersion): Set<string> {
  const refs = documentRefs(document, version);
  const reached = new Set<string>();
  const queue: [unknown, string][] = Object.entries(document)
    .filter(([key]) => key !== "components")
    .map(([key, value]) => [value, appendPointer("", key)]);
  const reach = (pointer: string | undefined): void => {
    const [root, kind, name] = pointerSegments(pointer ?? "");
    if (root !== "components" || kind === undefined || name === undefined) return;
    const key = componentKey(kind, name);
    if (reached.has(key)) return;
    reached.add(key);
    queue.push([resolvePointer(document, `#${key}`), key]);
  };
  while (queue.length > 0) {
    const [node, at] = queue.pop() as [unknown, string];
    walkReferences(node, at, (holder, ref, where) => {
      reach(refs.target(ref, where, holder) ?? (ref.startsWith("#/") ? ref.slice(1) : undefined));
      return false;
    });
    walkMappings(node, (value) => reach(value.startsWith("#/") ? value.slice(1) : componentKey("schemas", value)));
  }
  return reached;
}

/**
 * Every `$ref` under a node, with its holder and the holder's pointer; where `visit` answers true,
 * what the holder holds is not walked.
 */
function walkReferences(
  node: unknown,
  at: string,
  visit: (holder: Record<string, unknown>, ref: string, at: string) => boolean,
): void {
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) walkReferences(item, appendPointer(at, index), visit);
    return;
  }
  if (!isRecord(node)) return;
  if (typeof node.$ref === "string" && visit(node, node.$ref, at)) return;
  for (const [key, child] of Object.entries(node))
    if (key !== "example" && key !== "enum") walkReferences(child, appendPointer(at, key), visit);
}

/** Every discriminator mapping value under a node, and every `defaultMapping`. */
function walkMappings(node: unknown, visit: (value: string) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walkMappings(item, visit);
    return;
  }
  if (!isRecord(node)) return;
  const discriminator = isRecord(node.discriminator) ? node.discriminator : {};
  const mapping = isRecord(discriminator.mapping) ? Object.values(discriminator.mapping) : [];
  for (const value of [...mapping, discriminator.defaultMapping]) if (typeof value === "string") visit(value);
  for (const [key, child] of Object.entries(node)) if (key !== "example" && key !== "enum") walkMappings(child, visit);
}
