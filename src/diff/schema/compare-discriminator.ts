/**
 * An OpenAPI discriminator compared: its `propertyName` and the tag values its mapping gives
 * (explicit entries, then the component names of `$ref` branches no entry names). A reader that
 * picks the branch by the property (a generated server, a client's deserialiser) no longer finds
 * it when the property is renamed: breaking in requests and responses alike. The mapping is a
 * hint beside oneOf/anyOf validation (OpenAPI 3.1), so a tag value dropped or pointed at another
 * schema, and a discriminator added or removed, are warnings to review; a tag value added is new
 * to readers of responses (a warning, as an enum value added is) and to nobody in requests.
 * `defaultMapping` (OpenAPI 3.2) is no hint: it is the only schema an object without a tag (or
 * with one nothing maps) is read by. Added, a request may leave the tag out (and a response may
 * come without it, a warning as a tag value added is); removed, such a request is refused (and
 * responses come tagged); pointed at another schema, untagged objects are read as another shape,
 * breaking both ways.
 */
import { appendPointer } from "../../json-pointer.js";
import { isRecord } from "../../json-value.js";
import { componentSchemaName } from "../../model/schemas.js";
import { mappingRef } from "../../schema/discriminator.js";
import type { Finding } from "../findings/finding.js";
import { schemaDigest } from "./canonical.js";
import { type SchemaContext, schemaFinding } from "./schema-context.js";
import type { SchemaDoc, Shape } from "./shape.js";

/** A discriminator as read from one side: the property, and each tag value's target. */
interface Discriminator {
  readonly pointer: string;
  readonly propertyName: string;
  /** tag value → the target's $ref and the digest of what it means */
  readonly mapping: ReadonlyMap<string, Target>;
  /** what `defaultMapping` names, if it is given */
  readonly fallback?: Target;
}

/** What a tag value (or the default) selects: the $ref, and the digest of what it means. */
interface Target {
  readonly ref: string;
  readonly meaning: string;
}

/** The discriminator changes of one level. */
export function compareDiscriminators(ctx: SchemaContext, base: Shape, head: Shape): Finding[] {
  const [before, after] = [readDiscriminator(ctx.base, base), readDiscriminator(ctx.head, head)];
  if (before === undefined && after === undefined) return [];
  if (before === undefined || after === undefined) {
    const present = (after ?? before) as Discriminator;
    const what = `discriminator on \`${present.propertyName}\` ${after === undefined ? "removed" : "added"}: readers that pick the branch by it ${after === undefined ? "lose" : "gain"} the hint`;
    return [
      schemaFinding(ctx, "discriminator-changed", { pointer: present.pointer, at: head.pointer, what, typed: false }),
    ];
  }
  if (before.propertyName !== after.propertyName) {
    const what = `discriminator property renamed from \`${before.propertyName}\` to \`${after.propertyName}\`: readers that pick the branch by it look for the new name`;
    return [
      schemaFinding(ctx, "discriminator-property-changed", {
        pointer: appendPointer(after.pointer, "propertyName"),
        before: before.propertyName,
        after: after.propertyName,
        what,
      }),
    ];
  }
  return [...mappingChanges(ctx, before, after), ...defaultChanges(ctx, before, after)];
}

/** `defaultMapping` added, removed, or pointed at a schema of another meaning. */
function defaultChanges(ctx: SchemaContext, before: Discriminator, after: Discriminator): Finding[] {
  const [was, is] = [before.fallback, after.fallback];
  if (was?.meaning === is?.meaning) return [];
  const change = {
    pointer: appendPointer(after.pointer, "defaultMapping"),
    before: was?.ref,
    after: is?.ref,
    typed: false,
  };
  const untagged = `objects without \`${after.propertyName}\` (or with a value nothing maps)`;
  if (was === undefined)
    return [
      schemaFinding(ctx, "discriminator-default-mapping-added", {
        ...change,
        what: `discriminator default ${is?.ref} added: ${untagged} are read by it`,
      }),
    ];
  if (is === undefined)
    return [
      schemaFinding(ctx, "discriminator-default-mapping-removed", {
        ...change,
        what: `discriminator default ${was.ref} removed: ${untagged} are refused`,
      }),
    ];
  return [
    schemaFinding(ctx, "discriminator-default-mapping-changed", {
      ...change,
      what: `discriminator default now ${is.ref}, not ${was.ref}: ${untagged} are read by it`,
    }),
  ];
}

function mappingChanges(ctx: SchemaContext, before: Discriminator, after: Discriminator): Finding[] {
  const values = [...new Set([...before.mapping.keys(), ...after.mapping.keys()])].sort();
  return values.flatMap((value) => {
    const [was, is] = [before.mapping.get(value), after.mapping.get(value)];
    if (was?.meaning === is?.meaning) return [];
    const change = { pointer: appendPointer(after.pointer, "mapping"), before: was?.ref, after: is?.ref, typed: false };
    if (was === undefined)
      return [
        schemaFinding(ctx, "discriminator-mapping-added", {
          ...change,
          what: `discriminator value "${value}" added (${is?.ref})`,
        }),
      ];
    const what =
      is === undefined
        ? `discriminator value "${value}" (${was.ref}) no longer mapped: readers no longer pick a branch by it`
        : `discriminator value "${value}" now picks ${is.ref}, not ${was.ref}`;
    return [schemaFinding(ctx, "discriminator-changed", { ...change, what })];
  });
}

/** The discriminator of a level that has oneOf/anyOf branches, with its mapping made explicit. */
function readDiscriminator(doc: SchemaDoc, shape: Shape): Discriminator | undefined {
  const keyword = shape.other.get("discriminator");
  const value = keyword?.value;
  if (keyword === undefined || !isRecord(value) || typeof value.propertyName !== "string") return undefined;
  const explicit = isRecord(value.mapping) ? value.mapping : {};
  const mapping = new Map<string, string>();
  for (const [tag, target] of Object.entries(explicit))
    if (typeof target === "string") mapping.set(tag, mappingRef(target));
  const named = new Set(mapping.values());
  for (const branch of shape.branchings.flatMap((branching) => branching.branches)) {
    const ref = branch.length === 1 && isRecord(branch[0]?.value) ? branch[0].value.$ref : undefined;
    const name = componentSchemaName(ref);
    if (typeof ref === "string" && name !== undefined && !named.has(ref) && !mapping.has(name)) mapping.set(name, ref);
  }
  const fallback =
    typeof value.defaultMapping === "string"
      ? withMeaning(doc, mappingRef(value.defaultMapping), keyword.pointer, ["defaultMapping"])
      : undefined;
  return {
    pointer: keyword.pointer,
    propertyName: value.propertyName,
    mapping: withMeanings(doc, mapping, keyword.pointer),
    ...(fallback === undefined ? {} : { fallback }),
  };
}

/**
 * Each tag value's target with the digest of what it means, so that a component renamed (the
 * same schema under another name) is no change; a target outside the document is its text.
 */
function withMeanings(doc: SchemaDoc, mapping: ReadonlyMap<string, string>, pointer: string): Map<string, Target> {
  return new Map([...mapping].map(([tag, ref]) => [tag, withMeaning(doc, ref, pointer, ["mapping", tag])]));
}

function withMeaning(doc: SchemaDoc, ref: string, pointer: string, at: readonly string[]): Target {
  const meaning = ref.startsWith("#/")
    ? schemaDigest(doc, [{ value: { $ref: ref }, pointer: appendPointer(pointer, ...at) }], "meaning")
    : ref;
  return { ref, meaning };
}
