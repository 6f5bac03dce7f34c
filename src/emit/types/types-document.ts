import { documentRefs } from "../../compiler/index.js";
import { appendPointer, escapePointerSegment, pointerSegments, resolvePointer } from "../../json-pointer.js";
import { isRecord } from "../../json-value.js";
import type { OpenApiVersion } from "../../schema/dialect.js";
import { keywordsWhere } from "../../schema/vocabulary.js";

/**
 * The document as openapi-typescript is given it. openapi-typescript prints a `$ref` as an
 * indexed-access type along the pointer (`components["schemas"]["List"]["items"]`), which exists
 * only for a whole component schema, and reads every `$ref` against the document's root. So in a
 * copy made for it:
 *
 * - every `$ref` is written against the root: a reference inside a schema with `$id` (3.1), which
 *   resolves against that `$id`, and one to an `$anchor`, become the pointer of their target;
 * - every schema a `$ref` targets that is not a whole component (an array's `items`, a schema under
 *   `#/paths`, a parameter's schema, a sub-schema of a component) becomes a component schema of its
 *   own, keyed by its pointer (`List/items`, `paths/~1a/get/parameters/0/schema`: keys a component
 *   name cannot have, so they never meet one), and both its place and the references point to it;
 * - no schema keeps its `$defs`: openapi-typescript would print them as a required property of
 *   the object, which no value has (every definition a `$ref` uses is a component by then).
 *
 * - a Media Type Object given by `$ref` (OpenAPI 3.2's `components.mediaTypes`) is written in
 *   place, which openapi-typescript does not follow;
 * - the schemas the aliases name that openapi-typescript does not type (`hoisted`: an `itemSchema`,
 *   the schema of an `in: querystring` parameter) become components of their own, as above;
 *
 * - each callback's Path Item (`callbacks`: key → its pointer) is copied under `webhooks` by that
 *   key, which openapi-typescript types as it types webhooks (it prints no callback of its own).
 *
 * The validators, the JSON Schemas and the served spec keep the document as it is.
 */
export function typesDocument(
  document: Readonly<Record<string, unknown>>,
  callbacks: Readonly<Record<string, string>> = {},
  hoisted: readonly string[] = [],
): Record<string, unknown> {
  const copy = structuredClone(document) as Record<string, unknown>;
  inlineMediaTypeRefs(copy);
  if (Object.keys(callbacks).length > 0) {
    const webhooks = isRecord(copy.webhooks) ? copy.webhooks : {};
    for (const [key, pointer] of Object.entries(callbacks))
      webhooks[key] = structuredClone(resolvePointer(copy, pointer));
    copy.webhooks = webhooks;
  }
  const refs = collectRefs(copy, copy["openapi"]?.toString().startsWith("3.0") === true ? "3.0" : "3.1");
  for (const ref of refs) if (ref.target !== undefined) ref.node.$ref = `#${ref.target}`;
  hoistTargets(
    copy,
    refs,
    hoisted.map((pointer) => pointer.slice(1)),
  );
  dropDefinitions(copy, "");
  return copy;
}

/** Keys whose value maps names to schemas or holds data: a `$defs` key directly inside is a name, not the keyword. */
const NAME_MAPS: ReadonlySet<string> = new Set(keywordsWhere((entry) => entry.holds === "schema-map"));
const DATA: ReadonlySet<string> = new Set(keywordsWhere((entry) => entry.holds === "data"));

/** Deletes the `$defs` keyword of every schema under `value` (`key` is the member holding it). */
function dropDefinitions(value: unknown, key: string): void {
  if (DATA.has(key)) return;
  if (Array.isArray(value)) {
    for (const item of value) dropDefinitions(item, "");
    return;
  }
  if (!isRecord(value)) return;
  if (!NAME_MAPS.has(key) && isRecord(value.$defs)) delete value.$defs;
  for (const [name, child] of Object.entries(value)) dropDefinitions(child, NAME_MAPS.has(key) ? "" : name);
}

/** A `$ref` of the document: the object holding it, and the root pointer of its target when known. */
interface FoundRef {
  readonly node: Record<string, unknown>;
  readonly target: string | undefined;
}

/** Every `$ref` of the document (not inside `enum` or `const` values), each with its target's root pointer. */
function collectRefs(document: Record<string, unknown>, version: OpenApiVersion): FoundRef[] {
  const refs = documentRefs(document, version);
  const found: FoundRef[] = [];
  const visit = (value: unknown, pointer: string): void => {
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) visit(item, `${pointer}/${index}`);
      return;
    }
    if (!isRecord(value)) return;
    if (typeof value.$ref === "string") found.push({ node: value, target: refs.target(value.$ref, pointer, value) });
    for (const [key, child] of Object.entries(value))
      if (key !== "enum" && key !== "const") visit(child, `${pointer}/${escapePointerSegment(key)}`);
  };
  visit(document, "");
  return found;
}

