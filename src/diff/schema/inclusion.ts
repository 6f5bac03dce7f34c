/**
 * Whether every value one schema accepts, another accepts too, where that can be shown: the wider
 * accepts anything (`{}`, `true`), or means the same, or restricts nothing but the types, which
 * cover the narrower's. Anything else is not shown (false), though it may hold.
 */
import { schemaDigest } from "./canonical.js";
import { shapeOf } from "./normalize.js";
import type { SchemaIn } from "./overlap.js";
import { coversTypes, holdsNoStructure, type Shape } from "./shape.js";

/** Whether every value `narrow` accepts is shown to be accepted by `wide`. */
export function includes(wide: SchemaIn, narrow: SchemaIn): boolean {
  const pointer = wide.parts[0]?.pointer ?? "#";
  const meaning = schemaDigest(wide.doc, wide.parts, "meaning");
  if (meaning === schemaDigest(wide.doc, [{ value: true, pointer }], "meaning")) return true;
  if (meaning === schemaDigest(narrow.doc, narrow.parts, "meaning")) return true;
  const [outer, inner] = [shapeOf(wide.doc, wide.parts), shapeOf(narrow.doc, narrow.parts)];
  if (inner.never) return true;
  return onlyTypes(outer) && coversTypes(outer.types, inner.types) && (outer.nullable || !inner.nullable);
}

/** Whether a level restricts its values by their types (and null) alone. */
function onlyTypes(shape: Shape): boolean {
  return (
    !shape.never &&
    shape.enumValues === undefined &&
    holdsNoStructure(shape) &&
    [...shape.keywords.keys()].every((key) => key === "default") &&
    shape.branchings.length === 0
  );
}
