/**
 * Text the database cannot hold as sent. PostgreSQL's text holds no U+0000, and text is stored as
 * UTF-8, which has no form for a lone surrogate (`"\ud800"` is valid JSON). Rather than store
 * something other than what was sent, the sandbox refuses such a body (422, naming the field),
 * and an ID in the path that holds such text names no record (404).
 */
import type { Refusal } from "./refusals.js";

/** A surrogate that is not half of a pair. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string can be stored and answered back exactly. */
export function storable(text: string): boolean {
  return !text.includes("\u0000") && !LONE_SURROGATE.test(text);
}

/** A refusal for every string in a body (at any depth) that cannot be stored; files' bytes are not text. */
export function unstorableStrings(body: unknown): Refusal[] {
  const refusals: Refusal[] = [];
  const visit = (value: unknown, pointer: string): void => {
    if (typeof value === "string") {
      if (!storable(value))
        refusals.push({
          instancePath: pointer,
          schemaPath: "",
          keyword: "storable",
          resource: "text",
          says: "holds U+0000 or a lone surrogate, which the sandbox cannot store",
        });
      return;
    }
    if (typeof value !== "object" || value === null || value instanceof Uint8Array) return;
    for (const [key, child] of Object.entries(value))
      visit(child, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
  };
  visit(body, "");
  return refusals;
}
