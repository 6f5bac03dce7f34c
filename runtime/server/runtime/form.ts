/**
 * URL-encoded forms, with nested fields written in brackets, as the generated client (and Stripe,
 * and PHP, and qs) write them: `meta[plan]=pro` is `{ meta: { plan: "pro" } }`, `items[0][id]=7`
 * and `tags[]=a` are arrays, and a repeated name is an array. Every name becomes an own data key
 * ("__proto__" included), so no form can reach a prototype. Query parameters of style deepObject
 * are read the same way (parameters.ts).
 */

/** Deeper fields than this keep their bracketed name as it is. */
const MAX_DEPTH = 16;
/** A larger index makes the container an object, so that `a[1000000]=x` allocates nothing big. */
const MAX_INDEX = 1000;

type Container = Record<string, unknown> | unknown[];

/** The form as an object of strings, arrays and nested objects. */
export function parseForm(text: string): Record<string, unknown> {
  const fields: [string[], string][] = [];
  for (const [name, value] of new URLSearchParams(text)) fields.push([fieldPath(name), value]);
  return formOf(fields);
}

/** The object of fields given by path (`a[b][0]` as ["a", "b", "0"]) and value, in order. */
export function formOf(fields: Iterable<readonly [readonly string[], string]>): Record<string, unknown> {
  const form: Record<string, unknown> = {};
  for (const [path, value] of fields) setField(form, path, value);
  return form;
}

/**
 * "a[b][0]" → ["a", "b", "0"]; a name that is not bracketed stays one segment. `decode` is applied
 * to each segment: a name still percent-encoded is split at its literal brackets first, so an
 * encoded bracket ("%5B") stays inside its segment.
 */
export function fieldPath(name: string, decode: (segment: string) => string = same): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])+)$/.exec(name);
  if (match === null) return [decode(name)];
  const segments = [...(match[2] as string).matchAll(/\[([^[\]]*)\]/g)].map((part) => decode(part[1] as string));
  return segments.length > MAX_DEPTH ? [decode(name)] : [decode(match[1] as string), ...segments];
}

function same(text: string): string {
  return text;
}

function setField(form: Record<string, unknown>, path: readonly string[], value: string): void {
  let node: Container = form;
  for (let i = 0; i < path.length - 1; i++) node = childOf(node, path[i] as string, path[i + 1] as string);
  const last = path[path.length - 1] as string;
  if (Array.isArray(node) && last === "") {
    node.push(value);
    return;
  }
  const previous = ownValue(node, last);
  defineOwn(
    node,
    last,
    previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value],
  );
}

/** The container at `key`, made (an array when the next segment is an index) if needed. */
function childOf(node: Container, key: string, next: string): Container {
  const existing = Array.isArray(node) && key === "" ? undefined : ownValue(node, key);
  if (typeof existing === "object" && existing !== null) return existing as Container;
  const child: Container = next === "" || (/^(0|[1-9][0-9]*)$/.test(next) && Number(next) <= MAX_INDEX) ? [] : {};
  if (Array.isArray(node) && key === "") node.push(child);
  else defineOwn(node, key, child);
  return child;
}

function ownValue(node: Container, key: string): unknown {
  return Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
}

/** Sets an own data property, even for names such as "__proto__". */
function defineOwn(target: Container, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
