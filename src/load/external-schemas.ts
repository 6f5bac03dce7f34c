import { basename, dirname, extname, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { parse } from "yaml";
import { appendPointer, pointerSegments } from "../json-pointer.js";
import { isRecord } from "../json-value.js";
import { SelfBases } from "./self-base.js";

/**
 * Reads a file of the document (from disk, or from git for `spec:diff`); with `list`, it can also
 * list the files under a folder (from disk), where documents named by their `$self` are looked for.
 */
export type ReadFile = ((file: string) => Promise<string>) & {
  readonly list?: (folder: string) => Promise<readonly string[]>;
};

/** A multi-file document made ready to bundle. */
export interface ExternalSchemas {
  /** the root document, its references to schemas in other files pointing at components */
  readonly document: Record<string, unknown>;
  /** every file the document reaches, absolute, the root first */
  readonly files: readonly string[];
  /** the text of each other file, as bundling is to read it (its schema references rewritten) */
  readonly texts: ReadonlyMap<string, string>;
  /** each file's document as bundling reads it, the root's included, by absolute path */
  readonly documents: ReadonlyMap<string, unknown>;
  /** the text of each other file as it was read */
  readonly sources: ReadonlyMap<string, string>;
}

/** A schema in another file: the file and the pointer within it ("" for the whole file). */
interface Target {
  readonly file: string;
  readonly pointer: string;
}

/**
 * A `$ref` to another file (or within one), or a discriminator's mapping value that is a
 * reference (`tea: ./Tea.yaml`), where it stands: `holder[key]` holds it.
 */
interface FoundRef {
  readonly holder: Record<string, unknown>;
  /** "$ref", the mapping's key, or "defaultMapping" */
  readonly key: string;
  /** a mapping value: a string bundling leaves as written, so it is given the bundled pointer itself */
  readonly mapping: boolean;
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
  const sources = new Map<string, string>();
  const refs: FoundRef[] = [];
  const componentNames = new Set(Object.keys(componentSchemas(root)));
  const bases = new SelfBases();
  await bases.lookBeside(rootFile, root, read);
  for (const [file, document] of documents) {
    for (const found of findRefs(file, document, componentNames, bases)) {
      if (!documents.has(found.target.file)) {
        const text = await read(found.target.file);
        sources.set(found.target.file, text);
        documents.set(found.target.file, parse(text) as unknown);
      }
      refs.push(withPointer(found, documents.get(found.target.file)));
    }
  }
  for (const [file, document] of documents)
    if (file !== rootFile)
      dropFileIds(document, bases.register(file, document), (url) => bases.fileOf(url, file) !== undefined);
  const schemas = schemaTargets(rootFile, refs);
  const names = nameTargets(rootFile, root, schemas);
  for (const ref of refs) {
    const name = names.get(keyOf(ref.target));
    if (name === undefined || (ref.file === rootFile && isComponentEntry(ref.at, name))) continue;
    const component = appendPointer("#/components/schemas", name);
    ref.holder[ref.key] =
      ref.file === rootFile || ref.mapping ? component : `${relativePath(dirname(ref.file), rootFile)}${component}`;
  }
  addComponents(rootFile, root, names, schemas);
  const texts = new Map(
    [...documents].filter(([file]) => file !== rootFile).map(([file, document]) => [file, JSON.stringify(document)]),
  );
  return { document: root, files: [...documents.keys()], texts, documents, sources };
}

/** A reference as written: its target's file, and a pointer or an `$anchor` name in it. */
interface WrittenRef extends Omit<FoundRef, "target"> {
  readonly ref: string;
  readonly target:
    | { readonly file: string; readonly pointer: string }
    | { readonly file: string; readonly anchor: string };
}

/**
 * Every `$ref` of a file to another file, or to a place within itself, with where it stands. A
 * reference reads against the `$id`s around it (JSON Schema 2020-12 §8.2.1): `$id: ./nested/` in
 * a file makes `$ref: ./leaf.yaml` within it mean `nested/leaf.yaml`, and a `#/...` pointer within
 * it starts at the schema with that `$id`. Outside any `$id`, it reads against the file's base URI,
 * its `$self` where it has one (./self-base.ts); such a reference is then written as a path from
 * this file, as bundling reads references.
 */
function findRefs(
  file: string,
  document: unknown,
  componentNames: ReadonlySet<string>,
  bases: SelfBases,
): WrittenRef[] {
  const found: WrittenRef[] = [];
  const here = pathToFileURL(file).href;
  const own = bases.register(file, document);
  const place = (holder: Record<string, unknown>, key: string, ref: string, target: WrittenRef["target"]): string => {
    if (own === here) return ref;
    holder[key] = writtenFrom(file, target);
    return holder[key] as string;
  };
  const visit = (node: unknown, at: string, base: string, resource: string): void => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) visit(item, appendPointer(at, index), base, resource);
      return;
    }
    if (!isRecord(node)) return;
    let inner = base;
    let innerResource = resource;
    if (typeof node.$id === "string" && at !== "") {
      inner = new URL(node.$id, base).href.replace(/#.*$/, "");
      innerResource = at;
    }
    const rebased = inner === own;
    if (typeof node.$ref === "string") {
      const target = targetOf(
        { file, bases, by: rebased && own !== here ? "$self" : "$id" },
        node.$ref,
        inner,
        innerResource,
        at,
      );
      if (target !== undefined) {
        const ref = rebased ? place(node, "$ref", node.$ref, target) : node.$ref;
        found.push({ holder: node, key: "$ref", mapping: false, file, at, target, ref });
      }
    }
    for (const value of mappingRefs(node, at, componentNames)) {
      const target = targetOf(
        { file, bases, by: rebased && own !== here ? "$self" : "$id" },
        value.ref,
        inner,
        innerResource,
        value.at,
      );
      if (target === undefined) continue;
      const ref = rebased ? place(value.holder, value.key, value.ref, target) : value.ref;
      found.push({ ...value, ref, mapping: true, file, target });
    }
    for (const [key, child] of Object.entries(node))
      if (key !== "example" && key !== "examples") visit(child, appendPointer(at, key), inner, innerResource);
  };
  visit(document, "", own, "");
  return found;
}

