import type { Finding } from "../findings/finding.js";
import { classifyKeyword } from "../findings/keyword-change.js";
import { sameJson } from "../findings/stable-json.js";
import { compareDiscriminators } from "./compare-discriminator.js";
import { plainFinding, type SchemaContext } from "./schema-context.js";
import type { Keyword, Shape } from "./shape.js";

/** Documentation, deprecation, the discriminator, and the keywords no rule classifies (each reported as unclassified). */
export function compareExtras(ctx: SchemaContext, base: Shape, head: Shape): Finding[] {
  const deprecated = (shape: Shape): Map<string, Keyword> =>
    new Map(shape.deprecated ? [["deprecated", { value: true, pointer: shape.pointer }]] : []);
  return [
    ...changedKeywords(ctx, base.docs, head.docs, head),
    ...changedKeywords(ctx, deprecated(base), deprecated(head), head),
    ...compareDiscriminators(ctx, base, head),
    ...changedKeywords(ctx, withoutDiscriminator(base.other), withoutDiscriminator(head.other), head),
  ];
}

/** The unclassified keywords but the discriminator, which compare-discriminator.ts reads. */
function withoutDiscriminator(other: ReadonlyMap<string, Keyword>): ReadonlyMap<string, Keyword> {
  return new Map([...other].filter(([key]) => key !== "discriminator"));
}

function changedKeywords(
  ctx: SchemaContext,
  before: ReadonlyMap<string, Keyword>,
  after: ReadonlyMap<string, Keyword>,
  head: Shape,
): Finding[] {
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort();
  return keys.flatMap((key) => {
    const [old, now] = [before.get(key), after.get(key)];
    if (sameJson(old?.value, now?.value)) return [];
    const { rule, what } = classifyKeyword(key, old?.value, now?.value);
    return [
      plainFinding(ctx, rule, {
        pointer: now?.pointer ?? old?.pointer ?? head.pointer,
        at: now?.pointer ?? head.pointer,
        before: old?.value,
        after: now?.value,
        what,
      }),
    ];
  });
}
