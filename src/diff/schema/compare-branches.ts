import type { Finding } from "../findings/finding.js";
import { schemaDigest } from "./canonical.js";
import type { CompareSchemas } from "./compare-object.js";
import { includes } from "./inclusion.js";
import type { SchemaChangeKind } from "./kinds.js";
import { shapeOf } from "./normalize.js";
import { anyPairOverlaps, mayOverlap, type SchemaIn } from "./overlap.js";
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
 * are reported as branches removed and added. A oneOf branch added where a value may match it
 * and an old branch too is an overlap: such a value, valid before, now matches two branches and
 * is refused (unless a discriminator picks the branch). oneOf and anyOf differ only for values
 * that match several branches, so a switch between them counts where branches may overlap.
 */
export function compareBranchings(ctx: SchemaContext, base: Shape, head: Shape, compare: CompareSchemas): Finding[] {
  const count = Math.max(base.branchings.length, head.branchings.length);
  const findings: Finding[] = [];
  for (let index = 0; index < count; index++) {
    const [before, after] = [base.branchings[index], head.branchings[index]];
    if (before !== undefined && after !== undefined)
      findings.push(
        ...compareBranches(ctx, { before, after, discriminated: head.other.has("discriminator") }, compare),
      );
    else findings.push(...compositionAddedOrRemoved(ctx, before, after, head));
  }
  return findings;
}

/** The two sides' branchings at one place, and whether the new level picks its branch by a discriminator. */
interface BranchingPair {
  readonly before: Branching;
  readonly after: Branching;
  readonly discriminated: boolean;
}

/** Both sides' branches: all of them, the pairs matched, and those left over as removed and added. */
interface Matching {
  readonly old: readonly Branch[];
  readonly now: readonly Branch[];
  readonly pairs: readonly (readonly [Branch, Branch])[];
  readonly removed: readonly Branch[];
  readonly added: readonly Branch[];
}

function compareBranches(ctx: SchemaContext, pair: BranchingPair, compare: CompareSchemas): Finding[] {
  const matching = matchBranches(ctx, pair);
  return [
    ...keywordSwitch(ctx, pair, matching),
    ...matching.pairs.flatMap(([a, b]) => compare(intoBranch(ctx, pair.after.keyword, b.index), a.parts, b.parts)),
    ...matching.removed.map((branch) => removedBranch(ctx, pair, branch, matching)),
    ...matching.added.map((branch) => addedBranch(ctx, pair, branch, matching)),
  ];
}

/**
 * Equal branches paired first, then branches of the same types that share a property, then
 * branches shown to hold the values of others (inclusion.ts): a new branch inside an old one
 * (`{}` narrowed to `anyOf: [string, number]`) is compared with it as a narrowing, an old branch
 * inside a new one as a widening; several may lie inside one. A oneOf's values are its
 * branches' only where no two branches overlap, so only then does a oneOf side take part.
 */
function matchBranches(ctx: SchemaContext, { before, after }: BranchingPair): Matching {
  const [old, now] = [branchesOf(ctx.base, before), branchesOf(ctx.head, after)];
  const [removed, added] = [[...old], [...now]];
  const pairs = [
    ...pairBranches(removed, added, (a, b) => a.canonical === b.canonical),
    ...pairBranches(removed, added, areSimilar),
  ];
  const unionOf = (keyword: string, doc: SchemaDoc, list: readonly Branch[]): boolean =>
    keyword === "anyOf" || !anyPairOverlaps(list.map((branch) => located(doc, branch)));
  const narrowed = unionOf(before.keyword, ctx.base, old)
    ? pairInside(added, removed, (host, branch) => includes(located(ctx.base, host), located(ctx.head, branch)))
    : [];
  const widened = unionOf(after.keyword, ctx.head, now)
    ? pairInside(removed, added, (host, branch) => includes(located(ctx.head, host), located(ctx.base, branch)))
    : [];
  const inside = [...narrowed, ...widened.map(([host, branch]): [Branch, Branch] => [branch, host])];
  return { old, now, pairs: [...pairs, ...inside], removed, added };
}

/**
 * Each branch of `inner` that lies inside a branch of `hosts`, with its host; both lists lose the
 * branches paired (a host may hold several).
 */
function pairInside(
  inner: Branch[],
  hosts: Branch[],
  holds: (host: Branch, branch: Branch) => boolean,
): [Branch, Branch][] {
  const pairs: [Branch, Branch][] = [];
  for (const branch of [...inner]) {
    const host = hosts.find((candidate) => holds(candidate, branch));
    if (host === undefined) continue;
    pairs.push([host, branch]);
    inner.splice(inner.indexOf(branch), 1);
  }
  const used = new Set(pairs.map(([host]) => host));
  hosts.splice(0, hosts.length, ...hosts.filter((host) => !used.has(host)));
  return pairs;
}

