import { regexError } from "../compiler/index.js";
import { appendPointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";
import { keywordsWhere } from "../schema/vocabulary.js";

/** Keywords whose values are data, not schemas: a `pattern` key inside them is not a keyword. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(keywordsWhere((entry) => entry.holds === "data"));

/**
 * The patterns of an OpenAPI 3.0 document that compile only without the `u` flag (ECMA-262 5.1
 * identity escapes such as `\:`), by the pointer of each `pattern` (or `patternProperties` key):
 * the validators compile them without it, and the loader warns of each.
 */
export function findLegacyPatterns(document: unknown): { readonly pattern: string; readonly at: string }[] {
  const found: { pattern: string; at: string }[] = [];
  const visit = (node: unknown, at: string): void => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) visit(item, appendPointer(at, index));
      return;
    }
    if (!isRecord(node)) return;
    if (typeof node.pattern === "string" && legacyOnly(node.pattern))
      found.push({ pattern: node.pattern, at: appendPointer(at, "pattern") });
    if (isRecord(node.patternProperties)) {
      for (const key of Object.keys(node.patternProperties))
        if (legacyOnly(key)) found.push({ pattern: key, at: appendPointer(at, "patternProperties", key) });
    }
    for (const [key, child] of Object.entries(node)) if (!DATA_KEYWORDS.has(key)) visit(child, appendPointer(at, key));
  };
  visit(document, "#");
  return found;
}

/** Whether a pattern compiles without the `u` flag but not with it (as the compiler then compiles it). */
function legacyOnly(pattern: string): boolean {
  return regexError(pattern, "u") !== undefined && regexError(pattern, "") === undefined;
}
