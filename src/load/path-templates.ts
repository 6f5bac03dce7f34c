/**
 * Paths that are one template once their parameter names are erased (`/items/{id}` and
 * `/items/{sku}`). OpenAPI says such paths "MUST NOT exist as they are identical". Where the two
 * share a method, a server cannot tell which one a request means, and `spec:diff`, which matches
 * operations by method and erased template, would take one for the other: the loader refuses them,
 * naming the method. Where they share none, every request names one of them by its method: they
 * are generated, with a warning that says what OpenAPI forbids.
 */
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { appendPointer } from "../json-pointer.js";
import { isRecord } from "../json-value.js";
import { pathItemOperations, resolvePathItem } from "./path-items.js";
import type { Locate } from "./source-locator.js";

/** A path that repeats an earlier one's template, and the earlier one. */
export interface SameTemplate {
  readonly path: string;
  readonly earlier: string;
  /** the template both read as, names erased: "/items/{}" */
  readonly template: string;
  /** the pointer of the later path */
  readonly at: string;
  /** the methods both paths have an operation under, as requests send them ("GET", "PURGE"; none: requests tell them apart) */
  readonly shared: readonly string[];
  /** the methods of each, for the message */
  readonly methods: { readonly earlier: readonly string[]; readonly path: readonly string[] };
}

/** The template of a path with its parameter names erased: "/items/{id}" → "/items/{}". */
export function erasedTemplate(path: string): string {
  return path.replace(/\{[^}]*\}/g, "{}");
}

/**
 * Every path of `paths` whose template an earlier path already has: against the first earlier one
 * it shares a method with, else against the first of its template. Path Items given by a local
 * `$ref` are read where it leads; the methods of `additionalOperations` count as the fixed ones do.
 */
export function findSameTemplates(document: unknown): SameTemplate[] {
  const paths = isRecord(document) && isRecord(document.paths) ? document.paths : {};
  const groups = new Map<string, { path: string; methods: string[] }[]>();
  const repeats: SameTemplate[] = [];
  for (const [path, item] of Object.entries(paths)) {
    const template = erasedTemplate(path);
    const methods = pathItemOperations(resolvePathItem(document, item)).map((found) => found.httpMethod);
    const group = groups.get(template) ?? [];
    groups.set(template, [...group, { path, methods }]);
    if (group.length === 0) continue;
    const sharing = group.find((earlier) => earlier.methods.some((method) => methods.includes(method)));
    const earlier = sharing ?? (group[0] as { path: string; methods: string[] });
    repeats.push({
      path,
      earlier: earlier.path,
      template,
      at: appendPointer("#", "paths", path),
      shared: earlier.methods.filter((method) => methods.includes(method)),
      methods: { earlier: earlier.methods, path: methods },
    });
  }
  return repeats;
}

/** "GET", "GET and DELETE", "GET, PUT and DELETE" */
function listMethods(names: readonly string[], joiner = "and"): string {
  return names.length <= 1 ? (names[0] ?? "no method") : `${names.slice(0, -1).join(", ")} ${joiner} ${names.at(-1)}`;
}

/**
 * The diagnostic of each repeated template: an error where the two paths share a method, naming
 * it; a warning where they share none, saying why generating them is still unambiguous.
 */
export function sameTemplateDiagnostics(document: unknown, locate: Locate): Diagnostic[] {
  return findSameTemplates(document).map((repeat) => {
    const both = `paths "${repeat.earlier}" and "${repeat.path}" differ only in their parameter names (both are ${repeat.template})`;
    if (repeat.shared.length > 0)
      return createDiagnostic(
        "PATH_TEMPLATE_DUPLICATE",
        `${both} and both have ${listMethods(repeat.shared)}: a ${listMethods(repeat.shared, "or")} request to one matches the other, which is why OpenAPI forbids such paths`,
        locate(repeat.at),
      );
    return createDiagnostic(
      "PATH_TEMPLATE_REPEATED",
      `${both}, which OpenAPI forbids; they share no method ("${repeat.earlier}" has ${listMethods(repeat.methods.earlier)}, "${repeat.path}" has ${listMethods(repeat.methods.path)}), so every request goes to one of them by its method: both are generated`,
      locate(repeat.at),
    );
  });
}