function show(branch: Branch): string {
  return branch.shape.component ?? describeTypes(branch.shape);
}

function removedBranch(
  ctx: SchemaContext,
  { before, after }: BranchingPair,
  branch: Branch,
  { now }: Matching,
): Finding {
  if (before.keyword === "anyOf" && now.some((other) => other.canonical === branch.canonical))
    return duplicateFinding(ctx, branch, "removed");
  const what = `${before.keyword} branch #${branch.index + 1} (${show(branch)}) removed`;
  return schemaFinding(ctx, `${before.keyword}-removed`, {
    pointer: branch.shape.pointer,
    at: after.pointer,
    before: show(branch),
    what,
  });
}

/**
 * A branch added: to an anyOf, it adds its values (none when another branch is the same); to a
 * oneOf, a value valid against it and an old branch now matches two and is refused, unless a
 * discriminator picks the branch or no such value can exist.
 */
function addedBranch(
  ctx: SchemaContext,
  { after, discriminated }: BranchingPair,
  branch: Branch,
  { old, now }: Matching,
): Finding {
  const earlier = [...old, ...now.filter((other) => other.index < branch.index)];
  if (after.keyword === "anyOf" && earlier.some((other) => other.canonical === branch.canonical))
    return duplicateFinding(ctx, branch, "added");
  const overlaps =
    after.keyword === "oneOf" &&
    !discriminated &&
    old.some((other) => mayOverlap(located(ctx.base, other), located(ctx.head, branch)));
  const kind: SchemaChangeKind = after.keyword === "anyOf" ? "anyOf-added" : overlaps ? "oneOf-overlap" : "oneOf-added";
  const note = overlaps ? ": a value valid against it and an old branch now matches two branches and is refused" : "";
  return schemaFinding(ctx, kind, {
    pointer: branch.shape.pointer,
    after: show(branch),
    what: `${after.keyword} branch #${branch.index + 1} (${show(branch)}) added${note}`,
  });
}

/** An anyOf branch added or removed beside another with the same meaning: the anyOf accepts what it did. */
function duplicateFinding(ctx: SchemaContext, branch: Branch, change: "added" | "removed"): Finding {
  return plainFinding(ctx, "documentation-changed", {
    pointer: branch.shape.pointer,
    what: `anyOf branch #${branch.index + 1} ${change}, the same as another branch: the values accepted are unchanged`,
  });
}

/** oneOf → anyOf accepts the values that match several branches; anyOf → oneOf refuses them. Nothing changes where no two branches can overlap. */
function keywordSwitch(
  ctx: SchemaContext,
  { before, after, discriminated }: BranchingPair,
  { old, now }: Matching,
): Finding[] {
  if (before.keyword === after.keyword || discriminated) return [];
  const loosened = after.keyword === "anyOf";
  const [doc, list] = loosened ? [ctx.base, old] : [ctx.head, now];
  if (!anyPairOverlaps(list.map((branch) => located(doc, branch)))) return [];
  const what = `${before.keyword} became ${after.keyword}: a value valid against several branches is now ${loosened ? "accepted" : "refused"}`;
  return [
    schemaFinding(ctx, loosened ? "constraint-loosened" : "constraint-tightened", {
      pointer: after.pointer,
      before: before.keyword,
      after: after.keyword,
      what,
    }),
  ];
}

function located(doc: SchemaDoc, branch: Branch): SchemaIn {
  return { doc, parts: branch.parts };
}

function branchesOf(doc: SchemaDoc, branching: Branching): Branch[] {
  return branching.branches.map((parts, index) => ({
    index,
    parts,
    shape: shapeOf(doc, parts),
    canonical: schemaDigest(doc, parts, "meaning"),
  }));
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

/** A oneOf/anyOf beside the rest of a level that appeared (a value must now match it too) or disappeared. */
function compositionAddedOrRemoved(
  ctx: SchemaContext,
  before: Branching | undefined,
  after: Branching | undefined,
  head: Shape,
): Finding[] {
  if (after !== undefined) {
    const what = `${after.keyword} of ${after.branches.length} branches added: a value must now also match it`;
    return [schemaFinding(ctx, "constraint-tightened", { pointer: after.pointer, after: after.keyword, what })];
  }
  if (before === undefined) return [];
  return [
    schemaFinding(ctx, "constraint-loosened", {
      pointer: before.pointer,
      at: head.pointer,
      before: before.keyword,
      what: `${before.keyword} of ${before.branches.length} branches removed`,
    }),
  ];
}
