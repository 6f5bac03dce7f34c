import { resolvePointer } from "../../json-pointer.js";
import type { DialectRules } from "../../schema/dialect.js";
import type { SchemaTree } from "../../schema/tree.js";
import type { DynamicAnchors } from "./dynamic-scope.js";
import { SchemaCompileError } from "./errors.js";
import { indexDocument } from "./indexer.js";
import { locationKey, pointerFragment, type SchemaLocation } from "./location.js";
import { META_SCHEMA_PREFIX, META_SCHEMAS } from "./meta-schemas.js";
import { registryTree } from "./tree.js";
import { DEFAULT_BASE_URI, fragmentPointer, resolveUri, splitFragment } from "./uri.js";

/** A document the registry knows: the main document, an inline entry schema or an extra resource. */
export interface RegistryDocument {
  readonly root: unknown;
  /** base URI when the root declares no `$id` */
  readonly retrievalUri: string;
  /** prefix for pointers in messages: "" for the main document and inline schemas, else the URI */
  readonly label: string;
  /** the root is an OpenAPI document rather than a schema */
  readonly openApi: boolean;
  /** whether `retrievalUri` names this document (false for inline schemas, which resolve against the main document) */
  readonly addressable: boolean;
}

/**
 * Documents plus the `$id` / `$anchor` index, and `$ref` resolution against it.
 * Identifiers are registered by `indexDocument` (indexer.ts).
 */
export class SchemaRegistry {
  /** encoded schema-path prefixes, by document and pointer */
  readonly #fragments = new Map<string, string>();
  readonly rules: DialectRules;
  readonly #docs: RegistryDocument[] = [];
  readonly #resources = new Map<string, SchemaLocation>();
  readonly #anchors = new Map<string, SchemaLocation>();
  /** per resource URI, its `$dynamicAnchor`s by name (the first of a name wins, as for `$anchor`) */
  readonly #dynamicAnchors = new Map<string, Map<string, SchemaLocation>>();
  /** every `$dynamicAnchor` location, by name: where a `$dynamicRef` of that name may lead */
  readonly #dynamicByName = new Map<string, SchemaLocation[]>();
  readonly #resourceBases = new Map<string, string>();
  readonly #refCache = new Map<string, SchemaLocation>();
  /** per document, the values found at pointers (documents are not changed while compiling) */
  readonly #found: Map<string, unknown>[] = [];

  /** some schema names a meta-schema other than the standard 2020-12 one in `$schema` */
  customMetaSchemas = false;

  /** the schemas as the OpenAPI schema rules (src/schema/) read them */
  readonly tree: SchemaTree<SchemaLocation>;

  constructor(rules: DialectRules) {
    this.rules = rules;
    this.tree = registryTree(this);
  }

  /** Adds a document and returns its index; the caller indexes it. */
  addDocument(doc: RegistryDocument): number {
    this.#docs.push(doc);
    const index = this.#docs.length - 1;
    if (doc.addressable) this.#resources.set(doc.retrievalUri, { doc: index, ptr: "" });
    return index;
  }

  document(index: number): RegistryDocument {
    const doc = this.#docs[index];
    if (doc === undefined) throw new Error(`unknown document ${index}`);
    return doc;
  }

  /** Records a schema resource (`$id`). */
  addResource(uri: string, location: SchemaLocation): void {
    const existing = this.#resources.get(uri);
    if (existing !== undefined && locationKey(existing) !== locationKey(location)) {
      throw new SchemaCompileError(
        `${this.pointer(location)}/$id`,
        `duplicate $id ${JSON.stringify(uri)}; every $id must be unique`,
      );
    }
    this.#resources.set(uri, location);
    this.#resourceBases.set(locationKey(location), uri);
  }

