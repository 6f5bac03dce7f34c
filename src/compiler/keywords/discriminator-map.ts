import { escapePointerSegment, unescapePointerSegment } from "../../json-pointer.js";
import { isRecord, type JsonObject } from "../../json-value.js";
import { SchemaCompileError } from "../errors.js";
import { childLocation, locationKey, type SchemaLocation } from "../registry/location.js";
import type { SchemaRegistry } from "../registry/registry.js";

/** What a tag value selects: a branch index, a schema outside the branches, or "ambiguous" (plain oneOf/anyOf). */
export type DiscriminatorCase = number | SchemaLocation | "ambiguous";

/** An OpenAPI discriminator resolved at generation time. */
export interface Discrimination {
  readonly propertyName: string;
  /** "oneOf" or "anyOf": the keyword whose branches the tag selects from */
  readonly keyword: "oneOf" | "anyOf";
  readonly cases: ReadonlyMap<string, DiscriminatorCase>;
}

interface Branch {
  readonly index: number;
  readonly target: SchemaLocation | undefined;
  readonly schema: unknown;
}

const COMPONENT_PREFIX = "/components/schemas/";

/**
 * The discriminator of a schema with oneOf/anyOf, or undefined when it has none to honour.
 * Tag values come from `mapping`, then (for unmapped branches) the component name of a `$ref`
 * branch and the `const`/`enum` of the branch's tag property; a value claimed by several
 * branches is left to plain oneOf/anyOf validation.
 */
export function readDiscriminator(registry: SchemaRegistry, schema: JsonObject, at: SchemaLocation, base: string): Discrimination | undefined {
  const discriminator = schema["discriminator"];
  if (!registry.rules.openApi || !isRecord(discriminator)) return undefined;
  const keyword = Array.isArray(schema["oneOf"]) ? "oneOf" : Array.isArray(schema["anyOf"]) ? "anyOf" : undefined;
  if (keyword === undefined) return undefined;
  const where = childLocation(at, "discriminator");
  const propertyName = discriminator["propertyName"];
  if (typeof propertyName !== "string") {
    throw new SchemaCompileError(`${registry.pointer(where)}/propertyName`, "discriminator.propertyName must be a string naming the tag property");
  }
  const branches = readBranches(registry, schema[keyword] as unknown[], childLocation(at, keyword), base);
  const cases = new Map<string, DiscriminatorCase>();
  const mapped = readMapping(registry, discriminator["mapping"], childLocation(where, "mapping"), base, branches, cases);
  addImplicit(
    registry,
    branches.filter((branch) => branch.target === undefined || !mapped.has(locationKey(branch.target))),
    propertyName,
    cases,
  );
  return { propertyName, keyword, cases };
}

function readBranches(registry: SchemaRegistry, branches: readonly unknown[], at: SchemaLocation, base: string): Branch[] {
  return branches.map((schema, index) => {
    if (!isRecord(schema) || typeof schema["$ref"] !== "string") return { index, target: undefined, schema };
    const target = registry.resolveRef(schema["$ref"], base, childLocation(at, index, "$ref"));
    return { index, target, schema: registry.schemaAt(target) };
  });
}

function readMapping(registry: SchemaRegistry, mapping: unknown, at: SchemaLocation, base: string, branches: readonly Branch[], cases: Map<string, DiscriminatorCase>): Set<string> {
  const mapped = new Set<string>();
  if (mapping === undefined) return mapped;
  if (!isRecord(mapping)) throw new SchemaCompileError(registry.pointer(at), "discriminator.mapping must map tag values to schema references");
  for (const tag of Object.keys(mapping)) {
    const value = mapping[tag];
    if (typeof value !== "string") throw new SchemaCompileError(registry.pointer(childLocation(at, tag)), "a discriminator mapping value must be a $ref string or a schema name");
    const ref = value.includes("/") || value.includes("#") ? value : `#${COMPONENT_PREFIX}${escapePointerSegment(value)}`;
    const target = registry.resolveRef(ref, base, childLocation(at, tag));
    const branch = branches.find((candidate) => candidate.target !== undefined && locationKey(candidate.target) === locationKey(target));
    cases.set(tag, branch === undefined ? target : branch.index);
    mapped.add(locationKey(target));
  }
  return mapped;
}

function addImplicit(registry: SchemaRegistry, branches: readonly Branch[], propertyName: string, cases: Map<string, DiscriminatorCase>): void {
  const claims = new Map<string, Set<number>>();
  const claim = (value: string, index: number): void => {
    if (cases.has(value)) return;
    const owners = claims.get(value) ?? new Set<number>();
    owners.add(index);
    claims.set(value, owners);
  };
  for (const branch of branches) {
    const name = componentName(branch.target);
    if (name !== undefined) claim(name, branch.index);
    for (const value of tagValues(registry, branch.schema, propertyName)) claim(value, branch.index);
  }
  for (const [value, owners] of claims) cases.set(value, owners.size === 1 ? ([...owners][0] ?? "ambiguous") : "ambiguous");
}

function componentName(target: SchemaLocation | undefined): string | undefined {
  if (target === undefined || !target.ptr.startsWith(COMPONENT_PREFIX)) return undefined;
  const token = target.ptr.slice(COMPONENT_PREFIX.length);
  return token.includes("/") ? undefined : unescapePointerSegment(token);
}

/**
 * String `const`/`enum` values of the tag property, looked for in the branch, its allOf,
 * anyOf and oneOf parts (a branch may itself be a union), a few levels deep.
 */
function tagValues(registry: SchemaRegistry, schema: unknown, propertyName: string, depth = 0): string[] {
  const node = local(registry, schema);
  if (!isRecord(node) || depth > 4) return [];
  const properties = node["properties"];
  const own = isRecord(properties) ? valuesOf(registry, properties[propertyName], 0) : [];
  return [...own, ...parts(node).flatMap((part) => tagValues(registry, part, propertyName, depth + 1))];
}

/** The `const`/`enum` strings a tag property schema allows (through anyOf/oneOf and `$ref`). */
function valuesOf(registry: SchemaRegistry, schema: unknown, depth: number): string[] {
  const node = local(registry, schema);
  if (!isRecord(node) || depth > 4) return [];
  const values = node["const"] !== undefined ? [node["const"]] : Array.isArray(node["enum"]) ? node["enum"] : [];
  const strings = values.filter((value): value is string => typeof value === "string");
  return [...strings, ...parts(node).flatMap((part) => valuesOf(registry, part, depth + 1))];
}

function parts(node: JsonObject): unknown[] {
  return ["allOf", "anyOf", "oneOf"].flatMap((keyword) => (Array.isArray(node[keyword]) ? (node[keyword] as unknown[]) : []));
}

/** Follows same-document `#/...` references (enough for reading tag values). */
function local(registry: SchemaRegistry, schema: unknown): unknown {
  let node = schema;
  for (let hops = 0; hops < 8 && isRecord(node) && typeof node["$ref"] === "string" && node["$ref"].startsWith("#/"); hops++) {
    node = registry.schemaAt({ doc: 0, ptr: safeDecode(node["$ref"].slice(1)) });
  }
  return node;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
