import type { Finding } from "../findings/finding.js";
import { type OperationPairs, operationKey } from "../operations/match-operations.js";
import type { DiffSides } from "../operations/operation-context.js";
import { type ExportedName, indexSurface, mainOwner, surfaceOf } from "./surface.js";

/** What the surface comparison needs besides the two sides. */
export interface SurfaceInput {
  readonly pairs: OperationPairs;
  /** component renames, old key → new key */
  readonly renames: ReadonlyMap<string, string>;
}

/**
 * The package's exported names, compared through the naming authority: names that disappeared
 * (breaking for importers) and appeared (minor), grouped by their component or operation. Names
 * of removed or added operations, and of operations whose operationId changed, are reported by
 * those rules; a renamed component gets one finding listing every name it takes with it.
 */
export function compareSurface(sides: DiffSides, input: SurfaceInput): Finding[] {
  const before = indexSurface(surfaceOf(sides.base.model));
  const after = indexSurface(surfaceOf(sides.head.model));
  const removed = [...before]
    .filter(([name, claims]) => !sameOwner(claims, after.get(name)))
    .flatMap(([, claims]) => mainOwner(claims) ?? []);
  const added = [...after]
    .filter(([name, claims]) => !sameOwner(claims, before.get(name)))
    .flatMap(([, claims]) => mainOwner(claims) ?? []);
  const skipped = skippedOperations(input.pairs);
  return [
    ...renamedSchemas(sides, input.renames, before, after),
    ...groupByOwner(removed.filter((e) => !covered(e, skipped, input.renames, "base"))).map((group) =>
      removedGroup(sides, group),
    ),
    ...groupByOwner(added.filter((e) => !covered(e, skipped, input.renames, "head"))).map((group) =>
      addedGroup(sides, group),
    ),
  ];
}

/**
 * Whether a name means the same on both sides: it exists on the other side, for the same owner
 * and role (a component that takes an operation's type name moves that name to itself).
 */
function sameOwner(claims: readonly ExportedName[], others: readonly ExportedName[] | undefined): boolean {
  const [owner, other] = [mainOwner(claims), others === undefined ? undefined : mainOwner(others)];
  return (
    other !== undefined &&
    owner?.owner.kind === other.owner.kind &&
    owner.owner.key === other.owner.key &&
    owner.role === other.role
  );
}

/** Operations whose names are reported elsewhere: removed, added, or with a new operationId. */
function skippedOperations(pairs: OperationPairs): Set<string> {
  const changedIds = pairs.matched
    .filter(([a, b]) => a.id !== b.id)
    .flatMap(([a, b]) => [operationKey(a), operationKey(b)]);
  return new Set([...pairs.removed.map(operationKey), ...pairs.added.map(operationKey), ...changedIds]);
}

function covered(
  exported: ExportedName,
  skipped: ReadonlySet<string>,
  renames: ReadonlyMap<string, string>,
  side: "base" | "head",
): boolean {
  if (exported.owner.kind === "operation") return skipped.has(exported.owner.key);
  return side === "base" ? renames.has(exported.owner.key) : [...renames.values()].includes(exported.owner.key);
}

function groupByOwner(names: readonly ExportedName[]): ExportedName[][] {
  const groups = new Map<string, ExportedName[]>();
  for (const exported of names) {
    const key = `${exported.owner.kind} ${exported.owner.key}`;
    groups.set(key, [...(groups.get(key) ?? []), exported]);
  }
  return [...groups.values()];
}

function renamedSchemas(
  sides: DiffSides,
  renames: ReadonlyMap<string, string>,
  before: Map<string, ExportedName[]>,
  after: Map<string, ExportedName[]>,
): Finding[] {
  const namesOf = (index: Map<string, ExportedName[]>, key: string): string[] =>
    [...index]
      .filter(([, claims]) => claims.some((c) => c.owner.kind === "schema" && c.owner.key === key))
      .map(([name]) => name);
  return [...renames].map(([old, now]) => {
    const [was, is] = [namesOf(before, old), namesOf(after, now)];
    const message = `component ${old} renamed to ${now}: no HTTP change, but the exports ${was.join(", ")} become ${is.join(", ")}`;
    return { rule: "api-schema-renamed", pointer: schemaPointer(sides, "head", now), before: was, after: is, message };
  });
}

function removedGroup(sides: DiffSides, group: readonly ExportedName[]): Finding {
  const [first] = group;
  const names = group.map((e) => e.name);
  if (first?.owner.kind === "schema" && !sides.head.model.schemas.some((s) => s.name === first.owner.key)) {
    return {
      rule: "api-schema-removed",
      pointer: schemaPointer(sides, "base", first.owner.key),
      at: "#/components",
      before: names,
      message: `component ${first.owner.key} removed: the exports ${names.join(", ")} go with it`,
    };
  }
  const renamedTo = group.map((e) => renamedName(sides, e)).filter((name) => name !== undefined);
  const message = `${ownerLabel(sides, group)}: export(s) ${names.join(", ")} no longer exist${renamedTo.length > 0 ? ` (now ${renamedTo.join(", ")})` : ""}`;
  return {
    rule: "package-export-removed",
    pointer: ownerPointer(sides, group),
    before: names,
    ...(renamedTo.length > 0 ? { after: renamedTo } : {}),
    message,
  };
}

function addedGroup(sides: DiffSides, group: readonly ExportedName[]): Finding {
  const [first] = group;
  const names = group.map((e) => e.name);
  const isNewSchema =
    first?.owner.kind === "schema" && !sides.base.model.schemas.some((s) => s.name === first.owner.key);
  if (isNewSchema)
    return {
      rule: "api-schema-added",
      pointer: schemaPointer(sides, "head", first.owner.key),
      after: names,
      message: `component ${first.owner.key} added: new exports ${names.join(", ")}`,
    };
  return {
    rule: "package-export-added",
    pointer: ownerPointer(sides, group),
    after: names,
    message: `${ownerLabel(sides, group)}: new export(s) ${names.join(", ")}`,
  };
}

/** The new name of an export whose owner still exists but whose name changed (e.g. after a collision). */
function renamedName(sides: DiffSides, exported: ExportedName): string | undefined {
  const match = surfaceOf(sides.head.model).find(
    (e) => e.owner.kind === exported.owner.kind && e.owner.key === exported.owner.key && e.role === exported.role,
  );
  return match?.name;
}

function ownerLabel(sides: DiffSides, group: readonly ExportedName[]): string {
  const owner = group[0]?.owner;
  if (owner?.kind === "schema") return `component ${owner.key}`;
  const operation = sides.head.model.operations.find((o) => operationKey(o) === owner?.key);
  return operation === undefined ? "package" : `operation ${operation.id}`;
}

function ownerPointer(sides: DiffSides, group: readonly ExportedName[]): string {
  const owner = group[0]?.owner;
  if (owner?.kind === "schema") return schemaPointer(sides, "head", owner.key);
  return sides.head.model.operations.find((o) => operationKey(o) === owner?.key)?.pointer ?? "#/paths";
}

function schemaPointer(sides: DiffSides, side: "base" | "head", key: string): string {
  return sides[side].model.schemas.find((s) => s.name === key)?.pointer ?? "#/components/schemas";
}