  /** Records a named anchor (`$anchor`, `$dynamicAnchor`); the first one wins. */
  addAnchor(uri: string, location: SchemaLocation): void {
    if (!this.#anchors.has(uri)) this.#anchors.set(uri, location);
  }

  /** Records a `$dynamicAnchor` of the resource `resource`; `addAnchor` records it for static use too. */
  addDynamicAnchor(resource: string, name: string, location: SchemaLocation): void {
    let anchors = this.#dynamicAnchors.get(resource);
    if (anchors === undefined) {
      anchors = new Map();
      this.#dynamicAnchors.set(resource, anchors);
    }
    if (!anchors.has(name)) anchors.set(name, location);
    const named = this.#dynamicByName.get(name) ?? [];
    named.push(location);
    this.#dynamicByName.set(name, named);
  }

  /** Whether any schema known so far declares a `$dynamicAnchor`. */
  get hasDynamicAnchors(): boolean {
    return this.#dynamicAnchors.size > 0;
  }

  /** The `$dynamicAnchor`s the resource `resource` declares (undefined: none). */
  dynamicAnchors(resource: string): DynamicAnchors | undefined {
    return this.#dynamicAnchors.get(resource);
  }

  /** Every location declaring `$dynamicAnchor: name`, in any resource. */
  dynamicAnchorsNamed(name: string): readonly SchemaLocation[] {
    return this.#dynamicByName.get(name) ?? [];
  }

  /** The URI of the schema resource a location belongs to (its own `$id` applied). */
  resourceOf(location: SchemaLocation): string {
    return this.baseWithin(this.schemaAt(location), this.baseOf(location));
  }

  /** The schema value at a location (undefined when the pointer leads nowhere). */
  schemaAt(location: SchemaLocation): unknown {
    let found = this.#found[location.doc];
    if (found === undefined) {
      found = new Map();
      this.#found[location.doc] = found;
    }
    if (found.has(location.ptr)) return found.get(location.ptr);
    const value = resolvePointer(this.document(location.doc).root, location.ptr);
    found.set(location.ptr, value);
    return value;
  }

  /**
   * The base URI around a location: from the nearest `$id` strictly above it, else the
   * document's. The schema's own `$id` is applied by `baseWithin`.
   */
  baseOf(location: SchemaLocation): string {
    let ptr = location.ptr;
    while (ptr !== "") {
      ptr = ptr.slice(0, ptr.lastIndexOf("/"));
      const base = this.#resourceBases.get(`${location.doc}#${ptr}`);
      if (base !== undefined) return base;
    }
    return this.document(location.doc).retrievalUri;
  }

  /** The location whose `$id` sets the base URI at `location` (itself included); undefined when the document's does. */
  idHolder(location: SchemaLocation): SchemaLocation | undefined {
    let ptr = location.ptr;
    for (;;) {
      if (this.#resourceBases.has(`${location.doc}#${ptr}`)) return { doc: location.doc, ptr };
      if (ptr === "") return undefined;
      ptr = ptr.slice(0, ptr.lastIndexOf("/"));
    }
  }

  /** The base URI inside `schema` when the enclosing base is `base` (applies its `$id`). */
  baseWithin(schema: unknown, base: string): string {
    if (!this.rules.ids || typeof schema !== "object" || schema === null) return base;
    const id = (schema as Record<string, unknown>)["$id"];
    if (typeof id !== "string") return base;
    const absolute = resolveUri(id, base);
    return absolute === undefined ? base : splitFragment(absolute)[0];
  }

  /** Resolves a `$ref` value against a base URI; `at` is the `$ref` keyword, for error messages. */
  resolveRef(ref: string, base: string, at: SchemaLocation): SchemaLocation {
    const cacheKey = `${base}\n${ref}`;
    const cached = this.#refCache.get(cacheKey);
    if (cached !== undefined) return cached;
    const location = this.#resolveUncached(ref, base, at);
    this.#refCache.set(cacheKey, location);
    return location;
  }

  #resolveUncached(ref: string, base: string, at: SchemaLocation): SchemaLocation {
    const absolute = resolveUri(ref, base);
    if (absolute === undefined) this.#unresolved(at, ref, "it is not a valid URI reference");
    const anchored = this.#anchors.get(absolute);
    if (anchored !== undefined) return anchored;
    const [uri, fragment] = splitFragment(absolute);
    const resource = this.#resources.get(uri) ?? this.#metaSchema(uri);
    if (resource === undefined) this.#unresolved(at, ref, `no schema or document is known as ${this.#shown(uri)}`);
    const pointer = fragmentPointer(fragment);
    if (pointer === undefined) this.#unresolved(at, ref, `no $anchor ${JSON.stringify(fragment)} is defined`);
    const location = { doc: resource.doc, ptr: resource.ptr + pointer };
    if (this.schemaAt(location) === undefined) this.#unresolved(at, ref, `nothing exists at ${pointer}`);
    return location;
  }

  /** A 2020-12 meta-schema, added with the others the first time a reference needs one. */
  #metaSchema(uri: string): SchemaLocation | undefined {
    if (!uri.startsWith(META_SCHEMA_PREFIX) || !Object.hasOwn(META_SCHEMAS, uri)) return undefined;
    for (const [id, root] of Object.entries(META_SCHEMAS)) {
      if (this.#resources.has(id)) continue;
      indexDocument(this, this.addDocument({ root, retrievalUri: id, label: id, openApi: false, addressable: true }));
    }
    return this.#resources.get(uri);
  }

  /** The resource a known URI (no fragment) names, a 2020-12 meta-schema included; undefined when none. */
  resource(uri: string): SchemaLocation | undefined {
    return this.#resources.get(uri) ?? this.#metaSchema(uri);
  }

  /** A URI as the author knows it: relative to the document when it is under the document's internal base. */
  #shown(uri: string): string {
    const base = DEFAULT_BASE_URI.slice(0, DEFAULT_BASE_URI.lastIndexOf("/") + 1);
    return uri.startsWith(base) ? `"${uri.slice(base.length)}" (relative to the document)` : uri;
  }

  #unresolved(at: SchemaLocation, ref: string, why: string): never {
    throw new SchemaCompileError(
      this.pointer(at),
      `$ref ${JSON.stringify(ref)} does not resolve: ${why}. Point it at an existing schema (e.g. "#/components/schemas/Name") or add the referenced document.`,
    );
  }

  /** `#/a/b` (raw JSON pointer) for compile errors, prefixed by the document label. */
  pointer(location: SchemaLocation): string {
    return `${this.document(location.doc).label}#${location.ptr}`;
  }

  /** `#/a/b` (URI-fragment encoded) for validation errors' `schemaPath`. */
  schemaPath(location: SchemaLocation): string {
    // The node's own fragment is shared by all its keywords: encode it once.
    const cut = location.ptr.lastIndexOf("/");
    const parent = cut < 0 ? "" : location.ptr.slice(0, cut);
    const key = `${location.doc}#${parent}`;
    let prefix = this.#fragments.get(key);
    if (prefix === undefined) {
      prefix = this.document(location.doc).label + pointerFragment(parent);
      this.#fragments.set(key, prefix);
    }
    return cut < 0 ? prefix : prefix + pointerFragment(location.ptr.slice(cut)).slice(1);
  }
}
