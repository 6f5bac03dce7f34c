import { basename, dirname, extname, relative, resolve, sep } from "node:path";
import { parse } from "yaml";
import { appendPointer, pointerSegments } from "../json-pointer.js";
import { isRecord } from "../json-value.js";

/** Reads a file of the document (from disk, or from git for `spec:diff`). */
export type ReadFile = (file: string) => Promise<string>;

/** A multi-file document made ready to bundle. */
export interface ExternalSchemas {
  /** the root document, its references to schemas in other files pointing at components */
  readonly document: Record<string, unknown>;
  /** every file the document reaches, absolute, the root first */
  readonly files: readonly string[];
  /** the text of each other file, as bundling is to read it (its schema references rewritten) */
  readonly texts: ReadonlyMap<string, string>;
}

/** A schema in another file: the file and the pointer within it ("" for the whole file). */
interface Target {
  readonly file: string;
  readonly pointer: string;
}

/** A `$ref` to another file (or within one), where it stands. */
interface FoundRef {
  readonly holder: Record<string, unknown>;
  readonly file: string;
  readonly at: string;
  readonly target: Target;
}

/**
 * Multi-file documents, first-class: every schema of another file that the document references
 * becomes a component schema of the root, named after the component that names it, else after its
 * pointer's last segment, else after its file (`schemas/orders/Order.yaml` → `Order`), made unique.
 * Every reference to such a schema, in any file, then points at that component, so bundling writes
 * each once, under `#/components/schemas/<name>`, and the generated types, validators and JSON
 * Schemas name it. (Bundled as it is, a schema of another file is written where it is first used,
 * and every later use points there, deep inside some operation.) References that are not to schemas
 * (a parameter, a response) are left to bundling.
 */
export async function prepareExternalSchemas(
  rootFile: string,
  root: Record<string, unknown>,
  read: ReadFile,
): Promise<ExternalSchemas> {
  const documents = new Map<string, unknown>([[rootFile, root]]);
  const refs: FoundRef[] = [];
  for (const [file, document] of documents) {
    for (const ref of findRefs(file, document)) {
      refs.push(ref);
      if (!documents.has(ref.target.file))
        documents.set(ref.target.file, parse(await read(ref.target.file)) as unknown);
    }
  }
  const schemas = schemaTargets(rootFile, refs);
  const names = nameTargets(rootFile, root, schemas);
  for (const ref of refs) {
    const name = names.get(keyOf(ref.target));
    if (name === undefined || (ref.file === rootFile && isComponentEntry(ref.at, name))) continue;
    const component = appendPointer("#/components/schemas", name);
    ref.holder.$ref = ref.file === rootFile ? component : `${relativePath(dirname(ref.file), rootFile)}${component}`;
  }
  addComponents(rootFile, root, names, schemas);
  const texts = new Map(
    [...documents].filter(([file]) => file !== rootFile).map(([file, document]) => [file, JSON.stringify(document)]),
  );
  return { document: root, files: [...documents.keys()], texts };
}

/** Every `$ref` of a file to another file, or to a place within itself, with where it stands. */
function findRefs(file: string, document: unknown): FoundRef[] {
  const found: FoundRef[] = [];
  const visit = (node: unknown, at: string): void => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) visit(item, appendPointer(at, index));
      return;
    }
    if (!isRecord(node)) return;
    if (typeof node.$ref === "string") {
      const target = targetOf(file, node.$ref);
      if (target !== undefined) found.push({ holder: node, file, at, target });
    }
    for (const [key, child] of Object.entries(node))
      if (key !== "example" && key !== "examples") visit(child, appendPointer(at, key));
  };
  visit(document, "");
  return found;
}

/** The file and pointer a reference names, or undefined for a URL (left to bundling) or an anchor. */
function targetOf(file: string, ref: string): Target | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) return undefined;
  const hash = ref.indexOf("#");
  const path = hash === -1 ? ref : ref.slice(0, hash);
  const fragment = hash === -1 ? "" : ref.slice(hash + 1);
  if (fragment !== "" && !fragment.startsWith("/")) return undefined;
  return {
    file: path === "" ? file : resolve(dirname(file), decodeURI(path)),
    pointer: fragment === "" ? "" : appendPointer("", ...pointerSegments(`#${fragment}`)),
  };
}

