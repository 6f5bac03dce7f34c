import { shapeOf } from "./normalize.js";
import { acceptsType, intersectTypes, type JsonType, type SchemaDoc, type SchemaParts, type Shape } from "./shape.js";

/** A schema and the document it is read in. */
export interface SchemaIn {
  readonly doc: SchemaDoc;
  readonly parts: SchemaParts;
}

/** How deep into properties the search for a property that tells two objects apart goes. */
const DEPTH = 3;

/**
 * Whether some value may be valid against both schemas. False only where that is ruled out: no
 * type or enum value in common, or objects told apart by a property one requires and the other
 * forbids, or that both require with values that cannot be the same (a `const` tag). Anything
 * else, such as two patterns, may overlap.
 */
export function mayOverlap(a: SchemaIn, b: SchemaIn, depth = 0): boolean {
  const [x, y] = [shapeOf(a.doc, a.parts), shapeOf(b.doc, b.parts)];
  if (x.never || y.never) return false;
  if (x.nullable && y.nullable) return true;
  const common = intersectTypes(x.types, y.types);
  if (common !== undefined && common.size === 0) return false;
  if (!enumsMeet(x, y)) return false;
  const onlyObjects = common !== undefined && common.size === 1 && common.has("object");
  return !(onlyObjects && depth < DEPTH && objectsApart({ doc: a.doc, shape: x }, { doc: b.doc, shape: y }, depth));
}

/** Whether some pair of the schemas may overlap. */
export function anyPairOverlaps(schemas: readonly SchemaIn[]): boolean {
  return schemas.some((a, index) => schemas.slice(index + 1).some((b) => mayOverlap(a, b)));
}

/** Whether the enum values (where given) leave a value both sides accept. */
function enumsMeet(x: Shape, y: Shape): boolean {
  if (x.enumValues !== undefined && y.enumValues !== undefined)
    return x.enumValues.some((value) => y.enumValues?.includes(value));
  if (x.enumValues !== undefined) return x.enumValues.some((value) => acceptsType(y.types, typeOfValue(value)));
  if (y.enumValues !== undefined) return y.enumValues.some((value) => acceptsType(x.types, typeOfValue(value)));
  return true;
}

/** The JSON type of a value given as canonical JSON (null aside, which enum values do not hold). */
function typeOfValue(json: string): JsonType {
  const value: unknown = JSON.parse(json);
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "string" || typeof value === "boolean") return typeof value as JsonType;
  return "object";
}

interface ShapeIn {
  readonly doc: SchemaDoc;
  readonly shape: Shape;
}

/** Whether a property one object requires is forbidden in the other, or one both require cannot have the same value in both. */
function objectsApart(x: ShapeIn, y: ShapeIn, depth: number): boolean {
  const names = [...new Set([...x.shape.required, ...y.shape.required])];
  return names.some((name) => {
    const [inX, inY] = [valueSchema(x, name), valueSchema(y, name)];
    if ((x.shape.required.has(name) && inY === "forbidden") || (y.shape.required.has(name) && inX === "forbidden"))
      return true;
    if (
      !x.shape.required.has(name) ||
      !y.shape.required.has(name) ||
      typeof inX === "string" ||
      typeof inY === "string"
    )
      return false;
    return !mayOverlap({ doc: x.doc, parts: inX }, { doc: y.doc, parts: inY }, depth + 1);
  });
}

/**
 * The schema a property's value must match in an object: its own, or the one for other
 * properties; "forbidden" where no value can be there (its schema accepts nothing, or the object
 * accepts no other properties and nothing else on the level, a pattern or a branch, could allow
 * it); "any" where nothing constrains it.
 */
function valueSchema({ doc, shape }: ShapeIn, name: string): SchemaParts | "any" | "forbidden" {
  const own = shape.properties.get(name);
  if (own !== undefined) return shapeOf(doc, own).never ? "forbidden" : own;
  if (typeof shape.additional !== "string") return shape.additional;
  const onlyListed = shape.branchings.length === 0 && shape.conditionals.length === 0 && shape.subschemas.size === 0;
  return shape.additional === "closed" && onlyListed ? "forbidden" : "any";
}
