import type { Finding } from "../findings/finding.js";
import { schemaDigest } from "./canonical.js";
import type { CompareSchemas } from "./compare-object.js";
import { compareSubschemaPair } from "./compare-subschemas.js";
import { type SchemaContext, schemaFinding } from "./schema-context.js";
import type { Conditional, SchemaParts, Shape } from "./shape.js";

/**
 * if/then/else, matched by position. With the same condition (or a condition on one side only,
 * which is `then` and `else` accepting anything on the other), `then` and `else` are compared as
 * any subschema is: inside, or added and removed. A condition that changed moves values between
 * `then` and `else`: which values are valid changed, in a way that is not worked out.
 */
export function compareConditionals(ctx: SchemaContext, base: Shape, head: Shape, compare: CompareSchemas): Finding[] {
  if (base.never || head.never) return [];
  const count = Math.max(base.conditionals.length, head.conditionals.length);
  return Array.from({ length: count }, (_, index) =>
    compareConditional(ctx, { before: base.conditionals[index], after: head.conditionals[index] }, head, compare),
  ).flat();
}

interface ConditionalPair {
  readonly before: Conditional | undefined;
  readonly after: Conditional | undefined;
}

function compareConditional(
  ctx: SchemaContext,
  { before, after }: ConditionalPair,
  head: Shape,
  compare: CompareSchemas,
): Finding[] {
  if (before !== undefined && after !== undefined && !sameMeaning(ctx, before.condition, after.condition)) {
    const what =
      "the `if` condition changed: values move between `then` and `else`, and which of them are valid is not worked out";
    return [schemaFinding(ctx, "constraint-changed", { pointer: after.pointer, what, typed: false })];
  }
  const branch = (label: "then" | "else", pick: (conditional: Conditional) => SchemaParts | undefined): Finding[] => {
    const [old, now] = [before === undefined ? undefined : pick(before), after === undefined ? undefined : pick(after)];
    return compareSubschemaPair(
      ctx,
      { label, ...(old !== undefined ? { before: old } : {}), ...(now !== undefined ? { after: now } : {}) },
      head,
      compare,
    );
  };
  return [...branch("then", (c) => c.thenBranch), ...branch("else", (c) => c.elseBranch)];
}

function sameMeaning(ctx: SchemaContext, before: SchemaParts, after: SchemaParts): boolean {
  return schemaDigest(ctx.base, before, "meaning") === schemaDigest(ctx.head, after, "meaning");
}
