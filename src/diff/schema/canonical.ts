import { hash as digestText } from "node:crypto";
import { isRecord } from "../../json-value.js";
import { stableStringify } from "../findings/stable-json.js";
import { partsKey, shapeOf } from "./normalize.js";
import type { Branching, Keyword, SchemaDoc, SchemaParts, Shape } from "./shape.js";

/**
 * What a digest covers: a schema's `meaning` (what it accepts and the type it generates), or
 * its `fingerprint` (the meaning and its documentation: everything the comparison looks at).
 */
export type DigestKind = "meaning" | "fingerprint";

/**
 * A digest of a schema's normal form all the way down: $refs replaced by what they point at (so
 * component names, key order and allOf structure do not count), each child by its own digest, so
 * a schema shared by many others is worked out once per document. A $ref back into a schema
 * being worked out becomes a marker of that schema's own level.
 */
export function schemaDigest(doc: SchemaDoc, parts: SchemaParts, kind: DigestKind): string {
  return digestOf(doc, parts, kind, new Set());
}

/**
 * `active` holds the $ref targets being worked out above (added and removed on the way down and
 * up). A digest is kept by its $ref target, or by the pointers of its parts when no $ref is being
 * worked out above (it then depends on nothing else): each level of a comparison asks for the
 * digest of what lies below it, which would otherwise be worked out again at every level.
 */
function digestOf(doc: SchemaDoc, parts: SchemaParts, kind: DigestKind, active: Set<string>): string {
  const target = onlyRef(parts);
  const key =
    target !== undefined ? `${kind} ${target}` : active.size === 0 ? `${kind} @${partsKey(parts)}` : undefined;
  const known = key === undefined ? undefined : doc.memo.digests.get(key);
  if (known !== undefined) return known;
  const shape = shapeOf(doc, parts);
  const loop = shape.refs.find((ref) => active.has(ref));
  if (loop !== undefined) return hash(stableStringify({ loop: levelOf(shape, kind) }));
  const entered = shape.refs.filter((ref) => !active.has(ref));
  for (const ref of entered) active.add(ref);
  const child = (schema: SchemaParts): string => digestOf(doc, schema, kind, active);
  // the keys in sorted order, as the digest's text lists them (stableStringify then copies nothing)
  const level = levelOf(shape, kind);
  const digest = hash(
    stableStringify({
      additional: typeof shape.additional === "string" ? shape.additional : child(shape.additional),
      branchings: shape.branchings.map((b) => ({ branches: branchDigests(b, child), keyword: b.keyword })),
      conditionals: shape.conditionals.map((c) =>
        [c.condition, c.thenBranch, c.elseBranch].map((parts) => (parts === undefined ? null : child(parts))),
      ),
      dependentRequired: level.dependentRequired,
      deprecated: level.deprecated,
      ...(level.docs !== undefined ? { docs: level.docs } : {}),
      enum: level.enum,
      indexSignature: level.indexSignature,
      items: shape.items === undefined ? null : child(shape.items),
      keywords: level.keywords,
      never: level.never,
      nullable: level.nullable,
      other: level.other,
      prefixItems: shape.prefixItems.map(child),
      properties: Object.fromEntries([...shape.properties].map(([name, schema]) => [name, child(schema)])),
      readOnly: level.readOnly,
      required: level.required,
      subschemas: Object.fromEntries([...shape.subschemas].map(([name, subschema]) => [name, child(subschema.parts)])),
      types: level.types,
      writeOnly: level.writeOnly,
    }),
  );
  for (const ref of entered) active.delete(ref);
  if (key !== undefined) doc.memo.digests.set(key, digest);
  return digest;
}

/** The digests of a branching's branches, in order of digest; an anyOf branch the same as another adds nothing, so is counted once. */
function branchDigests(branching: Branching, child: (schema: SchemaParts) => string): string[] {
  const digests = branching.branches.map(child).sort();
  return branching.keyword === "anyOf" ? [...new Set(digests)] : digests;
}

/** The target of parts that are one $ref and nothing else. */
function onlyRef(parts: SchemaParts): string | undefined {
  const [first] = parts;
  if (parts.length !== 1 || !isRecord(first?.value) || Object.keys(first.value).length !== 1) return undefined;
  return typeof first.value.$ref === "string" ? first.value.$ref : undefined;
}

/** The parts of one level that need no recursion, by their keys in sorted order. */
function levelOf(shape: Shape, kind: DigestKind) {
  return {
    dependentRequired: Object.fromEntries(
      [...shape.dependentRequired].map(([name, names]) => [name, [...names].sort()]),
    ),
    deprecated: shape.deprecated,
    ...(kind === "fingerprint" ? { docs: valuesOf(shape.docs) } : {}),
    enum: shape.enumValues === undefined ? null : [...shape.enumValues].sort(),
    indexSignature: shape.indexSignature,
    keywords: valuesOf(shape.keywords),
    never: shape.never,
    nullable: shape.nullable,
    other: valuesOf(shape.other),
    readOnly: shape.readOnly,
    required: [...shape.required].sort(),
    types: shape.types === undefined ? null : [...shape.types].sort(),
    writeOnly: shape.writeOnly,
  };
}

function valuesOf(keywords: ReadonlyMap<string, Keyword>): Record<string, unknown> {
  return Object.fromEntries([...keywords].map(([key, keyword]) => [key, keyword.value]));
}

function hash(text: string): string {
  return digestText("sha1", text, "base64");
}