/**
 * The schemas of other files the document references: targets of references that stand where a
 * schema stands (under a `schema`, in the root's component schemas, or within a schema of another
 * file), found until no more are.
 */
function schemaTargets(rootFile: string, refs: readonly FoundRef[]): Map<string, Target> {
  const schemas = new Map<string, Target>();
  const inSchema = (ref: FoundRef): boolean => {
    const segments = pointerSegments(`#${ref.at}`);
    if (segments.includes("schema")) return true;
    if (ref.file === rootFile) return segments[0] === "components" && segments[1] === "schemas";
    return [...schemas.values()].some(
      (schema) => schema.file === ref.file && (ref.at === schema.pointer || ref.at.startsWith(`${schema.pointer}/`)),
    );
  };
  for (let added = true; added; ) {
    added = false;
    for (const ref of refs) {
      const key = keyOf(ref.target);
      if (ref.target.file === rootFile || schemas.has(key) || !inSchema(ref)) continue;
      schemas.set(key, ref.target);
      added = true;
    }
  }
  return schemas;
}

function keyOf(target: Target): string {
  return `${target.file}#${target.pointer}`;
}

/** A component name for each schema of another file, by its key. */
function nameTargets(
  rootFile: string,
  root: Record<string, unknown>,
  schemas: ReadonlyMap<string, Target>,
): Map<string, string> {
  const components = isRecord(root.components) && isRecord(root.components.schemas) ? root.components.schemas : {};
  const names = new Map<string, string>();
  // a component that is nothing but a reference to the schema names it
  for (const [name, value] of Object.entries(components)) {
    const target =
      isRecord(value) && typeof value.$ref === "string" && Object.keys(value).length === 1
        ? targetOf(rootFile, value.$ref)
        : undefined;
    if (target !== undefined && schemas.has(keyOf(target)) && !names.has(keyOf(target))) names.set(keyOf(target), name);
  }
  const taken = new Set(Object.keys(components));
  for (const [key, target] of [...schemas].sort(([a], [b]) => a.localeCompare(b))) {
    if (names.has(key)) continue;
    const wanted = preferredName(target);
    let name = wanted;
    for (let n = 2; taken.has(name); n++) name = `${wanted}${n}`;
    taken.add(name);
    names.set(key, name);
  }
  return names;
}

/** The last segment of the pointer, or the file's name without its extension, as a component key. */
function preferredName(target: Target): string {
  const last = pointerSegments(`#${target.pointer}`).at(-1) ?? basename(target.file, extname(target.file));
  return last.replace(/[^A-Za-z0-9._-]/g, "_") || "Schema";
}

/** Whether a reference in the root is the component entry that names the schema (`components/schemas/<name>` itself). */
function isComponentEntry(at: string, name: string): boolean {
  return at === appendPointer("", "components", "schemas", name);
}

/** Adds a component for each schema not yet named by one: a reference to its file, which bundling inlines there. */
function addComponents(
  rootFile: string,
  root: Record<string, unknown>,
  names: ReadonlyMap<string, string>,
  schemas: ReadonlyMap<string, Target>,
): void {
  if (!isRecord(root.components)) root.components = {};
  const components = root.components as Record<string, unknown>;
  if (!isRecord(components.schemas)) components.schemas = {};
  const entries = components.schemas as Record<string, unknown>;
  for (const [key, name] of names) {
    const target = schemas.get(key);
    if (target === undefined || Object.hasOwn(entries, name)) continue;
    entries[name] = {
      $ref: `${relativePath(dirname(rootFile), target.file)}${target.pointer === "" ? "" : `#${target.pointer}`}`,
    };
  }
}

/** A relative reference from a folder to a file, with "/" and a leading "./". */
function relativePath(from: string, to: string): string {
  const path = relative(from, to).split(sep).join("/");
  return encodeURI(path.startsWith(".") ? path : `./${path}`);
}