/**
 * Makes each schema target that is not a whole component a component of its own, and each
 * Parameter Object target under `#/paths` a component parameter (bundling writes such a `$ref` for
 * a parameter two operations share), the deepest first, so that every pointer still to be moved
 * stays where it was.
 */
function hoistTargets(document: Record<string, unknown>, refs: readonly FoundRef[], more: readonly string[]): void {
  const targets = [
    ...new Set(
      [...refs.map((ref) => ref.target), ...more].filter(
        (target): target is string => target !== undefined && hoistedTo(target) !== undefined,
      ),
    ),
  ];
  targets.sort((a, b) => pointerSegments(b).length - pointerSegments(a).length || a.localeCompare(b));
  const moved = new Map<string, string>();
  for (const target of targets) {
    const value = resolvePointer(document, `#${target}`);
    const kind = hoistedTo(target);
    if (value === undefined || kind === undefined || !place(document, target)) continue;
    const key = keyOf(target);
    componentsOf(document, kind)[key] = value;
    const ref = appendPointer(`#/components/${kind}`, key);
    setAt(document, target, { $ref: ref });
    moved.set(target, ref);
  }
  for (const ref of refs) if (ref.target !== undefined && moved.has(ref.target)) ref.node.$ref = moved.get(ref.target);
}

/**
 * Where a target openapi-typescript cannot name goes: a schema inside a component, or in a schema
 * of an operation, parameter or header, to `schemas`; a Parameter Object of a path or operation to
 * `parameters` (printed along the pointer, it would be an index through the optional group of its
 * location, `["header"]["x-trace"]`, which strict TypeScript refuses).
 */
function hoistedTo(target: string): "schemas" | "parameters" | undefined {
  const segments = pointerSegments(target);
  if (segments[0] === "components" && segments[1] === "schemas") return segments.length > 3 ? "schemas" : undefined;
  if (segments.includes("schema") || segments.includes("itemSchema")) return "schemas";
  if (segments[0] === "paths" && segments.at(-2) === "parameters") return "parameters";
  return undefined;
}

/** The key under `components.schemas` of a schema `hoisted` names ("#/paths/..."), as the types name it. */
export function hoistedKey(pointer: string): string {
  return keyOf(pointer.slice(1));
}

/** The component key of a moved schema: its pointer, without the `components/schemas/` of one inside a component. */
function keyOf(target: string): string {
  const body = target.slice(1);
  return body.startsWith("components/schemas/") ? body.slice("components/schemas/".length) : body;
}

function componentsOf(document: Record<string, unknown>, kind: "schemas" | "parameters"): Record<string, unknown> {
  if (!isRecord(document.components)) document.components = {};
  const components = document.components as Record<string, unknown>;
  if (!isRecord(components[kind])) components[kind] = {};
  return components[kind] as Record<string, unknown>;
}

/** Whether the pointer names a place a value can be set at (its parent exists). */
function place(document: unknown, pointer: string): boolean {
  const segments = pointerSegments(`#${pointer}`);
  const parent = resolvePointer(document, appendPointer("#", ...segments.slice(0, -1)));
  return typeof parent === "object" && parent !== null;
}

function setAt(document: unknown, pointer: string, value: unknown): void {
  const segments = pointerSegments(`#${pointer}`);
  const parent = resolvePointer(document, appendPointer("#", ...segments.slice(0, -1))) as
    | Record<string, unknown>
    | unknown[];
  const last = segments.at(-1) ?? "";
  if (Array.isArray(parent)) parent[Number(last)] = value;
  else parent[last] = value;
}

const MEDIA_TYPES = "#/components/mediaTypes/";

/** Writes each Media Type Object given by `$ref` to `components.mediaTypes` in place, a chain of them followed. */
function inlineMediaTypeRefs(document: Record<string, unknown>): void {
  const visit = (value: unknown, key: string): void => {
    if (Array.isArray(value)) for (const item of value) visit(item, "");
    if (!isRecord(value) || DATA.has(key)) return;
    if (key === "content")
      for (const [mediaType, media] of Object.entries(value)) value[mediaType] = followMediaType(document, media);
    for (const [name, child] of Object.entries(value)) visit(child, name);
  };
  visit(document, "");
}

function followMediaType(document: Record<string, unknown>, media: unknown): unknown {
  let found = media;
  for (let hops = 0; hops < 32 && isRecord(found) && typeof found.$ref === "string"; hops++) {
    if (!found.$ref.startsWith(MEDIA_TYPES)) break;
    found = structuredClone(resolvePointer(document, found.$ref));
  }
  return found;
}
