import { compareUnusedComponents } from "./document/compare-components.js";
import { compareDocument } from "./document/compare-document.js";
import { compareSecuritySchemes } from "./document/compare-schemes.js";
import { compareUnusedSchemas } from "./document/compare-unused-schemas.js";
import { dedupeFindings } from "./findings/dedupe.js";
import { placeChanges } from "./findings/place-changes.js";
import { compareOperations } from "./operations/compare-operations.js";
import { compareWebhooks } from "./operations/compare-webhooks.js";
import { matchOperations } from "./operations/match-operations.js";
import { createDiffSides } from "./operations/operation-context.js";
import { compareSurface } from "./package/compare-surface.js";
import { findSchemaRenames } from "./package/schema-renames.js";
import { typeChangesOf } from "./package/type-changes.js";
import type { Change } from "./report/types.js";
import type { SpecSide } from "./source/load-side.js";

/**
 * Every change from `base` to `head`, classified and placed: the document and its servers, the
 * security schemes, each operation (matched by method and path template), the webhooks, the package's
 * exported names, the components no operation uses, and the type changes that break the
 * generated code on one side. Both sides must have gone through `loadSide`.
 */
export function diffSpecs(base: SpecSide, head: SpecSide): Change[] {
  const sides = createDiffSides(base, head);
  const pairs = matchOperations(base.model.operations, head.model.operations);
  const schemes = compareSecuritySchemes(sides);
  const renames = findSchemaRenames(sides, pairs);
  const findings = [
    ...compareDocument(sides),
    ...schemes.findings,
    ...compareOperations(sides, pairs, schemes.renamed),
    ...compareWebhooks(sides),
    ...compareSurface(sides, { pairs, renames }),
    ...compareUnusedComponents(sides),
    ...compareUnusedSchemas(sides, renames),
  ];
  return placeChanges(dedupeFindings([...findings, ...typeChangesOf(findings, sides)]), head);
}
