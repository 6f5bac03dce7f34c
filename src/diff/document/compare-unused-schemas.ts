import { appendPointer, resolvePointer } from "../../json-pointer.js";
import { isRecord } from "../../json-value.js";
import { scanSchema } from "../../model/schemas.js";
import type { Finding } from "../findings/finding.js";
import type { DiffSides } from "../operations/operation-context.js";
import { compareSchemas } from "../schema/compare-schema.js";
import { pairsReachedFrom } from "../schema/shared-comparisons.js";
import type { SpecSide } from "../source/load-side.js";

const KEPT: ReadonlySet<string> = new Set([
  "documentation-changed",
  "example-changed",
  "deprecation-changed",
  "unclassified",
]);

/**
 * Component schemas that no operation uses, on both sides: they matter only as exported types
 * and validators. A change that alters the type breaks the package; one that only changes what
 * the validator accepts is a warning.
 */
export function compareUnusedSchemas(sides: DiffSides, renames: ReadonlyMap<string, string>): Finding[] {
  const [usedBefore, usedAfter] = [usedSchemas(sides.base), usedSchemas(sides.head)];
  const throughOperations = new Set(
    [...sides.shared.edges.keys()]
      .filter((origin) => origin.startsWith("operation "))
      .flatMap((origin) => pairsReachedFrom(sides.shared, origin)),
  );
  return sides.base.model.schemas.flatMap((old) => {
    const now = sides.head.model.schemas.find((schema) => schema.name === (renames.get(old.name) ?? old.name));
    if (now === undefined || usedBefore.has(old.name) || usedAfter.has(now.name)) return [];
    const within = `component ${now.name}`;
    const ctx = {
      base: sides.base.schemas,
      head: sides.head.schemas,
      direction: "request" as const,
      place: "request" as const,
      label: `component ${now.name} (used by no operation)`,
      path: "",
      ownerPath: "",
      owner: now.typeName,
      typeNameOf: sides.typeNameOf,
      inComponent: false,
      seen: new Set<string>(),
      shared: sides.shared,
      within,
    };
    const parts = (side: SpecSide, pointer: string): { value: unknown; pointer: string }[] => [
      { value: resolvePointer(side.loaded.document, pointer), pointer },
    ];
    const findings = [
      ...compareSchemas(ctx, parts(sides.base, old.pointer), parts(sides.head, now.pointer)),
      ...pairsReachedFrom(sides.shared, within)
        .filter((pair) => !throughOperations.has(pair))
        .flatMap((pair) => sides.shared.own.get(pair) ?? []),
    ];
    return findings.map((finding) => asPackageFinding(finding, now.typeName, now.validatorName));
  });
}

function asPackageFinding(finding: Finding, typeName: string, validatorName: string): Finding {
  const { typeBreak: _typeBreak, ...rest } = finding;
  if (KEPT.has(finding.rule)) return { ...rest, direction: "package" };
  if (finding.typeBreak !== undefined)
    return {
      ...rest,
      rule: "package-type-changed",
      message: `${finding.message}: code using the exported type ${typeName} may no longer compile`,
    };
  return {
    ...rest,
    rule: "package-validator-changed",
    message: `${finding.message}: ${validatorName} accepts different values`,
  };
}

/** Components reachable from the paths and webhooks (and the other component sections), following $refs between schemas. */
function usedSchemas(side: SpecSide): Set<string> {
  const document = side.loaded.document;
  const components = isRecord(document.components) ? document.components : {};
  const { schemas: _schemas, ...others } = components;
  const used = new Set([
    ...scanSchema(document.paths).refs,
    ...scanSchema(document.webhooks).refs,
    ...scanSchema(others).refs,
  ]);
  for (const name of [...used]) walk(document, name, used);
  return used;
}

function walk(document: unknown, name: string, used: Set<string>): void {
  for (const ref of scanSchema(resolvePointer(document, appendPointer("#/components/schemas", name))).refs) {
    if (used.has(ref)) continue;
    used.add(ref);
    walk(document, ref, used);
  }
}
