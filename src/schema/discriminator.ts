import { escapePointerSegment, unescapePointerSegment } from "../json-pointer.js";
import { isRecord, type JsonObject } from "../json-value.js";
import type { DialectRules } from "./dialect.js";
import { followRefs } from "./refs.js";
import type { SchemaTree } from "./tree.js";

/** What a tag value selects: a branch (its index), a schema outside the branches (its location), or "ambiguous" (plain oneOf/anyOf). */
export type DiscriminatorCase<L> = number | { readonly location: L } | "ambiguous";

/** An OpenAPI discriminator, read. */
export interface Discrimination<L> {
  readonly propertyName: string;
  /** "oneOf" or "anyOf": the keyword whose branches the tag selects from */
  readonly keyword: "oneOf" | "anyOf";
  /** tag value → what it selects, the mapping's first (in its order), then the branches' (in theirs) */
  readonly cases: ReadonlyMap<string, DiscriminatorCase<L>>;
  /**
   * what `defaultMapping` (OpenAPI 3.2) selects when the tag is absent or selects nothing: a branch
   * or a schema outside them; undefined without one (such a tag is then an error)
   */
  readonly fallback?: number | { readonly location: L };
}

interface Branch<L> {
  readonly index: number;
  readonly target: L | undefined;
  /** where the branch's schema is: its `$ref`'s target, or the branch itself */
  readonly location: L;
}

const COMPONENT_PREFIX = "/components/schemas/";

/**
 * The discriminator of the schema at `location`, or undefined when it has none to honour (no
 * OpenAPI, no oneOf/anyOf). Tag values come from `mapping` (a bare name is a component schema),
 * then, for branches the mapping does not name, the component name of a `$ref` branch and the
 * `const`/`enum` of the branch's tag property; a value several branches claim is "ambiguous",
 * left to plain oneOf/anyOf validation. `defaultMapping` (a name or a reference, as a mapping value)
 * is what a tag that is absent or selects nothing selects. References resolve from the discriminated
 * schema.
 */
export function readDiscriminator<L>(
  tree: SchemaTree<L>,
  rules: DialectRules,
  schema: JsonObject,
  location: L,
): Discrimination<L> | undefined {
  const discriminator = schema["discriminator"];
  if (!rules.openApi || !isRecord(discriminator)) return undefined;
  const keyword = Array.isArray(schema["oneOf"]) ? "oneOf" : Array.isArray(schema["anyOf"]) ? "anyOf" : undefined;
  if (keyword === undefined) return undefined;
  const where = tree.child(location, "discriminator");
  const propertyName = discriminator["propertyName"];
  if (typeof propertyName !== "string")
    tree.fail(tree.child(where, "propertyName"), "discriminator.propertyName must be a string naming the tag property");
  const branches = readBranches(tree, schema[keyword] as unknown[], location, keyword);
  const cases = new Map<string, DiscriminatorCase<L>>();
  const mapped = readMapping(tree, discriminator["mapping"], location, branches, cases);
  const unmapped = branches.filter((branch) => branch.target === undefined || !mapped.has(tree.key(branch.target)));
  addImplicit(tree, unmapped, propertyName, cases);
  const fallback = readDefault(tree, discriminator["defaultMapping"], location, branches);
  return { propertyName, keyword, cases, ...(fallback === undefined ? {} : { fallback }) };
}

/** What `defaultMapping` selects: the branch it names, or the schema outside them. */
function readDefault<L>(
  tree: SchemaTree<L>,
  value: unknown,
  location: L,
  branches: readonly Branch<L>[],
): Discrimination<L>["fallback"] {
  if (value === undefined) return undefined;
  const at = tree.child(location, "discriminator", "defaultMapping");
  if (typeof value !== "string") tree.fail(at, "discriminator.defaultMapping must be a $ref string or a schema name");
  const target = tree.follow(mappingRef(value), location, at);
  if (target === undefined) return undefined;
  const branch = branches.find(
    (candidate) => candidate.target !== undefined && tree.key(candidate.target) === tree.key(target),
  );
  return branch === undefined ? { location: target } : branch.index;
}

/** A mapping value as a reference: a bare name is the component schema of that name. */
export function mappingRef(value: string): string {
  return value.includes("/") || value.includes("#") ? value : `#${COMPONENT_PREFIX}${escapePointerSegment(value)}`;
}

