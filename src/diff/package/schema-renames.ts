import { resolvePointer } from "../../json-pointer.js";
import type { BodyContentModel, OperationModel } from "../../model/types.js";
import type { OperationPairs } from "../operations/match-operations.js";
import type { DiffSides } from "../operations/operation-context.js";
import { schemaDigest } from "../schema/canonical.js";
import type { SpecSide } from "../source/load-side.js";

/**
 * Components that were renamed (old key → new key): a key that disappeared paired with a new key
 * that means the same schema, or failing that, that takes its place in the same request or
 * response of the same operation.
 */
export function findSchemaRenames(sides: DiffSides, pairs: OperationPairs): Map<string, string> {
  const [baseKeys, headKeys] = [keysOf(sides.base), keysOf(sides.head)];
  const gone = sides.base.model.schemas.filter((schema) => !headKeys.has(schema.name));
  const fresh = sides.head.model.schemas.filter((schema) => !baseKeys.has(schema.name));
  const renames = new Map<string, string>();
  const taken = new Set<string>();
  for (const old of gone) {
    const text = meaning(sides.base, old.pointer);
    const now = fresh.find(
      (candidate) => !taken.has(candidate.name) && meaning(sides.head, candidate.pointer) === text,
    );
    if (now !== undefined) record(renames, taken, old.name, now.name);
  }
  const isGone = (key: string): boolean => gone.some((s) => s.name === key) && !renames.has(key);
  const isFresh = (key: string): boolean => fresh.some((s) => s.name === key) && !taken.has(key);
  for (const [before, after] of usedInPlace(pairs))
    if (isGone(before) && isFresh(after)) record(renames, taken, before, after);
  return renames;
}

function keysOf(side: SpecSide): Set<string> {
  return new Set(side.model.schemas.map((schema) => schema.name));
}

/** A component's meaning as comparable text. */
function meaning(side: SpecSide, pointer: string): string {
  return schemaDigest(side.schemas, [{ value: resolvePointer(side.loaded.document, pointer), pointer }], "meaning");
}

function record(renames: Map<string, string>, taken: Set<string>, before: string, after: string): void {
  renames.set(before, after);
  taken.add(after);
}

/** Pairs of components used at the same place (body media type, response status and media type) of matched operations. */
function usedInPlace(pairs: OperationPairs): [string, string][] {
  return pairs.matched.flatMap(([before, after]) => {
    const places = (operation: OperationModel): Map<string, BodyContentModel> =>
      new Map([
        ...(operation.requestBody?.contents ?? []).map((c): [string, BodyContentModel] => [
          `request ${c.mediaType}`,
          c,
        ]),
        ...operation.responses.flatMap((r) =>
          r.contents.map((c): [string, BodyContentModel] => [`${r.status} ${c.mediaType}`, c]),
        ),
      ]);
    const now = places(after);
    return [...places(before)].flatMap(([place, content]) => {
      const partner = now.get(place)?.componentRef;
      return content.componentRef !== undefined && partner !== undefined
        ? [[content.componentRef, partner] as [string, string]]
        : [];
    });
  });
}
