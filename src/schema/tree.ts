import { appendPointer, resolvePointer } from "../json-pointer.js";

/**
 * The schemas of a document as the rules here read them: the value at a location, a subschema's
 * location, and where a `$ref` leads. The compiler's tree resolves through its registry (`$id`,
 * `$anchor`, other documents; compiler/registry/tree.ts); the model's and the mock's read the
 * bundled document (`documentTree`).
 */
export interface SchemaTree<L> {
  /** the value at a location (undefined when there is none) */
  at(location: L): unknown;
  /** the location of a subschema of the value at `location` */
  child(location: L, ...tokens: readonly (string | number)[]): L;
  /**
   * Where a `$ref` held by the schema at `holder` leads (`where`, the reference's own location,
   * names it in errors); undefined when it leads nowhere this tree knows. The compiler's tree
   * throws instead, for a reference that does not resolve.
   */
  follow(ref: string, holder: L, where: L): L | undefined;
  /** the same location gives the same key */
  key(location: L): string;
  /** the location as a JSON pointer within its document ("/components/schemas/Pet"; "" when unknown) */
  pointer(location: L): string;
  /** reports a schema the rules cannot read (a malformed discriminator) at `location` */
  fail(location: L, message: string): never;
}

/**
 * A place in a bundled document: the value, and its pointer ("#/components/schemas/Pet") when it
 * is known (a schema the mock puts together has none).
 */
export interface DocumentPlace {
  readonly value: unknown;
  readonly pointer?: string;
}

/** A bundled document, whose `$ref`s are local ("#/..."): each leads where it points. */
export function documentTree(document: unknown): SchemaTree<DocumentPlace> {
  return {
    at: (place) => place.value,
    child: (place, ...tokens) => ({
      value: tokens.reduce<unknown>((value, token) => stepInto(value, token), place.value),
      ...(place.pointer === undefined ? {} : { pointer: appendPointer(place.pointer, ...tokens) }),
    }),
    follow: (ref) => (ref.startsWith("#") ? { value: resolvePointer(document, ref), pointer: ref } : undefined),
    key: (place) => place.pointer ?? "",
    pointer: (place) => (place.pointer === undefined ? "" : place.pointer.slice(1)),
    fail: (place, message) => {
      throw new Error(`${place.pointer ?? "a schema"}: ${message}`);
    },
  };
}

/** The member of a value named by one pointer token (own properties, array indexes). */
function stepInto(value: unknown, token: string | number): unknown {
  if (Array.isArray(value))
    return typeof token === "number" || /^(0|[1-9][0-9]*)$/.test(token) ? value[Number(token)] : undefined;
  if (typeof value !== "object" || value === null || !Object.hasOwn(value, token)) return undefined;
  return (value as Record<string | number, unknown>)[token];
}
