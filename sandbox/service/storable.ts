/**
 * Text the database cannot hold as sent. PostgreSQL's text holds no U+0000, and text is stored as
 * UTF-8, which has no form for a lone surrogate (`"\ud800"` is valid JSON). Rather than store
 * something other than what was sent, the sandbox refuses such a value (422, naming the field)
 * where the operation stores it, or sends it to the database; a property it never stores (one the
 * contract leaves open, say) may hold anything. An ID in the path that holds such text names no
 * record (404).
 */
import type { Refusal } from "./refusals.js";

/** A surrogate that is not half of a pair. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string can be stored as text and answered back exactly. */
export function storable(text: string): boolean {
  return !text.includes("\u0000") && !LONE_SURROGATE.test(text);
}

/**
 * Where an operation's body holds the strings it stores, as JSON pointers in which `*` stands for
 * any array index or key: `text` stored as text, `bytes` stored as their UTF-8 bytes (which hold
 * U+0000, but no lone surrogate).
 */
export interface StoredFields {
  readonly text: readonly string[];
  readonly bytes?: readonly string[];
}

/** A body's stored fields as segment lists, made once per `StoredFields` (the operations' are constants). */
interface Patterns {
  readonly text: readonly (readonly string[])[];
  readonly bytes: readonly (readonly string[])[];
  readonly all: readonly (readonly string[])[];
}

const PATTERNS = new WeakMap<StoredFields, Patterns>();

function patternsOf(stored: StoredFields): Patterns {
  let patterns = PATTERNS.get(stored);
  if (patterns === undefined) {
    const text = stored.text.map(segmentsOf);
    const bytes = (stored.bytes ?? []).map(segmentsOf);
    patterns = { text, bytes, all: [...text, ...bytes] };
    PATTERNS.set(stored, patterns);
  }
  return patterns;
}

/** A refusal for every stored string of a body that cannot be stored; the others are not looked at. */
export function unstorableStrings(body: unknown, stored: StoredFields): Refusal[] {
  const refusals: Refusal[] = [];
  // most bodies hold no such character anywhere: one look at their strings settles them
  if (!holdsSuspect(body)) return refusals;
  visit(body, [], patternsOf(stored), refusals);
  return refusals;
}

/** A character some text cannot be stored with: U+0000, or half of a surrogate pair (which may be lone). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is one of the characters looked for
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

/** Whether a string of `value`, or below it, holds a character of SUSPECT. */
function holdsSuspect(value: unknown): boolean {
  if (typeof value === "string") return SUSPECT.test(value);
  if (typeof value !== "object" || value === null || value instanceof Uint8Array) return false;
  if (Array.isArray(value)) return value.some(holdsSuspect);
  for (const key in value)
    if (Object.hasOwn(value, key) && holdsSuspect((value as Record<string, unknown>)[key])) return true;
  return false;
}

/** Looks at `value`, at `path` (one array, pushed and popped as the walk goes), and below it. */
function visit(value: unknown, path: string[], patterns: Patterns, refusals: Refusal[]): void {
  if (typeof value === "string") {
    const asText = patterns.text.some((pattern) => covers(pattern, path));
    if (
      asText ? !storable(value) : patterns.bytes.some((pattern) => covers(pattern, path)) && LONE_SURROGATE.test(value)
    )
      refusals.push(refusal(path, asText));
    return;
  }
  if (typeof value !== "object" || value === null || value instanceof Uint8Array) return;
  for (const [key, child] of Object.entries(value)) {
    path.push(key);
    if (patterns.all.some((pattern) => leadsTo(pattern, path))) visit(child, path, patterns, refusals);
    path.pop();
  }
}

function refusal(path: readonly string[], asText: boolean): Refusal {
  return {
    instancePath: path.map((key) => `/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`).join(""),
    schemaPath: "",
    keyword: "storable",
    resource: "text",
    says: asText
      ? "holds U+0000 or a lone surrogate, which the sandbox cannot store"
      : "holds a lone surrogate, which has no UTF-8 bytes to store",
  };
}

/** "/custom_fields_id/*\/key" → ["custom_fields_id", "*", "key"] */
function segmentsOf(pointer: string): string[] {
  return pointer.split("/").slice(1);
}

/** Whether the path is the pattern's, or inside it. */
function covers(pattern: readonly string[], path: readonly string[]): boolean {
  return pattern.length <= path.length && pattern.every((segment, i) => segment === "*" || segment === path[i]);
}

/** Whether the pattern's field is at the path or below it, or the path inside the field. */
function leadsTo(pattern: readonly string[], path: readonly string[]): boolean {
  return path.every((key, i) => i >= pattern.length || pattern[i] === "*" || pattern[i] === key);
}