function readBranches<L>(tree: SchemaTree<L>, branches: readonly unknown[], location: L, keyword: string): Branch<L>[] {
  return branches.map((schema, index) => {
    const at = tree.child(location, keyword, index);
    if (!isRecord(schema) || typeof schema["$ref"] !== "string") return { index, target: undefined, location: at };
    const target = tree.follow(schema["$ref"], location, tree.child(at, "$ref"));
    return { index, target, location: target ?? at };
  });
}

function readMapping<L>(
  tree: SchemaTree<L>,
  mapping: unknown,
  location: L,
  branches: readonly Branch<L>[],
  cases: Map<string, DiscriminatorCase<L>>,
): Set<string> {
  const mapped = new Set<string>();
  if (mapping === undefined) return mapped;
  const at = tree.child(location, "discriminator", "mapping");
  if (!isRecord(mapping)) tree.fail(at, "discriminator.mapping must map tag values to schema references");
  for (const tag of Object.keys(mapping)) {
    const value = mapping[tag];
    if (typeof value !== "string")
      tree.fail(tree.child(at, tag), "a discriminator mapping value must be a $ref string or a schema name");
    const target = tree.follow(mappingRef(value), location, tree.child(at, tag));
    if (target === undefined) continue;
    const branch = branches.find(
      (candidate) => candidate.target !== undefined && tree.key(candidate.target) === tree.key(target),
    );
    cases.set(tag, branch === undefined ? { location: target } : branch.index);
    mapped.add(tree.key(target));
  }
  return mapped;
}

function addImplicit<L>(
  tree: SchemaTree<L>,
  branches: readonly Branch<L>[],
  propertyName: string,
  cases: Map<string, DiscriminatorCase<L>>,
): void {
  const claims = new Map<string, Set<number>>();
  const claim = (value: string, index: number): void => {
    if (cases.has(value)) return;
    const owners = claims.get(value) ?? new Set<number>();
    owners.add(index);
    claims.set(value, owners);
  };
  for (const branch of branches) {
    const name = branch.target === undefined ? undefined : componentName(tree.pointer(branch.target));
    if (name !== undefined) claim(name, branch.index);
    for (const value of tagValues(tree, branch.location, propertyName)) claim(value, branch.index);
  }
  for (const [value, owners] of claims)
    cases.set(value, owners.size === 1 ? ([...owners][0] ?? "ambiguous") : "ambiguous");
}

/** The component a pointer names ("/components/schemas/Pet" → "Pet"), if it names one. */
function componentName(pointer: string): string | undefined {
  if (!pointer.startsWith(COMPONENT_PREFIX)) return undefined;
  const token = pointer.slice(COMPONENT_PREFIX.length);
  return token.includes("/") ? undefined : unescapePointerSegment(token);
}

/**
 * String `const`/`enum` values of the tag property, looked for in the branch, its allOf,
 * anyOf and oneOf parts (a branch may itself be a union), a few levels deep.
 */
function tagValues<L>(tree: SchemaTree<L>, location: L, propertyName: string, depth = 0): string[] {
  const found = followRefs(tree, tree.at(location), location, 8);
  if (found === undefined || depth > 4) return [];
  const { node, location: at } = found;
  const properties = node["properties"];
  const own =
    isRecord(properties) && Object.hasOwn(properties, propertyName)
      ? valuesOf(tree, tree.child(at, "properties", propertyName), 0)
      : [];
  return [...own, ...parts(tree, node, at).flatMap((part) => tagValues(tree, part, propertyName, depth + 1))];
}

/** The `const`/`enum` strings a tag property schema allows (through anyOf/oneOf and `$ref`). */
function valuesOf<L>(tree: SchemaTree<L>, location: L, depth: number): string[] {
  const found = followRefs(tree, tree.at(location), location, 8);
  if (found === undefined || depth > 4) return [];
  const { node, location: at } = found;
  const values = node["const"] !== undefined ? [node["const"]] : Array.isArray(node["enum"]) ? node["enum"] : [];
  const strings = values.filter((value): value is string => typeof value === "string");
  return [...strings, ...parts(tree, node, at).flatMap((part) => valuesOf(tree, part, depth + 1))];
}

/** The locations of a node's allOf, anyOf and oneOf parts. */
function parts<L>(tree: SchemaTree<L>, node: JsonObject, location: L): L[] {
  return ["allOf", "anyOf", "oneOf"].flatMap((keyword) => {
    const list = node[keyword];
    return Array.isArray(list) ? list.map((_part, index) => tree.child(location, keyword, index)) : [];
  });
}
