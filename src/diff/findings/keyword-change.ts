import { keywordsWhere } from "../../schema/vocabulary.js";

/**
 * The keywords that only document a schema or an object of the document: changing them changes
 * no accepted value, only what readers (and the generated JSDoc, and the mock's answers) see. The
 * schema's come from the keyword vocabulary; `summary` and `tags` document operations and path
 * items.
 */
const DOCUMENTATION_KEYS: ReadonlySet<string> = new Set([
  ...keywordsWhere((entry) => entry.role === "documentation"),
  "summary",
  "tags",
]);

/** Keys whose values are examples: the mock answers with them. */
const EXAMPLE_KEYS: ReadonlySet<string> = new Set(
  keywordsWhere((entry) => entry.role === "documentation" && entry.holds === "data"),
);

/** Whether a key only documents (specification extensions `x-*` included). */
export function isDocumentationKey(key: string): boolean {
  return DOCUMENTATION_KEYS.has(key) || key.startsWith("x-");
}

/** Whether a key holds examples. */
export function isExampleKey(key: string): boolean {
  return EXAMPLE_KEYS.has(key);
}

/** The rule for a keyword no other rule covers: documentation, examples, deprecation, or unclassified. */
export type PlainRule = "unclassified" | "documentation-changed" | "example-changed" | "deprecation-changed";

/** How a change of one such keyword is reported. */
export function classifyKeyword(key: string, before: unknown, after: unknown): { rule: PlainRule; what: string } {
  const change = before === undefined ? "added" : after === undefined ? "removed" : "changed";
  if (isExampleKey(key))
    return { rule: "example-changed", what: `${key} ${change} (the mock server answers with examples)` };
  if (isDocumentationKey(key)) return { rule: "documentation-changed", what: `${key} ${change}` };
  if (key === "deprecated")
    return { rule: "deprecation-changed", what: after === true ? "deprecated" : "no longer deprecated" };
  return { rule: "unclassified", what: `\`${key}\` ${change}: no rule classifies this change, review it by hand` };
}