/** A reference to a target as a path from `file` (or a fragment, within it), as bundling reads it. */
function writtenFrom(file: string, target: WrittenRef["target"]): string {
  const fragment = "pointer" in target ? target.pointer : target.anchor;
  if (target.file === file) return `#${fragment}`;
  return `${relativePath(dirname(file), target.file)}${fragment === "" ? "" : `#${fragment}`}`;
}

/**
 * The values of a schema's discriminator mapping (and its `defaultMapping`) that are references
 * rather than component names, each with its holder, key and pointer. OpenAPI allows either; a value is read as a reference when no
 * component schema has that name and it has a path's or a fragment's shape (`./Tea.yaml`,
 * `schemas/Tea.json`, `#/$defs/Tea`), as a reference in the file it is written in reads.
 */
function mappingRefs(
  node: Record<string, unknown>,
  at: string,
  componentNames: ReadonlySet<string>,
): { holder: Record<string, unknown>; key: string; ref: string; at: string }[] {
  const discriminator = node.discriminator;
  if (!isRecord(discriminator)) return [];
  const isRef = (ref: unknown): ref is string =>
    typeof ref === "string" && !componentNames.has(ref) && /[/#]|\.(ya?ml|json)$/i.test(ref);
  const mapping = isRecord(discriminator.mapping) ? discriminator.mapping : {};
  const mapped = Object.entries(mapping).flatMap(([key, ref]) =>
    isRef(ref) ? [{ holder: mapping, key, ref, at: appendPointer(at, "discriminator", "mapping", key) }] : [],
  );
  // `defaultMapping` (OpenAPI 3.2) is written as a mapping value is
  const fallback = discriminator.defaultMapping;
  return isRef(fallback)
    ? [
        ...mapped,
        {
          holder: discriminator,
          key: "defaultMapping",
          ref: fallback,
          at: appendPointer(at, "discriminator", "defaultMapping"),
        },
      ]
    : mapped;
}

/** The root's component schemas, by name. */
function componentSchemas(root: Record<string, unknown>): Record<string, unknown> {
  return isRecord(root.components) && isRecord(root.components.schemas) ? root.components.schemas : {};
}

/**
 * The file and pointer (or anchor) a reference names, or undefined for a URL no file stands for
 * (left to bundling) or an anchor within the file (left to the schema compiler). A relative
 * reference that an `$id` or `$self` turns into a URL no file stands for cannot be read from a
 * file: that is an error, never a guess.
 */
function targetOf(
  { file, bases, by = "$id" }: { readonly file: string; readonly bases: SelfBases; readonly by?: "$id" | "$self" },
  ref: string,
  base: string,
  resource: string,
  at: string,
): WrittenRef["target"] | undefined {
  if (ref.startsWith("#")) {
    const fragment = ref.slice(1);
    if (fragment !== "" && !fragment.startsWith("/")) return undefined;
    return { file, pointer: resource + pointerOf(fragment) };
  }
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(ref);
  const url = new URL(ref, base);
  const target = bases.fileOf(url, file);
  if (target === undefined) {
    if (absolute) return undefined;
    throw new Error(
      by === "$id"
        ? `the $ref "${ref}" at ${file}#${at} reads against the $id around it as ${url.href}, which is not a file of the document: refer to the file by a path from this file, or give the $id as a path (such as "./schemas/")`
        : `the $ref "${ref}" at ${file}#${at} reads against the document's $self as ${url.href}, which is not a file of the document (no document read or beside the entry names itself so by its $self, and it is not beside the $self of one): refer to the file by a path from the $self, or give $self as a path (such as "./v2/openapi.yaml") or as a URL of the same origin as the others`,
    );
  }
  const fragment = decodeURIComponent(url.hash.slice(1));
  if (fragment !== "" && !fragment.startsWith("/")) return { file: target, anchor: fragment };
  return { file: target, pointer: pointerOf(fragment) };
}

function pointerOf(fragment: string): string {
  return fragment === "" ? "" : appendPointer("", ...pointerSegments(`#${fragment}`));
}

/** The reference with its target as a pointer: an `$anchor` of another file found in it. */
function withPointer(found: WrittenRef, document: unknown): FoundRef {
  if ("pointer" in found.target) return { ...found, target: found.target };
  const pointer = findAnchor(document, found.target.anchor);
  if (pointer === undefined) {
    throw new Error(
      `the $ref "${found.ref}" at ${found.file}#${found.at} names the $anchor "${found.target.anchor}", which ${found.target.file} does not declare: add "$anchor: ${found.target.anchor}" to the schema meant, or refer to it by a JSON pointer`,
    );
  }
  // the reference now names the schema by its pointer, as bundling reads references
  found.holder[found.key] = found.ref.replace(/#.*$/, `#${pointer}`);
  const { holder, key, mapping, file, at } = found;
  return { holder, key, mapping, file, at, target: { file: found.target.file, pointer } };
}

/** The pointer of the schema declaring `$anchor: name` in a file's own resource (not under another `$id`). */
function findAnchor(document: unknown, name: string): string | undefined {
  const visit = (node: unknown, at: string): string | undefined => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) {
        const found = visit(item, appendPointer(at, index));
        if (found !== undefined) return found;
      }
      return undefined;
    }
    if (!isRecord(node) || (at !== "" && typeof node.$id === "string")) return undefined;
    if (node.$anchor === name) return at;
    for (const [key, child] of Object.entries(node)) {
      if (key === "enum" || key === "const" || key === "example" || key === "examples") continue;
      const found = visit(child, appendPointer(at, key));
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return visit(document, "");
}

/**
 * Removes the `$id`s of another file that name places in files (`./nested/`): every reference
 * they changed the meaning of now points at a component, and in the bundled document they would
 * change the meaning of those references again.
 */
function dropFileIds(document: unknown, base: string, isFile: (url: URL) => boolean): void {
  if (Array.isArray(document)) {
    for (const item of document) dropFileIds(item, base, isFile);
    return;
  }
  if (!isRecord(document)) return;
  let inner = base;
  if (typeof document.$id === "string") {
    const url = new URL(document.$id, base);
    inner = url.href;
    if (isFile(url)) delete document.$id;
  }
  for (const [key, child] of Object.entries(document))
    if (key !== "enum" && key !== "const" && key !== "example" && key !== "examples") dropFileIds(child, inner, isFile);
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
  const components = componentSchemas(root);
  const names = new Map<string, string>();
  // a component that is nothing but a reference to the schema names it
  for (const [name, value] of Object.entries(components)) {
    const at = appendPointer("", "components", "schemas", name);
    const written =
      isRecord(value) && typeof value.$ref === "string" && Object.keys(value).length === 1
        ? targetOf({ file: rootFile, bases: new SelfBases() }, value.$ref, pathToFileURL(rootFile).href, "", at)
        : undefined;
    const target = written !== undefined && "pointer" in written ? written : undefined;
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
