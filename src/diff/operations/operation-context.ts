import { resolvePointer } from "../../json-pointer.js";
import type { OperationModel } from "../../model/types.js";
import type { SchemaPlace } from "../schema/kinds.js";
import type { SchemaContext } from "../schema/schema-context.js";
import type { SchemaParts } from "../schema/shape.js";
import { createSharedComparisons, type SharedComparisons } from "../schema/shared-comparisons.js";
import type { SpecSide } from "../source/load-side.js";

/** Both sides of a comparison, and the exported type name of each component of the new side. */
export interface DiffSides {
  readonly base: SpecSide;
  readonly head: SpecSide;
  readonly typeNameOf: (component: string) => string | undefined;
  /** the comparisons of component pairs, shared by every operation */
  readonly shared: SharedComparisons;
}

/** One matched pair of operations being compared. */
export interface OperationContext {
  readonly sides: DiffSides;
  readonly before: OperationModel;
  readonly after: OperationModel;
  /** schema pairs already compared for this operation */
  readonly seen: Set<string>;
}

/** What the comparison of an exchange's schemas needs: both sides, the pairs already compared, and the id its findings name. */
export type ExchangeContext = Pick<OperationContext, "sides" | "seen"> & { readonly after: Pick<OperationModel, "id"> };

/** The sides of a comparison, with the new side's component type names at hand. */
export function createDiffSides(base: SpecSide, head: SpecSide): DiffSides {
  const names = new Map(head.model.schemas.map((schema) => [schema.name, schema.typeName]));
  return { base, head, typeNameOf: (component) => names.get(component), shared: createSharedComparisons() };
}

/** A schema comparison context for one place of the operation. */
export function schemaContextOf(
  ctx: ExchangeContext,
  place: SchemaPlace,
  label: string,
  owner: string | undefined,
): SchemaContext {
  return {
    base: ctx.sides.base.schemas,
    head: ctx.sides.head.schemas,
    direction: place === "response" ? "response" : "request",
    place,
    label,
    path: "",
    ownerPath: "",
    ...(owner !== undefined ? { owner } : {}),
    typeNameOf: ctx.sides.typeNameOf,
    inComponent: false,
    seen: ctx.seen,
    shared: ctx.sides.shared,
    within: operationOrigin(ctx.after.id),
  };
}

/** The schema at a pointer of a side as comparison parts; a missing schema accepts anything. */
export function schemaParts(side: SpecSide, schemaPointer: string | undefined, owner: string): SchemaParts {
  if (schemaPointer === undefined) return [{ value: true, pointer: owner }];
  return [{ value: resolvePointer(side.loaded.document, schemaPointer), pointer: schemaPointer }];
}

/** How the shared comparisons name an operation as the place that reaches component pairs. */
export function operationOrigin(operationId: string): string {
  return `operation ${operationId}`;
}
