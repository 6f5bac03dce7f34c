import type { Finding } from "../finding.js";
import { schemaDigest } from "./canonical.js";
import type { CompareSchemas } from "./compare-object.js";
import { shapeOf } from "./normalize.js";
import { intoBranch, plainFinding, type SchemaContext, schemaFinding } from "./schema-context.js";
import { type Branching, describeTypes, type SchemaDoc, type SchemaParts, type Shape } from "./shape.js";

/** A branch of one side and what the matching needs to know about it. */
interface Branch {
  readonly index: number;
  readonly parts: SchemaParts;
  readonly shape: Shape;
  readonly canonical: string;
}

/**
 * oneOf/anyOf branches, matched by meaning (not by position or $ref name): equal branches first,
 * then branches of the same types that share a property; a matched pair is compared, the rest
 * are reported as branches removed and added.
 */
export function compareBranchings(ctx: SchemaContext, base: Shape, head: Shape, compare: CompareSchemas): Finding[] {
  const count = Math.max(base.branchings.length, head.branchings.length);
  const findings: Finding[] = [];
  for (let index = 0; index < count; index++) {
    const [before, after] = [base.branchings[index], head.branchings[index]];
    if (before !== undefined && after !== undefined && before.keyword === after.keyword) findings.push(...compareBranches(ctx, before, after, compare));
    else findings.push(reshaped(ctx, before, after, head));
  }
  return findings;
}

function compareBranches(ctx: SchemaContext, before: Branching, after: Branching, compare: CompareSchemas): Finding[] {
  const old = branchesOf(ctx.base, before);
  const now = branchesOf(ctx.head, after);
  const pairs = [...pairBranches(old, now, (a, b) => a.canonical === b.canonical), ...pairBranches(old, now, areSimilar)];
  const keyword = after.keyword;
  const show = (branch: Branch): string => branch.shape.component ?? describeTypes(branch.shape);
  return [
    ...pairs.flatMap(([a, b]) => compare(intoBranch(ctx, keyword, b.index), a.parts, b.parts)),
    ...old.map((branch) =>
      schemaFinding(ctx, `${keyword}-removed`, { pointer: branch.shape.pointer, at: after.pointer, before: show(branch), what: `${keyword} branch #${branch.index + 1} (${show(branch)}) removed` }),
    ),
    ...now.map((branch) => schemaFinding(ctx, `${keyword}-added`, { pointer: branch.shape.pointer, after: show(branch), what: `${keyword} branch #${branch.index + 1} (${show(branch)}) added` })),
  ];
}

function branchesOf(doc: SchemaDoc, branching: Branching): Branch[] {
  return branching.branches.map((parts, index) => ({ index, parts, shape: shapeOf(doc, parts), canonical: schemaDigest(doc, parts, "meaning") }));
}

/** Takes matching pairs out of both lists (which it shortens), first match first. */
function pairBranches(old: Branch[], now: Branch[], matches: (a: Branch, b: Branch) => boolean): [Branch, Branch][] {
  const pairs: [Branch, Branch][] = [];
  for (const branch of [...old]) {
    const match = now.findIndex((candidate) => matches(branch, candidate));
    if (match < 0) continue;
    pairs.push([branch, now[match] as Branch]);
    now.splice(match, 1);
    old.splice(old.indexOf(branch), 1);
  }
  return pairs;
}

/** Same types (and, for objects, a property in common, or none on either side). */
function areSimilar(a: Branch, b: Branch): boolean {
  if (describeTypes(a.shape) !== describeTypes(b.shape)) return false;
  const names = [...a.shape.properties.keys()];
  if (names.length === 0 && b.shape.properties.size === 0) return true;
  return names.some((name) => b.shape.properties.has(name));
}

/** A oneOf/anyOf that appeared, disappeared or changed keyword where the level is not only that: review by hand. */
function reshaped(ctx: SchemaContext, before: Branching | undefined, after: Branching | undefined, head: Shape): Finding {
  const show = (b: Branching | undefined): string => (b === undefined ? "none" : `${b.keyword} of ${b.branches.length}`);
  const pointer = after?.pointer ?? before?.pointer ?? head.pointer;
  const what = `composition changed from ${show(before)} to ${show(after)}; review by hand`;
  return plainFinding(ctx, "unclassified", { pointer, at: after?.pointer ?? head.pointer, before: show(before), after: show(after), what });
}
