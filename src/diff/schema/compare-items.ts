import { appendPointer } from "../../json-pointer.js";
import type { Finding } from "../findings/finding.js";
import type { CompareSchemas } from "./compare-object.js";
import { descend, type SchemaContext } from "./schema-context.js";
import { bothAccept, type SchemaParts, type Shape } from "./shape.js";

/**
 * Items by position: each of the first items (prefixItems on either side) against the schema the
 * other side has for that position (its prefixItems, else its items), then the items after them.
 */
export function compareItems(ctx: SchemaContext, base: Shape, head: Shape, compare: CompareSchemas): Finding[] {
  if (base.never || head.never || !bothAccept(base, head, "array")) return [];
  const positions = Math.max(base.prefixItems.length, head.prefixItems.length);
  const at = (shape: Shape, index: number): SchemaParts => shape.prefixItems[index] ?? shape.items ?? anything(shape);
  const rest =
    base.items === undefined && head.items === undefined
      ? []
      : compare(descend(ctx, "[]"), base.items ?? anything(base), head.items ?? anything(head));
  return [
    ...Array.from({ length: positions }, (_, index) =>
      compare(descend(ctx, `[${index}]`), at(base, index), at(head, index)),
    ).flat(),
    ...rest,
  ];
}

function anything(shape: Shape): SchemaParts {
  return [{ value: true, pointer: appendPointer(shape.pointer, "items") }];
}
