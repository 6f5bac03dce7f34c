import { createHash } from "node:crypto";
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
  const digest = hash(
    stableStringify({
      ...levelOf(shape, kind),
      properties: Object.fromEntries([...shape.properties].map(([name, schema]) => [name, child(schema)])),
      additional: typeof shape.additional === "string" ? shape.additional : child(shape.additional),
      items: shape.items === undefined ? null : child(shape.items),
      prefixItems: shape.prefixItems.map(child),
      subschemas: Object.fromEntries([...shape.subschemas].map(([name, subschema]) => [name, child(subschema.parts)])),
      conditionals: shape.conditionals.map((c) =>
        [c.condition, c.thenBranch, c.elseBranch].map((parts) => (parts === undefined ? null : child(parts))),
      ),
      branchings: shape.branchings.map((b) => ({ keyword: b.keyword, branches: branchDigests(b, child) })),
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

/** The parts of one level that need no recursion. */
function levelOf(shape: Shape, kind: DigestKind): Record<string, unknown> {
  return {
    never: shape.never,
    types: shape.types === undefined ? null : [...shape.types].sort(),
    nullable: shape.nullable,
    enum: shape.enumValues === undefined ? null : [...shape.enumValues].sort(),
    required: [...shape.required].sort(),
    dependentRequired: Object.fromEntries(
      [...shape.dependentRequired].map(([name, names]) => [name, [...names].sort()]),
    ),
    indexSignature: shape.indexSignature,
    keywords: valuesOf(shape.keywords),
    other: valuesOf(shape.other),
    readOnly: shape.readOnly,
    writeOnly: shape.writeOnly,
    deprecated: shape.deprecated,
    ...(kind === "fingerprint" ? { docs: valuesOf(shape.docs) } : {}),
  };
}

function valuesOf(keywords: ReadonlyMap<string, Keyword>): Record<string, unknown> {
  return Object.fromEntries([...keywords].map(([key, keyword]) => [key, keyword.value]));
}

function hash(text: string): string {
  return createHash("sha1").update(text).digest("base64");
}
