/**
 * Paths that are one template once their parameter names are erased (`/items/{id}` and
 * `/items/{sku}`). OpenAPI says such paths "MUST NOT exist as they are identical": a server cannot
 * tell which one a request means, and `spec:diff`, which matches operations by the erased template,
 * would take one for the other. The loader refuses them, naming both.
 */
import { appendPointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";

/** A path that repeats an earlier one's template, and the earlier one. */
export interface SameTemplate {
  readonly path: string;
  readonly earlier: string;
  /** the template both read as, names erased: "/items/{}" */
  readonly template: string;
  /** the pointer of the later path */
  readonly at: string;
}

/** The template of a path with its parameter names erased: "/items/{id}" → "/items/{}". */
export function erasedTemplate(path: string): string {
  return path.replace(/\{[^}]*\}/g, "{}");
}

/** Every path of `paths` whose template an earlier path already has. */
export function findSameTemplates(document: unknown): SameTemplate[] {
  const paths = isRecord(document) && isRecord(document.paths) ? document.paths : {};
  const first = new Map<string, string>();
  const repeats: SameTemplate[] = [];
  for (const path of Object.keys(paths)) {
    const template = erasedTemplate(path);
    const earlier = first.get(template);
    if (earlier === undefined) first.set(template, path);
    else repeats.push({ path, earlier, template, at: appendPointer("#", "paths", path) });
  }
  return repeats;
}
